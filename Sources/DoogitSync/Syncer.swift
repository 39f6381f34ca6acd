import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Brings every tracked repository up to date with GitHub. Repositories are fetched by GitHub's
/// numeric id, so renames and transfers keep their todos; conditional requests make an unchanged
/// repository cost nothing; each repository is saved in its own transaction, so stopping at any
/// moment keeps all that was done. Only a definite answer (404/410/451 for the id) flags a
/// repository gone; a failed request never changes anything.
public final class Syncer {
    public let store: Store
    public let github: GitHubClient
    private let clock: () -> Timestamp
    /// Stop early when GitHub's remaining budget falls to this, keeping some for the user.
    public var rateLimitReserve = 10

    public init(store: Store, github: GitHubClient, clock: @escaping () -> Timestamp = Timestamp.now) {
        self.store = store
        self.github = github
        self.clock = clock
    }

    public func run(dryRun: Bool = false, progress: (Int, Int) -> Void = { _, _ in }) throws -> SyncSummary {
        let tracked = try store.repositorySummaries().map(\.repository)
        var summary = SyncSummary()
        summary.repositories = tracked.count
        let requestsBefore = github.requestCount
        func finish() -> SyncSummary {
            summary.requests = github.requestCount - requestsBefore
            summary.rateLimitRemaining = github.rateLimit?.remaining
            return summary
        }
        for (index, stored) in tracked.enumerated() {
            progress(index, tracked.count)
            if let budget = github.rateLimit, budget.remaining <= rateLimitReserve {
                throw SyncError.rateLimited(resetAt: budget.resetAt, summary: finish())
            }
            let outcome: Conditional<GitHubRepository>?
            do {
                outcome = try github.repository(id: stored.id, ifNoneMatch: stored.gone ? nil : stored.etag)
            } catch .notFound, .unavailable {
                outcome = nil
            } catch .rateLimited(let resetAt) {
                throw SyncError.rateLimited(resetAt: resetAt, summary: finish())
            } catch .unauthorized(let message) {
                throw GitHubError.unauthorized(message: message)
            } catch {
                throw SyncError.interrupted(underlying: error, summary: finish())
            }
            try apply(outcome, to: stored, dryRun: dryRun, summary: &summary)
        }
        progress(tracked.count, tracked.count)
        return finish()
    }

    /// Records one repository's answer: unchanged, changed, or gone.
    private func apply(_ outcome: Conditional<GitHubRepository>?, to stored: RepositoryRecord, dryRun: Bool,
                       summary: inout SyncSummary) throws {
        let now = clock()
        var updated = stored
        var changes: [SyncChange] = []
        switch outcome {
        case nil:
            guard !stored.gone else { summary.unchanged += 1; return }
            updated.gone = true
            updated.etag = nil
            changes.append(.gone(fullName: stored.fullName))
            summary.gone += 1
        case .notModified?:
            summary.unchanged += 1
            updated.syncedAt = now
            if !dryRun { try store.saveRepository(updated) }
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
