import DoogitGitHub
import DoogitStore

/// What reading listings needs: the store (the pages as last read), the client, and the rules of
/// the command that reads them: a check before each round of requests, and which failed
/// answers end the whole command (the error to throw; nil: the listing alone is not read).
struct ListingContext {
    let store: Store
    let github: GitHubClient
    let beforeRound: () throws -> Void
    let ends: (GitHubError) -> Error?
}

extension SyncSession {
    /// A sync's listings stop at the rate-limit reserve and at what stops a sync.
    var listingContext: ListingContext {
        ListingContext(store: store, github: github, beforeRound: { [self] in try checkBudget() }, ends: SyncSession.stop(for:))
    }
}

/// A repository listing as a sync reads it: the signed-in user's (`GET /user/repos`) or another
/// owner's (`GET /users/{owner}/repos`), up to `maximumPages` pages of 100, each conditional on
/// its cached ETag (a 304 page comes from the cache).
///
/// The pages are read in order, each next page as the one before links to it; but the pages the
/// cache holds, along their cached links (`known`), are asked for at once first, in the window
/// that also fetches repositories by id (`listedBefore` says which the listing held), so a
/// settled listing costs no round trip of its own. Listings are read side by side (`readAll`):
/// each round asks every listing's next page in one window. A page whose link is no longer the
/// one cached (repositories came or went) is followed from there. Once a page read anew names
/// the last page and GitHub numbers them (`RepositoryPage.followingURLs`), the pages up to it
/// (within `maximumPages`) are asked for at once too, not one round trip each.
///
/// `sync` reads listings, and so does `repo add` of many repositories of one owner
/// (`RepositoryTracker`): each with its own rules (`ListingContext`).
struct ListingRead {
    /// From this many repositories of an owner on, its listing is worth reading: a page of 100
    /// holds them where one request each would not.
    static let threshold = 10

    /// The pages worth reading for `count` repositories: one per ten (a listing is read no
    /// further than the repositories it may hold make worth it).
    static func maximumPages(for count: Int) -> Int {
        max(1, count / 10)
    }

    /// Which listing it is: `CachedPage.userListing`, or `CachedPage.ownerListing(owner)`.
    let key: String
    let firstURL: String
    let maximumPages: Int
    /// The pages to ask for at once, with their ETags.
    private(set) var known: [(url: String, etag: String?)] = []
    /// The ids of the repositories those pages held when last read.
    private(set) var listedBefore: Set<Int64> = []
    /// Whether the cache holds the whole listing as last read (every page, to one without a
    /// next link): only then does `listedBefore` tell which repositories it does not hold.
    private(set) var cachedWhole = false
    /// The pages as last read, when their repositories can be read back.
    private var cached: [String: (page: CachedPage, repositories: [GitHubRepository])] = [:]

    init(_ session: ListingContext, key: String, firstURL: String, maximumPages: Int) {
        self.key = key
        self.firstURL = firstURL
        self.maximumPages = maximumPages
        var link: String? = firstURL
        while let url = link, known.count < maximumPages, !known.contains(where: { $0.url == url }) {
            let page = Self.cachedPage(url, session)
            cached[url] = page
            known.append((url, page?.page.etag))
            for repository in page?.repositories ?? [] { listedBefore.insert(repository.id) }
            link = page?.page.nextURL
            cachedWhole = page != nil && link == nil
        }
    }

    private static func cachedPage(_ url: String, _ session: ListingContext) -> (page: CachedPage, repositories: [GitHubRepository])? {
        guard let cached = (try? session.store.cachedPage(url: url)) ?? nil,
              let repositories = ListingCodec.decode(cached.content) else { return nil }
        return (cached, repositories)
    }

    /// What reading a listing gave: its repositories by id and the pages to cache; `complete`
    /// when the chain was read to its last page. A listing that could not be read (a token that
    /// may not list, an owner GitHub no longer knows) has `failed`: its repositories are read by id.
    struct Outcome {
        var byID: [Int64: GitHubRepository] = [:]
        var pages: [CachedPage] = []
        var complete = false
        var failed = false
        fileprivate var next: String?
        /// The pages after `next` that its listing numbered, asked for with it.
        fileprivate var ahead: [String] = []
        fileprivate var visited: Set<String> = []
        fileprivate var done = false
    }

    typealias PageAnswer = Result<Conditional<RepositoryPage>, GitHubError>

    /// Reads the listings side by side, from the answers in hand (by URL: those to `known`,
    /// asked early) and then in rounds, each asking every listing's next page in one window.
    /// An answer that ends the sync (a rate limit, GitHub failing) is thrown.
    static func readAll(_ listings: [ListingRead], _ session: ListingContext, answers early: [String: PageAnswer]) throws
        -> [Outcome]
    {
        var outcomes = listings.map { Outcome(next: $0.firstURL) }
        var answers = early
        var asked = Set(early.keys)
        while true {
            var wanted: [(url: String, etag: String?)] = []
            for (index, listing) in listings.enumerated() {
                while !outcomes[index].done, let url = outcomes[index].next, let answer = answers.removeValue(forKey: url) {
                    try listing.take(answer, for: url, session, into: &outcomes[index])
                }
                guard !outcomes[index].done, let url = outcomes[index].next else { continue }
                for page in [url] + outcomes[index].ahead where answers[page] == nil && asked.insert(page).inserted {
                    wanted.append((page, listing.cached[page]?.page.etag ?? (try? session.store.cachedPage(url: page))?.etag))
                }
            }
            guard !wanted.isEmpty else { return outcomes }
            try session.beforeRound()
            session.github.repositories([], withPages: wanted, page: { index, answer in answers[wanted[index].url] = answer },
                                        each: { _, _ in true })
            // A page the window never asked for (it stopped first) ends its listing's read.
            for page in wanted where answers[page.url] == nil { answers[page.url] = .failure(.network(.timeout)) }
        }
    }

    /// Takes one page's answer into the listing's outcome.
    private func take(_ answer: PageAnswer, for url: String, _ session: ListingContext, into outcome: inout Outcome) throws {
        outcome.visited.insert(url)
        let next: String?
        switch answer {
        case .failure(let error):
            if let stop = session.ends(error) { throw stop }
            outcome.failed = true
            outcome.done = true
            return
        case .success(.notModified):
            guard let (page, repositories) = cached[url] ?? Self.cachedPage(url, session) else {
                outcome.done = true
                return
            }
            for repository in repositories { outcome.byID[repository.id] = repository }
            outcome.pages.append(page)
            next = page.nextURL
            outcome.ahead.removeAll { $0 == next || outcome.visited.contains($0) }
        case .success(.modified(let page, let etag)):
            for repository in page.repositories { outcome.byID[repository.id] = repository }
            if let etag {
                outcome.pages.append(CachedPage(url: url, etag: etag, nextURL: page.nextURL,
                                                content: ListingCodec.encode(page.repositories)))
            }
            next = page.nextURL
            // The pages up to the last, asked for with the next one (as many as may still be read).
            let room = max(0, maximumPages - outcome.visited.count - 1)
            outcome.ahead = page.followingURLs.first == next ? Array(page.followingURLs.dropFirst().prefix(room)) : []
        }
        outcome.next = next
        outcome.complete = next == nil
        outcome.done = next == nil || outcome.visited.count >= maximumPages || next.map(outcome.visited.contains) == true
    }
}
