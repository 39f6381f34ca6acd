import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Brings every tracked repository up to date with GitHub.
///
/// - Repositories are matched by GitHub's numeric id, so renames and transfers keep their todos.
/// - Cheap: the signed-in user's listing (`GET /user/repos`, 100 a page) covers their own
///   repositories in a few requests; the rest are fetched by id, in parallel. Every request is
///   conditional on a stored ETag, so an unchanged repository or page costs no rate limit.
/// - Safe: each changed repository is saved in its own transaction, so stopping at any moment
///   keeps all that was done; only a definite 404/410/451 for the id flags a repository gone, and
///   a failed request changes nothing. Rate limits, network failures and a GitHub that is down
///   stop the sync at once rather than trying every repository in turn.
public final class Syncer {
    public let store: Store
    public let github: GitHubClient
    private let clock: () -> Timestamp
    /// Stop early when GitHub's remaining budget falls to this, keeping some for the user.
    public var rateLimitReserve = 50
    /// Repositories fetched by id at once.
    public var batchSize = 50
    /// From this many tracked repositories on, the user's listing is read first.
    public var listingThreshold = 10

    public init(store: Store, github: GitHubClient, clock: @escaping () -> Timestamp = Timestamp.now) {
        self.store = store
        self.github = github
        self.clock = clock
    }

    /// Why the sync stops before the end.
    private enum Stop: Error {
        case rateLimited(resetAt: Timestamp?)
        case interrupted(Error)
        case failed(Error)

        var isAuthentication: Bool {
            if case .failed(GitHubError.unauthorized) = self { return true }
            return false
        }
    }

    public func run(dryRun: Bool = false, progress: (Int, Int) -> Void = { _, _ in }) throws -> SyncSummary {
        var summary = SyncSummary()
        let requestsBefore = github.requestCount
        func finished() -> SyncSummary {
            summary.requests = github.requestCount - requestsBefore
            summary.rateLimitRemaining = github.rateLimit?.remaining
            return summary
        }
        // Whatever stops the sync, what it did is reported with the error.
        do {
            try work(dryRun: dryRun, progress: progress, summary: &summary)
        } catch let stop as Stop {
            switch stop {
            case .rateLimited(let resetAt): throw SyncError.rateLimited(resetAt: resetAt, summary: finished())
            case .interrupted(let error): throw SyncError.interrupted(underlying: error, summary: finished())
            case .failed(let error): throw SyncError.failed(underlying: error, summary: finished())
            }
        } catch {
            throw SyncError.failed(underlying: error, summary: finished())
        }
        if !summary.failures.isEmpty { throw SyncError.incomplete(summary: finished()) }
        return finished()
    }

    /// The stop that a failed request means for the whole sync, or nil when it concerns only
    /// its repository.
    private static func stop(for error: GitHubError) -> Stop? {
        switch error {
        case .rateLimited(let resetAt): return .rateLimited(resetAt: resetAt)
        case .network(.unavailable), .network(.optionRefused), .missingToken, .unauthorized, .invalidAPIURL,
             .unknownRoute, .redirectRefused: return .failed(error)
        case .network, .serverError: return .interrupted(error)
        default: return nil
        }
    }

    private func work(dryRun: Bool, progress: (Int, Int) -> Void, summary: inout SyncSummary) throws {
        let tracked = try store.repositories()
        summary.repositories = tracked.count
        var handled = 0
        progress(0, tracked.count)

        // 1. The user's own listing, for the repositories it covers.
        var remaining = tracked
        if tracked.count >= listingThreshold {
            var listing: [Int64: GitHubRepository] = [:]
            var pages: [CachedPage] = []
            var complete = false
            do {
                (listing, pages, complete) = try readListing(maximumPages: max(1, tracked.count / 10))
            } catch {
                // A token that may not list (some fine-grained ones): every repository is fetched by id.
                if let stop = Self.stop(for: error) { throw stop }
            }
            var unchanged: [Int64] = []
            remaining = []
            for stored in tracked {
                guard let remote = listing[stored.id] else {
                    remaining.append(stored)
                    continue
                }
                let record = RepositoryTracker.record(for: remote, etag: stored.etag, existing: stored, at: clock())
                if Self.sameMetadata(record, stored) && !stored.gone {
                    unchanged.append(stored.id)
                    summary.unchanged += 1
                } else {
                    // The listing's representation is not the single repository's: its ETag is unknown.
                    try apply(.modified(remote, etag: nil), to: stored, dryRun: dryRun, summary: &summary)
                }
                handled += 1
            }
            if !dryRun {
                try store.markSynced(ids: unchanged, at: clock())
                try store.saveCachedPages(pages, replacingAll: complete, at: clock())
            }
            progress(handled, tracked.count)
        }

        // 2. Everything else by id, a batch at a time.
        var start = 0
        while start < remaining.count {
            if let budget = github.rateLimit, budget.remaining <= rateLimitReserve {
                throw Stop.rateLimited(resetAt: budget.resetAt)
            }
            let room = github.rateLimit.map { max(1, $0.remaining - rateLimitReserve) } ?? batchSize
            let batch = Array(remaining[start..<min(remaining.count, start + min(batchSize, room))])
            start += batch.count
            let results = github.repositories(batch.map { (id: $0.id, etag: $0.gone ? nil : $0.etag) })
            var unchanged: [Int64] = []
            var stop: Stop?
            for (stored, result) in zip(batch, results) {
                switch result {
                case .success(.notModified):
                    summary.unchanged += 1
                    unchanged.append(stored.id)
                case .success(let outcome):
                    try apply(outcome, to: stored, dryRun: dryRun, summary: &summary)
                case .failure(.notFound), .failure(.unavailable):
                    try apply(nil, to: stored, dryRun: dryRun, summary: &summary)
                case .failure(let error):
                    if let reason = Self.stop(for: error) {
                        // The first reason to stop wins, except that a refused token trumps all.
                        if stop == nil || reason.isAuthentication { stop = reason }
                    } else {
                        summary.failures.append(SyncFailure(fullName: stored.fullName, error: Self.describe(error)))
                    }
                }
            }
            if !dryRun { try store.markSynced(ids: unchanged, at: clock()) }
            handled += batch.count
            progress(handled, tracked.count)
            if let stop { throw stop }
        }
    }

