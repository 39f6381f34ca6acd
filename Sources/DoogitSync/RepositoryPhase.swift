import DoogitGitHub
import DoogitStore
import DoogitSupport

/// Brings every tracked repository up to date: names and owners after renames and transfers,
/// descriptions and flags, and gone (or back).
///
/// - Cheap: with `listingThreshold` or more tracked, the signed-in user's listing
///   (`GET /user/repos`, 100 a page) covers their own repositories in a few requests, and an
///   owner's listing (`GET /users/{owner}/repos`) covers that owner's public repositories where
///   `listingThreshold` or more of them are tracked; the rest (another owner's private
///   repositories, one moved to another owner) are fetched by id in parallel, in one sliding
///   window, which also asks for the listings' pages as last read (`ListingRead`). Every
///   request is conditional on a stored ETag, so an unchanged repository or page costs no rate
///   limit, and the windows keep within GitHub's secondary rate limits (`RequestPacer`).
/// - Safe: each changed repository is saved in its own transaction; only a definite 404/410/451
///   for the id flags a repository gone, and a failed request changes nothing. Answers that say
///   GitHub is failing end the sync: no further request is sent.
/// - Resumable: a sync that stops part-way (the rate limit's reserve, a secondary limit) notes
///   which repositories it read (`ReadProgress.repositories`), and the next one fetches the
///   others first, until every repository was read once.
struct RepositoryPhase: SyncPhase {
    let listingThreshold: Int

    /// What the phase counts across its windows.
    private final class Tally {
        var handled = 0
        /// Whether GitHub's API has answered this sync with anything but "not found": until it
        /// has, a 404 may mean a wrong API URL rather than a missing repository.
        var apiAnswered = false
        /// The repositories GitHub told about (by id, or in a listing).
        var read: [Int64] = []
    }

    typealias PageAnswer = ListingRead.PageAnswer

    func run(_ session: inout SyncSession) throws {
        let tracked = try session.store.repositories()
        session.summary.repositories = tracked.count
        session.progress(SyncProgress(.repositories, done: 0, total: tracked.count))
        let tally = Tally()
        let progress = session.store.readProgress(ReadProgress.repositories)
        do {
            try read(tracked, &session, tally, progress)
        } catch let stop as SyncStop {
            // Failing to note it would only cost the next sync requests: the stop is what to report.
            if !session.dryRun { try? progress.note(tally.read.map { (item: String($0), content: nil) }) }
            throw stop
        }
        if !session.dryRun { try progress.finish() }
    }

