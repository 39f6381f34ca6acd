import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Brings every tracked repository up to date: names and owners after renames and transfers,
/// descriptions and flags, and gone (or back).
///
/// - Cheap: with `listingThreshold` or more tracked, the signed-in user's listing
///   (`GET /user/repos`, 100 a page) covers their own repositories in a few requests; the rest
///   are fetched by id in parallel, in one sliding window. Every request is conditional on a
///   stored ETag, so an unchanged repository or page costs no rate limit.
/// - Safe: each changed repository is saved in its own transaction; only a definite 404/410/451
///   for the id flags a repository gone, and a failed request changes nothing. Answers that say
///   GitHub is failing end the sync: no further request is sent.
struct RepositoryPhase: SyncPhase {
    let listingThreshold: Int

    func run(_ session: inout SyncSession) throws {
        let tracked = try session.store.repositories()
        session.summary.repositories = tracked.count
        var handled = 0
        session.progress(0, tracked.count)
        // Whether GitHub's API has answered this sync with anything but "not found": until it
        // has, a 404 may mean a wrong API URL rather than a missing repository.
        var apiAnswered = false

        // 1. The user's own listing, for the repositories it covers.
        var remaining = tracked
        if tracked.count >= listingThreshold {
            var listing: [Int64: GitHubRepository] = [:]
            var pages: [CachedPage] = []
            var complete = false
            do {
                (listing, pages, complete) = try readListing(session, maximumPages: max(1, tracked.count / 10))
                apiAnswered = true
            } catch {
                // A token that may not list (some fine-grained ones): every repository is fetched by id.
                if let stop = SyncSession.stop(for: error) { throw stop }
            }
            var unchanged: [Int64] = []
            remaining = []
            for stored in tracked {
                guard let remote = listing[stored.id] else {
                    remaining.append(stored)
                    continue
                }
                let record = RepositoryTracker.record(for: remote, etag: stored.etag, existing: stored, at: session.clock())
                if Self.sameMetadata(record, stored) && !stored.gone {
                    unchanged.append(stored.id)
                    session.summary.unchanged += 1
                } else {
                    // The listing's representation is not the single repository's: its ETag is unknown.
                    try apply(.modified(remote, etag: nil), to: stored, &session)
                }
                handled += 1
            }
            if !session.dryRun {
                try session.store.markSynced(ids: unchanged, at: session.clock())
                try session.store.saveCachedPages(pages, replacingAll: complete, at: session.clock())
            }
            session.progress(handled, tracked.count)
        }

        // 2. Everything else by id, in one sliding window over them all (split only where the
        // rate-limit budget leaves room for fewer), each saved as its answer arrives.
        try SyncSession.forEachWindow(of: remaining, in: &session) { part, session in
            var unchanged: [Int64] = []
            var notFound: [RepositoryRecord] = []
            var stop: SyncStop?
            var storeError: Error?
            var answered = 0
            session.github.repositories(part.map { (id: $0.id, etag: $0.gone ? nil : $0.etag) }) { index, result in
                guard storeError == nil else { return false }
                answered += 1
                let stored = part[index]
                if case .success = result { apiAnswered = true }
                switch result {
                case .success(.notModified):
                    session.summary.unchanged += 1
                    unchanged.append(stored.id)
                case .success(let outcome):
                    do { try apply(outcome, to: stored, &session) } catch { storeError = error }
                case .failure(.notFound), .failure(.unavailable):
                    // Flagged gone after the window, once GitHub's API is known to answer.
                    notFound.append(stored)
                case .failure(let error):
                    if let reason = SyncSession.stop(for: error) {
                        // The first reason to stop wins, except that a refused token trumps all.
                        if stop == nil || reason.isAuthentication { stop = reason }
                    } else {
                        session.summary.failures.append(SyncFailure(fullName: stored.fullName, error: Self.describe(error)))
                    }
                }
                handled += 1
                session.progress(handled, tracked.count)
                // The window was sized to the budget, but a redirect or a retry costs more.
                if stop == nil, answered < part.count, let budget = session.github.rateLimit,
                   budget.remaining <= session.rateLimitReserve {
                    stop = .reserveReached(reserve: session.rateLimitReserve, resetAt: budget.resetAt)
                }
                return stop == nil && storeError == nil
            }
            if let storeError { throw storeError }
            if !session.dryRun { try session.store.markSynced(ids: unchanged, at: session.clock()) }
            if !notFound.isEmpty && !apiAnswered {
                try confirmTheAPIAnswers(session)
                apiAnswered = true
            }
            for stored in notFound { try apply(nil, to: stored, &session) }
            if let stop { throw stop }
        }
    }

    /// Before a repository is flagged gone on "not found" alone, one `GET /user` tells a missing
    /// repository from an API URL that is wrong (and answers "not found" to everything).
    private func confirmTheAPIAnswers(_ session: SyncSession) throws {
        do throws(GitHubError) {
            _ = try session.github.currentUser()
        } catch {
            switch error {
            case .notFound, .unexpectedStatus(404, _): throw SyncStop.failed(SyncAPIURLLooksWrong())
            default:
                // Any other answer (a 403 for a token that may not read the user) comes from the API.
                if let stop = SyncSession.stop(for: error) { throw stop }
            }
        }
    }