    /// Reads up to `maximumPages` pages of the user's listing, each conditional on its cached
    /// ETag (a 304 page comes from the cache). Returns the repositories by id and the pages to cache.
    /// `complete` is true when the chain was read to its last page.
    private func readListing(maximumPages: Int) throws(GitHubError)
        -> (byID: [Int64: GitHubRepository], pages: [CachedPage], complete: Bool)
    {
        var byID: [Int64: GitHubRepository] = [:]
        var pages: [CachedPage] = []
        var next: String? = github.userRepositoriesURL
        var visited: Set<String> = []
        while let url = next, pages.count < maximumPages, visited.insert(url).inserted {
            let cached = (try? store.cachedPage(url: url)) ?? nil
            let cachedRepositories = cached.flatMap { ListingCodec.decode($0.content) }
            switch try github.repositoryPage(url, ifNoneMatch: cachedRepositories == nil ? nil : cached?.etag) {
            case .notModified:
                guard let cached, let repositories = cachedRepositories else { return (byID, pages, false) }
                for repository in repositories { byID[repository.id] = repository }
                pages.append(cached)
                next = cached.nextURL
            case .modified(let page, let etag):
                for repository in page.repositories { byID[repository.id] = repository }
                if let etag {
                    pages.append(CachedPage(url: url, etag: etag, nextURL: page.nextURL,
                                            content: ListingCodec.encode(page.repositories)))
                }
                next = page.nextURL
            }
        }
        return (byID, pages, next == nil)
    }

    static func describe(_ error: GitHubError) -> String {
        switch error {
        case .forbidden(let message, let hint): return message + (hint.map { " (\($0))" } ?? "")
        case .unexpectedResponse(let detail): return "unexpected response (\(detail))"
        case .unexpectedStatus(let status, let message): return "HTTP \(status): \(message)"
        case .validationFailed(let message): return message
        default: return "\(error)"
        }
    }

    /// Whether two records agree on everything GitHub reports (not on when they were read).
    static func sameMetadata(_ lhs: RepositoryRecord, _ rhs: RepositoryRecord) -> Bool {
        lhs.owner == rhs.owner && lhs.name == rhs.name && lhs.fullName == rhs.fullName
            && lhs.description == rhs.description && lhs.url == rhs.url && lhs.isPrivate == rhs.isPrivate
            && lhs.archived == rhs.archived && lhs.pushedAt == rhs.pushedAt && lhs.remoteUpdatedAt == rhs.remoteUpdatedAt
    }

    /// Records one repository's new state (nil: GitHub says it is gone), in its own transaction.
    private func apply(_ outcome: Conditional<GitHubRepository>?, to stored: RepositoryRecord, dryRun: Bool,
                       summary: inout SyncSummary) throws {
        let now = clock()
        var updated = stored
        var changes: [SyncChange] = []
        switch outcome {
        case nil:
            guard !stored.gone else {
                summary.unchanged += 1
                return
            }
            updated.gone = true
            updated.etag = nil
            changes.append(.gone(fullName: stored.fullName))
            summary.gone += 1
        case .notModified?:
            summary.unchanged += 1
            return
        case .modified(let remote, let etag)?:
            updated = RepositoryTracker.record(for: remote, etag: etag, existing: stored, at: now)
            if stored.gone { changes.append(.back(fullName: remote.fullName)) }
            if stored.fullName != remote.fullName {
                changes.append(.renamed(from: stored.fullName, to: remote.fullName))
                summary.renamed += 1
            }
            if stored.description != remote.description {
                changes.append(.descriptionChanged(fullName: remote.fullName, description: remote.description))
            }
            if stored.archived != remote.archived {
                changes.append(remote.archived ? .archived(fullName: remote.fullName) : .unarchived(fullName: remote.fullName))
            }
            if stored.isPrivate != remote.isPrivate {
                changes.append(.visibilityChanged(fullName: remote.fullName, isPrivate: remote.isPrivate))
            }
            if changes.isEmpty { summary.unchanged += 1 } else { summary.updated += 1 }
        }
        summary.changes += changes
        updated.syncedAt = now
        if !dryRun { try store.saveRepository(updated) }
    }
}