    private func read(_ tracked: [RepositoryRecord], _ session: inout SyncSession, _ tally: Tally,
                      _ progress: ReadProgress) throws {
        // By id, the repositories a sync that stopped did not read go first.
        func unreadFirst(_ records: [RepositoryRecord]) throws -> [RepositoryRecord] {
            try progress.unreadFirst(records) { String($0.id) }
        }
        guard tracked.count >= listingThreshold else {
            try fetch(try unreadFirst(tracked), tracked.count, &session, tally)
            return
        }

        // 1. The listings: the user's, and other owners' (known from the user's as last read,
        //    when the cache holds it whole; else once it is read). By id, in one window with
        //    their pages as last read, the repositories that none of them holds.
        let user = ListingRead(session.listingContext, key: CachedPage.userListing, firstURL: session.github.userRepositoriesURL,
                               maximumPages: ListingRead.maximumPages(for: tracked.count))
        var listings = [user] + (user.cachedWhole ? ownerListings(tracked, heldBy: user.listedBefore, session) : [])
        func awaitsItsOwnersListing(_ stored: RepositoryRecord) -> Bool {
            listings.contains { $0.key == CachedPage.ownerListing(stored.owner) && (!$0.cachedWhole || $0.listedBefore.contains(stored.id)) }
        }
        let early = user.cachedWhole ? tracked.filter { !user.listedBefore.contains($0.id) && !awaitsItsOwnersListing($0) } : []
        let pageAnswers = try fetch(try unreadFirst(early), withPages: listings.flatMap(\.known), tracked.count, &session, tally)

        // 2. The listings, for the repositories they hold now.
        var outcomes = try ListingRead.readAll(listings, session.listingContext, answers: pageAnswers)
        let more = ownerListings(tracked, heldBy: outcomes[0].failed ? [] : Set(outcomes[0].byID.keys), session)
            .filter { owner in !listings.contains { $0.key == owner.key } }
        if !more.isEmpty {
            outcomes += try ListingRead.readAll(more, session.listingContext, answers: [:])
            listings += more
        }
        var listed: [Int64: GitHubRepository] = [:]
        for outcome in outcomes where !outcome.failed {
            tally.apiAnswered = true
            // The user's listing first: it shows private repositories whole.
            listed.merge(outcome.byID) { first, _ in first }
        }
        let fetched = Set(early.map(\.id))
        var unchanged: [Int64] = []
        var remaining: [RepositoryRecord] = []
        for stored in tracked where !fetched.contains(stored.id) {
            guard let remote = listed[stored.id] else {
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
            tally.handled += 1
            tally.read.append(stored.id)
        }
        if !session.dryRun {
            try session.store.markSynced(ids: unchanged, at: session.clock())
            for (listing, outcome) in zip(listings, outcomes) where !outcome.failed {
                try session.store.saveCachedPages(outcome.pages, listing: listing.key, replacingAll: outcome.complete,
                                                  at: session.clock())
            }
            try session.store.forgetListings(except: Set(listings.map(\.key)))
        }
        session.progress(SyncProgress(.repositories, done: tally.handled, total: tracked.count))

        // 3. Those they held before and hold no more (moved, made private, gone), and those no
        //    listing shows, by id.
        try fetch(try unreadFirst(remaining), tracked.count, &session, tally)
    }

    /// The listings of other owners worth reading: those with `listingThreshold` or more tracked
    /// repositories that the user's listing does not hold, each up to a page per 10 of them (so
    /// that it costs a tenth of asking for them by id, at most).
    private func ownerListings(_ tracked: [RepositoryRecord], heldBy held: Set<Int64>, _ session: SyncSession) -> [ListingRead] {
        var counts: [String: (owner: String, count: Int)] = [:]
        for stored in tracked where !held.contains(stored.id) {
            counts[stored.owner.lowercased(), default: (stored.owner, 0)].count += 1
        }
        return counts.sorted { $0.key < $1.key }.compactMap { key, entry in
            guard entry.count >= listingThreshold, let url = session.github.ownerRepositoriesURL(entry.owner) else { return nil }
            return ListingRead(session.listingContext, key: CachedPage.ownerListing(key), firstURL: url, maximumPages: ListingRead.maximumPages(for: entry.count))
        }
    }

    /// Fetches the repositories by id, in one sliding window over them all (split only where the
    /// rate-limit budget leaves room for fewer), each saved as its answer arrives; the listings'
    /// `pages` go with the first part (alone when there is nothing to fetch). Returns the pages'
    /// answers, by URL.
    @discardableResult
    private func fetch(_ repositories: [RepositoryRecord], withPages pages: [(url: String, etag: String?)] = [], _ total: Int,
                       _ session: inout SyncSession, _ tally: Tally) throws -> [String: PageAnswer]
    {
        var answers: [String: PageAnswer] = [:]
        var firstPages = pages
        let record = { (pages: [(url: String, etag: String?)]) in { (index: Int, answer: PageAnswer) in answers[pages[index].url] = answer } }
        try SyncSession.forEachWindow(of: repositories, in: &session) { part, session in
            try fetchWindow(part, withPages: firstPages, total, &session, tally, page: record(firstPages))
            firstPages = []
        }
        if !firstPages.isEmpty { try fetchWindow([], withPages: firstPages, total, &session, tally, page: record(firstPages)) }
        return answers
    }

    private func fetchWindow(_ part: [RepositoryRecord], withPages pages: [(url: String, etag: String?)], _ total: Int,
                             _ session: inout SyncSession, _ tally: Tally,
                             page: (Int, Result<Conditional<RepositoryPage>, GitHubError>) -> Void) throws {
        var unchanged: [Int64] = []
        var notFound: [RepositoryRecord] = []
        var stop: SyncStop?
        var storeError: Error?
        var answered = 0
        session.github.repositories(part.map { (id: $0.id, etag: $0.gone ? nil : $0.etag) }, withPages: pages, page: { index, result in
            if case .success = result { tally.apiAnswered = true }
            page(index, result)
        }) { index, result in
            guard storeError == nil else { return false }
            answered += 1
            let stored = part[index]
            if case .success = result { tally.apiAnswered = true }
            switch result {
            case .success(.notModified):
                session.summary.unchanged += 1
                unchanged.append(stored.id)
                tally.read.append(stored.id)
            case .success(let outcome):
                do { try apply(outcome, to: stored, &session) } catch { storeError = error }
                tally.read.append(stored.id)
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
            tally.handled += 1
            session.progress(SyncProgress(.repositories, done: tally.handled, total: total))
            // The window was sized to the budget, but a redirect or a retry costs more.
            if stop == nil, answered < part.count, let budget = session.github.rateLimit,
               budget.remaining <= session.rateLimitReserve {
                stop = .reserveReached(reserve: session.rateLimitReserve, resetAt: budget.resetAt)
            }
            return stop == nil && storeError == nil
        }
        if let storeError { throw storeError }
        if !session.dryRun { try session.store.markSynced(ids: unchanged, at: session.clock()) }
        if !notFound.isEmpty && !tally.apiAnswered {
            try confirmTheAPIAnswers(session)
            tally.apiAnswered = true
        }
        for stored in notFound {
            try apply(nil, to: stored, &session)
            tally.read.append(stored.id)
        }
        if let stop { throw stop }
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
            if stored.archived != updated.archived {
                changes.append(updated.archived ? .archived(fullName: remote.fullName) : .unarchived(fullName: remote.fullName))
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
