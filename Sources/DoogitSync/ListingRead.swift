import DoogitGitHub
import DoogitStore

/// The signed-in user's repository listing as a sync reads it: up to `maximumPages` pages, each
/// conditional on its cached ETag (a 304 page comes from the cache).
///
/// The pages are read in order, each next page as the one before links to it; but the pages the
/// cache holds, along their cached links (`known`), are asked for at once first, in the window
/// that also fetches the repositories the listing did not hold (`listedBefore`), so a settled
/// listing of ten pages costs no round trip of its own. A page whose link is no longer the one
/// cached (repositories came or went) is followed one by one from there.
struct ListingRead {
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

    init(_ session: SyncSession, maximumPages: Int) {
        self.maximumPages = maximumPages
        var link: String? = session.github.userRepositoriesURL
        while let url = link, known.count < maximumPages, !known.contains(where: { $0.url == url }) {
            let page = Self.cachedPage(url, session)
            cached[url] = page
            known.append((url, page?.page.etag))
            for repository in page?.repositories ?? [] { listedBefore.insert(repository.id) }
            link = page?.page.nextURL
            cachedWhole = page != nil && link == nil
        }
    }

    private static func cachedPage(_ url: String, _ session: SyncSession) -> (page: CachedPage, repositories: [GitHubRepository])? {
        guard let cached = (try? session.store.cachedPage(url: url)) ?? nil,
              let repositories = ListingCodec.decode(cached.content) else { return nil }
        return (cached, repositories)
    }

    /// The listing, from the answers to `known` (by index; one missing is asked for again).
    /// Returns the repositories by id and the pages to cache; `complete` is true when the chain
    /// was read to its last page.
    func read(_ session: SyncSession, answers: [Int: Result<Conditional<RepositoryPage>, GitHubError>]) throws(GitHubError)
        -> (byID: [Int64: GitHubRepository], pages: [CachedPage], complete: Bool)
    {
        var prefetched: [String: Result<Conditional<RepositoryPage>, GitHubError>] = [:]
        for (index, answer) in answers where known.indices.contains(index) { prefetched[known[index].url] = answer }
        var byID: [Int64: GitHubRepository] = [:]
        var pages: [CachedPage] = []
        var next: String? = session.github.userRepositoriesURL
        var visited: Set<String> = []
        while let url = next, pages.count < maximumPages, visited.insert(url).inserted {
            let cached = self.cached[url] ?? Self.cachedPage(url, session)
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
}
