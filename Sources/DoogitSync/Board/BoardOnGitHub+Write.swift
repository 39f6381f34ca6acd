import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

extension BoardOnGitHub {
    /// Writes the bodies whose lines changed, right after the read: parts the board needs and
    /// lacks are made (a board new, grown, or whose issue was closed or deleted on GitHub), and
    /// parts it no longer needs closed.
    mutating func write(_ summary: inout BoardSummary, _ session: inout SyncSession) throws {
        let github = session.github
        let now = github.gitHubNow ?? session.clock()
        let ordered = documents.keys.sorted().compactMap { documents[$0] }
        let top = ordered.flatMap(\.top), tail = ordered.flatMap(\.tail)
        let parts = BoardLayout.split(try sections(now: now, session.store), top: top, tail: tail)
        var issues = Dictionary(current.map { ($0.part, $0) }) { first, _ in first }
        func body(_ part: Int) -> String {
            BoardLayout.body(part: part, of: parts.count, sections: parts[part - 1], top: part == 1 ? top : [],
                             tail: part == parts.count ? tail : [], numbers: issues.mapValues(\.number))
        }
        for part in 1...parts.count where issues[part] == nil {
            try session.checkBudget()
            let made = try github.createIssue(owner: owner, name: name, title: BoardLayout.title(part: part, of: parts.count),
                                              body: body(part), labels: [])
            issues[part] = Self.record(made, part: part, now: now)
            summary.created += 1
        }
        var wrote = summary.created > 0
        for part in 1...parts.count {
            let text = body(part)
            guard let issue = issues[part], issue.body != text else { continue }
            try session.checkBudget()
            let updated = try github.updateIssue(owner: owner, name: name, number: issue.number,
                                                 title: BoardLayout.title(part: part, of: parts.count), state: nil, body: text)
            issues[part] = Self.record(updated, part: part, now: now)
            summary.written += 1
            wrote = true
        }
        for number in issues.values.filter({ $0.part > parts.count }).map(\.number) {
            _ = try github.updateIssue(owner: owner, name: name, number: number, title: nil, state: .closed)
            summary.closed += 1
            wrote = true
        }
        let kept = issues.values.filter { $0.part <= parts.count }.sorted { $0.part < $1.part }
        // After a write the listing is not the one read: the next sync reads it whole, once, to
        // learn its version (a 304 against the old one would hide a change made meanwhile).
        try session.store.recordBoard(issues: kept, etag: wrote ? nil : etag, readAt: nil, writtenAt: wrote ? now : nil)
    }

    /// `board off`: every board issue known here closed (not deleted), and forgotten here.
    mutating func closeAll(_ summary: inout BoardSummary, _ session: inout SyncSession) throws {
        let issues = known
        guard !issues.isEmpty else { return }
        for issue in issues {
            try session.checkBudget()
            _ = try session.github.updateIssue(owner: owner, name: name, number: issue.number, title: nil, state: .closed)
            summary.closed += 1
        }
        try session.store.recordBoard(issues: [], etag: nil, readAt: nil)
    }

    /// The board's sections now: each repository's open todos in the list's order, then those
    /// done in the last seven days, with the lines a person wrote under its heading.
    private func sections(now: Timestamp, _ store: Store) throws -> [BoardSection] {
        let since = Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch - BoardPhase.doneDays * 86_400_000)
        var lines: [String: [String]] = kept.added
        for document in documents.keys.sorted().compactMap({ documents[$0] }) { lines.merge(document.bySection) { $0 + $1 } }
        return try store.sections(includeEmpty: true).compactMap { section in
            let shown = section.todos.filter { !$0.done } + section.todos.filter { $0.done && ($0.doneAt ?? Timestamp(millisecondsSinceEpoch: 0)) >= since }
            var items = shown.map(BoardItem.init)
            for index in items.indices { items[index].verbatim = kept.verbatim[items[index].prefix] }
            let written = lines[section.repository.fullName.lowercased()] ?? []
            return items.isEmpty && written.isEmpty ? nil : BoardSection(fullName: section.repository.fullName, items: items, kept: written)
        }
    }
}