    /// Reads up to `maximumPages` pages of the user's listing, each conditional on its cached
    /// ETag (a 304 page comes from the cache). Returns the repositories by id and the pages to cache.
    /// `complete` is true when the chain was read to its last page.
    ///
    /// The pages are read in order, each next page as the one before links to it; but the pages
    /// the cache holds, along their cached links, are all asked for at once first, so a settled
    /// listing of ten pages costs one round trip, not ten. A page whose link is no longer the one
    /// cached (repositories came or went) is followed one by one from there.
    private func readListing(_ session: SyncSession, maximumPages: Int) throws(GitHubError)
        -> (byID: [Int64: GitHubRepository], pages: [CachedPage], complete: Bool)
    {
        /// A page as last read, when its repositories can be read back.
        func cachedPage(_ url: String) -> (page: CachedPage, repositories: [GitHubRepository])? {
            guard let cached = (try? session.store.cachedPage(url: url)) ?? nil,
                  let repositories = ListingCodec.decode(cached.content) else { return nil }
            return (cached, repositories)
        }
        var known: [(url: String, etag: String?)] = []
        var link: String? = session.github.userRepositoriesURL
        while let url = link, known.count < maximumPages, !known.contains(where: { $0.url == url }) {
            let cached = cachedPage(url)
            known.append((url, cached?.page.etag))
            link = cached?.page.nextURL
        }
        let answers = session.github.repositoryPages(known)
        let prefetched = Dictionary(zip(known.map(\.url), answers), uniquingKeysWith: { first, _ in first })

        var byID: [Int64: GitHubRepository] = [:]
        var pages: [CachedPage] = []
        var next: String? = session.github.userRepositoriesURL
        var visited: Set<String> = []
        while let url = next, pages.count < maximumPages, visited.insert(url).inserted {
            let cached = cachedPage(url)
            let answer: Conditional<RepositoryPage>
            if let early = prefetched[url] {
                answer = try early.get()
            } else {
                answer = try session.github.repositoryPage(url, ifNoneMatch: cached?.page.etag)
            }
            switch answer {
            case .notModified:
                guard let (page, repositories) = cached else { return (byID, pages, false) }
                for repository in repositories { byID[repository.id] = repository }
                pages.append(page)
                next = page.nextURL
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

    /// Why a repository could not be read, in words (never the error's debug form).
    static func describe(_ error: GitHubError) -> String {
        switch error {
        case .forbidden(let message, let hint): return message + (hint.map { " (\($0))" } ?? "")
        case .unexpectedResponse(let detail): return "unexpected response (\(detail))"
        case .unexpectedStatus(let status, let message), .unavailable(let status, let message):
            return "HTTP \(status): \(message)"
        case .validationFailed(let message), .conflict(let message): return message
        case .network(let transport): return transport.summary
        case .serverError(let status): return "GitHub is having trouble (HTTP \(status))"
        case .notFound: return "not found"
        case .unknownRoute: return "no such API route (HTTP 404)"
        case .rateLimited: return "rate limit used up"
        case .missingToken: return "no token"
        case .unauthorized(let message): return "the token was rejected (\(message))"
        case .outcomeUnknown(let request, let reason): return "\(request) may have reached GitHub (\(reason))"
        case .tooManyRedirects: return "too many redirects"
        case .redirectRefused(let host): return "redirected to another host (\(host))"
        case .invalidAPIURL(let url, let reason): return "cannot use the API URL \(url): \(reason)"
        }
    }

    /// Whether two records agree on everything GitHub reports (not on when they were read).
    static func sameMetadata(_ lhs: RepositoryRecord, _ rhs: RepositoryRecord) -> Bool {
        lhs.owner == rhs.owner && lhs.name == rhs.name && lhs.fullName == rhs.fullName
            && lhs.description == rhs.description && lhs.url == rhs.url && lhs.isPrivate == rhs.isPrivate
            && lhs.archived == rhs.archived && lhs.pushedAt == rhs.pushedAt && lhs.remoteUpdatedAt == rhs.remoteUpdatedAt
    }

    /// Records one repository's new state (nil: GitHub says it is gone), in its own transaction.
    private func apply(_ outcome: Conditional<GitHubRepository>?, to stored: RepositoryRecord,
                       _ session: inout SyncSession) throws {
        let now = session.clock()
        var updated = stored
        var changes: [SyncChange] = []
        switch outcome {
        case nil:
            guard !stored.gone else {
                session.summary.unchanged += 1
                return
            }
            updated.gone = true
            updated.etag = nil
            changes.append(.gone(fullName: stored.fullName))
            session.summary.gone += 1
        case .notModified?:
            session.summary.unchanged += 1
            return
        case .modified(let remote, let etag)?:
            updated = RepositoryTracker.record(for: remote, etag: etag, existing: stored, at: now)
            if stored.gone { changes.append(.back(fullName: remote.fullName)) }
            if stored.fullName != remote.fullName {
                changes.append(.renamed(from: stored.fullName, to: remote.fullName))
                session.summary.renamed += 1
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
            // A repository that came from another machine is read from GitHub for the first time: no news.
            if stored.syncedAt == Store.neverSynced { changes.removeAll() }
            if changes.isEmpty { session.summary.unchanged += 1 } else { session.summary.updated += 1 }
        }
        session.summary.changes += changes
        updated.syncedAt = now
        if !session.dryRun { try session.store.saveRepository(updated) }
    }
}
