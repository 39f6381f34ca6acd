import DoogitMerge
import DoogitSupport

/// What an issue read on GitHub means for its linked todo, and what the todo asks of the issue:
/// pure functions of the todo's entry (its registers and the issue as last seen) and the issue.
///
/// The issue as last seen travels with the todo (`TodoEntry.seen`), so a change on GitHub is
/// told apart from an old state on every machine alike, and applied once. A change is dated by
/// GitHub's time of it, so it never undoes a change the user made to the todo after it, on any
/// machine: the later of the two wins. The issue follows the todo (with pushing on) where the
/// todo changed after it was linked and differs from the issue. The issue's labels are recorded
/// as seen and shown with the todo's tags; they never add or remove a tag.
enum IssueReconciler {
    /// What reading an issue did to its todo.
    struct Pull: Equatable {
        var entry: TodoEntry
        /// What came from GitHub to the todo.
        var changes: [IssueChange] = []
        /// What both sides changed since the issue was last seen; `keptGitHub` says which won.
        var conflicts: [Conflict] = []
    }

    struct Conflict: Equatable {
        var field: IssueField
        var keptGitHub: Bool
    }

    /// The stamp of a change on GitHub at `time`, which GitHub gives to the second: dated late in
    /// that second, so that it comes after a change made here earlier in the same second.
    static func stamp(_ time: Timestamp) -> HybridTimestamp {
        .event(at: Timestamp(millisecondsSinceEpoch: time.millisecondsSinceEpoch / 1000 * 1000 + 999))
    }

    /// The todo after the issue as read now (`closedAt` when it is closed; `issue.seenAt` is
    /// when), with the issue recorded as last seen. An issue never seen under the link is taken
    /// as it is, changing nothing: whoever linked it knew it. A read older than the one recorded,
    /// or the same, changes nothing.
    static func pull(_ entry: TodoEntry, issue: IssueObservation, closedAt: Timestamp?) -> Pull {
        var result = Pull(entry: entry)
        guard let link = entry.issue.value, link.number == issue.number else { return result }
        let previous = entry.observation
        if let previous, previous.sameIssue(as: issue) { return result }
        if let seen = previous?.updatedAt, let read = issue.updatedAt, read < seen { return result }
        let updated = issue.updatedAt ?? closedAt ?? Timestamp(millisecondsSinceEpoch: 0)
        if let previous {
            // Changed since the issue was last seen (and after the link): what the user did.
            let lastSeen = max(entry.issue.stamp, previous.updatedAt.map(stamp) ?? .zero)
            if previous.state != issue.state, entry.done.value.done != issue.isClosed {
                let done = DoneState(doneAt: issue.isClosed ? closedAt ?? updated : nil)
                let kept = take(&result.entry.done, done, at: stamp(done.doneAt ?? updated), lastSeen: lastSeen)
                if kept.taken { result.changes.append(issue.isClosed ? .closed : .reopened) }
                if kept.conflict { result.conflicts.append(Conflict(field: .state, keptGitHub: kept.taken)) }
            }
            if let before = previous.title, let title = issue.title, before != title, entry.text.value != title {
                let kept = take(&result.entry.text, title, at: stamp(updated), lastSeen: lastSeen)
                if kept.taken { result.changes.append(.retitled(title)) }
                if kept.conflict { result.conflicts.append(Conflict(field: .text, keptGitHub: kept.taken)) }
            }
            // Labels are the issue's, shown with the todo's own tags and never changing them.
            if let before = previous.labels, let labels = issue.labels, Set(before.map(TagSet.key)) != Set(labels.map(TagSet.key)) {
                result.changes.append(.relabelled(labels.sorted { TagSet.key($0) < TagSet.key($1) }))
            }
        }
        result.entry.seen.set(issue, at: entry.issue.stamp)
        return result
    }

    /// Takes GitHub's change of a field, made at `event`, unless the user changed the field
    /// since the issue was last seen (`lastSeen`) and later than GitHub's change: the later of the
    /// two wins. Unchanged since, the field takes GitHub's change whatever the clocks say, dated
    /// just after the field's last write where GitHub's time is earlier (a clock ahead of GitHub's).
    /// Whether it was taken, and whether both sides had changed it.
    private static func take<Value>(_ register: inout Register<Value>, _ value: Value, at event: HybridTimestamp,
                                    lastSeen: HybridTimestamp) -> (taken: Bool, conflict: Bool) {
        let changedHere = register.stamp > lastSeen
        guard !changedHere || event > register.stamp else { return (false, true) }
        register = Register(value, at: max(event, .event(after: register.stamp)))
        return (true, changedHere)
    }

    /// What the issue must change to follow the todo (its labels follow the todo's tags as
    /// changes, `label_changes`, not as a state to compare).
    struct Push: Equatable {
        var title: String?
        var closed: Bool?
    }

    /// What the issue must change to follow the todo: its title where the todo's text changed
    /// after the link and differs from it, its state likewise. Nil when nothing (or when the
    /// issue was never seen under the link: there is nothing to compare with).
    static func push(_ entry: TodoEntry) -> Push? {
        guard let seen = entry.observation else { return nil }
        var title: String?
        if let issueTitle = seen.title, entry.text.value != issueTitle, entry.text.stamp > entry.issue.stamp {
            title = entry.text.value
        }
        var closed: Bool?
        if entry.done.value.done != seen.isClosed, entry.done.stamp > entry.issue.stamp { closed = entry.done.value.done }
        return title == nil && closed == nil ? nil : Push(title: title, closed: closed)
    }
}
