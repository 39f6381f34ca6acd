import DoogitMerge
import DoogitSupport

/// What an issue read on GitHub means for its linked todo, and what the todo asks of the issue:
/// pure functions of the todo's entry (its registers and the issue as last seen) and the issue.
///
/// The issue as last seen travels with the todo (`TodoEntry.seen`), so a change on GitHub is
/// told apart from an old state on every machine alike, and applied once. A change is dated by
/// GitHub's time of it, so it never undoes a change the user made to the todo after it, on any
/// machine: the later of the two wins. The issue follows the todo (with pushing on) where the
/// todo changed after it was linked and differs from the issue.
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

    /// The stamp of a change on GitHub at `time` that is known to follow the one that wrote
    /// `current` (it was seen after it): within the same second, just after it.
    static func stamp(_ time: Timestamp, after current: HybridTimestamp) -> HybridTimestamp {
        let at = stamp(time)
        guard current >= at, current.wall == at.wall, current.machine == HybridTimestamp.githubMachine else { return at }
        return HybridTimestamp(wall: at.wall, counter: current.counter + 1, machine: HybridTimestamp.githubMachine)
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
                let at = stamp(issue.isClosed ? closedAt ?? updated : updated, after: entry.done.stamp)
                let changedHere = entry.done.stamp > lastSeen
                if at > entry.done.stamp {
                    result.entry.done = Register(DoneState(doneAt: issue.isClosed ? closedAt ?? updated : nil), at: at)
                    result.changes.append(issue.isClosed ? .closed : .reopened)
                    if changedHere { result.conflicts.append(Conflict(field: .state, keptGitHub: true)) }
                } else {
                    result.conflicts.append(Conflict(field: .state, keptGitHub: false))
                }
            }
            if let before = previous.title, let title = issue.title, before != title, entry.text.value != title {
                let at = stamp(updated, after: entry.text.stamp)
                let changedHere = entry.text.stamp > lastSeen
                if at > entry.text.stamp {
                    result.entry.text = Register(title, at: at)
                    result.changes.append(.retitled(title))
                    if changedHere { result.conflicts.append(Conflict(field: .text, keptGitHub: true)) }
                } else {
                    result.conflicts.append(Conflict(field: .text, keptGitHub: false))
                }
            }
        }
        result.entry.seen.set(issue, at: entry.issue.stamp)
        return result
    }

    /// What the issue must change to follow the todo: its title where the todo's text changed
    /// after the link and differs from it, its state likewise. Nil when nothing (or when the
    /// issue was never seen under the link: there is nothing to compare with).
    static func push(_ entry: TodoEntry) -> (title: String?, closed: Bool?)? {
        guard let seen = entry.observation else { return nil }
        var title: String?
        if let issueTitle = seen.title, entry.text.value != issueTitle, entry.text.stamp > entry.issue.stamp {
            title = entry.text.value
        }
        var closed: Bool?
        if entry.done.value.done != seen.isClosed, entry.done.stamp > entry.issue.stamp { closed = entry.done.value.done }
        return title == nil && closed == nil ? nil : (title, closed)
    }
}
