import DoogitGitHub

extension SyncSession {
    /// Runs `body` on the items a batch at a time: the rate-limit budget is checked before each
    /// batch, and a batch holds no more items (requests) than the budget leaves room for.
    static func forEachBatch<Item>(of items: [Item], size: Int, in session: inout SyncSession,
                                   _ body: ([Item], inout SyncSession) throws -> Void) throws {
        var start = 0
        while start < items.count {
            try session.checkBudget()
            let batch = Array(items[start..<min(items.count, start + session.requestRoom(upTo: size))])
            start += batch.count
            try body(batch, &session)
        }
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
