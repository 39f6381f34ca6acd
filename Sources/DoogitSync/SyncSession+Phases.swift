import DoogitGitHub

extension SyncSession {
    /// Runs `body` on the items, one request each, in one sliding window over them all: split
    /// only where the rate-limit budget leaves room for fewer, checked before each part. How
    /// many are done is reported as `step` (when given) before each part and at the end.
    static func forEachWindow<Item>(of items: [Item], in session: inout SyncSession, step: SyncProgress.Step? = nil,
                                    _ body: ([Item], inout SyncSession) throws -> Void) throws {
        var start = 0
        while start < items.count {
            try session.checkBudget()
            if let step { session.progress(SyncProgress(step, done: start, total: items.count)) }
            let part = Array(items[start..<min(items.count, start + session.requestRoom(upTo: items.count - start))])
            start += part.count
            try body(part, &session)
        }
        if let step, !items.isEmpty { session.progress(SyncProgress(step, done: items.count, total: items.count)) }
    }
}

extension SyncSession {
    /// A request about one repository failed: a reason to stop the whole sync, or a failure to
    /// report for it. A dry run passes over a repository GitHub does not find, which the
    /// repository phase may have found renamed or gone without saving it.
    mutating func fail(_ error: GitHubError, about fullName: String) throws {
        if let stop = Self.stop(for: error) { throw stop }
        if dryRun {
            switch error {
            case .notFound, .unavailable: return
            default: break
            }
        }
        summary.failures.append(SyncFailure(fullName: fullName, error: RepositoryPhase.describe(error)))
    }
}
