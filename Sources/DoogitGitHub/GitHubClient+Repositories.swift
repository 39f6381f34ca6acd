import DoogitSupport

/// One page of a repository listing and the URL of the next one.
public struct RepositoryPage: Equatable, Sendable {
    public var repositories: [GitHubRepository]
    public var nextURL: String?
    /// The pages after this one as GitHub's `last` link numbers them, from `nextURL` on (at most
    /// `GitHubClient.maximumPages`); empty when it names no last page or does not number them.
    public var followingURLs: [String] = []
}

extension GitHubClient {
    public func repository(owner: String, name: String) throws(GitHubError) -> GitHubRepository {
        try repositoryWithETag(owner: owner, name: name).repository
    }

    /// The repository and the ETag of its representation, for later conditional requests.
    public func repositoryWithETag(owner: String, name: String) throws(GitHubError)
        -> (repository: GitHubRepository, etag: String?)
    {
        let response = try get(URLPath.repository(owner: owner, name: name), about: .repository("\(owner)/\(name)"))
        return (try decodeRepository(response), response.header("etag"))
    }

    public func repository(id: Int64) throws(GitHubError) -> GitHubRepository {
        try decodeRepository(try get("/repositories/\(id)", about: .repository("id \(id)")))
    }

    /// The repository by id, unless it is unchanged since `etag` (then 304, at no rate-limit cost).
    public func repository(id: Int64, ifNoneMatch etag: String?) throws(GitHubError) -> Conditional<GitHubRepository> {
        let response = try get("/repositories/\(id)", ifNoneMatch: etag, about: .repository("id \(id)"))
        if response.status == 304 { return .notModified }
        return .modified(try decodeRepository(response), etag: response.header("etag"))
    }

    static let userRepositoriesPath = "/user/repos?per_page=100&affiliation=owner,collaborator,organization_member&sort=full_name"

    /// Every repository the signed-in user owns, collaborates on or reaches through an
    /// organization: all pages, each repository as listed (one whose listing leaves out a field
    /// doogit reads has it unknown).
    public func userRepositories() throws(GitHubError) -> [GitHubRepository] {
        var repositories: [GitHubRepository] = []
        var next: String? = userRepositoriesURL
        var visited: Set<String> = []
        while let url = next {
            guard visited.count < Self.maximumPages, visited.insert(url).inserted else {
                throw .unexpectedResponse("pagination did not end")
            }
            guard configuration.endpoint.isSameOrigin(url) else { throw .unexpectedResponse("a page outside the API") }
            guard case .modified(let page, _) = try conditionalRepositoryPage(try get(url, about: .user), keepingPartial: true)
            else {
                throw .unexpectedResponse("304 without a conditional request")
            }
            repositories += page.repositories
            next = page.nextURL
        }
        return repositories
    }

    /// The URL of the first page of the signed-in user's repositories.
    public var userRepositoriesURL: String { configuration.endpoint.url(Self.userRepositoriesPath) }

    /// The URL of the first page of an owner's public repositories (`GET /users/{username}/repos`,
    /// which serves organizations too), 100 a page by full name; nil for a login GitHub could not
    /// have given (it would need escaping in a path).
    public func ownerRepositoriesURL(_ owner: String) -> String? {
        guard !owner.isEmpty, owner.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) })
        else { return nil }
        return configuration.endpoint.url("/users/" + URLPath.encoded(owner) + "/repos?per_page=100&sort=full_name")
    }

    /// One page of a repository listing (the user's or an owner's), unless unchanged since `etag`.
    public func repositoryPage(_ url: String, ifNoneMatch etag: String?) throws(GitHubError)
        -> Conditional<RepositoryPage>
    {
        guard configuration.endpoint.isSameOrigin(url) else { throw .unexpectedResponse("a page outside the API") }
        return try conditionalRepositoryPage(try get(url, ifNoneMatch: etag, about: .user))
    }

    /// A page of a listing. An owner's listing shows `minimal-repository`, where fields doogit
    /// reads are optional: a repository shown without one is left out, to be read by id, unless
    /// `keepingPartial` (a search shows it as listed). One GitHub shows without a usable id,
    /// owner or name is left out too (said with `-v`): the rest of the page stands.
    private func conditionalRepositoryPage(_ response: HTTPResponse, keepingPartial: Bool = false) throws(GitHubError)
        -> Conditional<RepositoryPage>
    {
        if response.status == 304 { return .notModified }
        guard case .array(let elements) = try parse(response, keeping: GitHubRepository.fields) else {
            throw .unexpectedResponse("expected a list")
        }
        var repositories: [GitHubRepository] = []
        for element in elements where keepingPartial || GitHubRepository.listedFields.allSatisfy({ element[$0] != nil }) {
            do throws(JSONError) {
                repositories.append(try GitHubRepository(json: element))
            } catch {
                guard case .unexpectedResponse(let reason) = Self.decodingError(error) else { continue }
                let name = if case .string(let name)? = element["full_name"] { name } else { "a repository" }
                log("left out \(name) of the listing GitHub sent: \(reason)")
            }
        }
        let next = response.header("link").flatMap { LinkHeader.url(for: "next", in: $0) }
        if let next, !configuration.endpoint.isSameOrigin(next) { throw .unexpectedResponse("a next page outside the API") }
        var following: [String] = []
        if let next, let last = response.header("link").flatMap({ LinkHeader.url(for: "last", in: $0) }) {
            following = LinkHeader.numberedPages(next: next, last: last, limit: Self.maximumPages) ?? []
        }
        return .modified(RepositoryPage(repositories: repositories, nextURL: next, followingURLs: following),
                         etag: response.header("etag"))
    }

    /// Fetches many repositories by id at once (in parallel where the transport can), each
    /// conditional on its ETag, by the rules of `getAll` (a failing GitHub is not asked again
    /// for each). `each` gets each result, by its index, as soon as it is known, and says
    /// whether to ask for more.
    ///
    /// Pages of the user's listing (`withPages`, each unless unchanged since its ETag) may go in
    /// the same window, asked for first: `page` gets each one's result, by its index.
    public func repositories(_ wanted: [(id: Int64, etag: String?)], withPages pages: [(url: String, etag: String?)] = [],
                             page: (Int, Result<Conditional<RepositoryPage>, GitHubError>) -> Void = { _, _ in },
                             each: (Int, Result<Conditional<GitHubRepository>, GitHubError>) -> Bool) {
        var inside: [Int] = []  // the pages asked for: those on the API's host
        for (index, listed) in pages.enumerated() {
            if configuration.endpoint.isSameOrigin(listed.url) {
                inside.append(index)
            } else {
                page(index, .failure(.unexpectedResponse("a page outside the API")))
            }
        }
        let requests = inside.map { (url: pages[$0].url, etag: pages[$0].etag, resource: GitHubResource.user) }
            + wanted.map { repositoryRequest(.id($0.id), etag: $0.etag) }
        conditionalAll(requests, read: { response throws(GitHubError) in response }) { index, answer in
            guard index >= inside.count else {
                page(inside[index], answer.flatMap { response in
                    Result { () throws(GitHubError) in try self.conditionalRepositoryPage(response) }
                })
                return true
            }
            return each(index - inside.count, answer.flatMap { response in
                Result { () throws(GitHubError) in try self.conditionalRepository(response) }
            })
        }
    }

    /// The same, every result at once, in the order asked.
    public func repositories(_ wanted: [(id: Int64, etag: String?)]) -> [Result<Conditional<GitHubRepository>, GitHubError>] {
        Self.collect(wanted.count) { each in repositories(wanted, each: each) }
    }

    /// How a repository is asked for: by OWNER/NAME, or by GitHub's numeric id.
    public enum RepositoryKey: Equatable, Sendable {
        case name(owner: String, name: String)
        case id(Int64)
    }

    /// Fetches many repositories at once (in parallel where the transport can), by the rules of
    /// `getAll`; each with the ETag of its representation, in the order asked. A renamed or
    /// transferred repository is followed to where it is now.
    public func repositoriesWithETags(_ keys: [RepositoryKey])
        -> [Result<(repository: GitHubRepository, etag: String?), GitHubError>]
    {
        return conditionalAll(keys.map { repositoryRequest($0, etag: nil) }) { response throws(GitHubError) in
            (repository: try self.decodeRepository(response), etag: response.header("etag"))
        }
    }

    /// The request for one repository of a parallel fetch.
    private func repositoryRequest(_ key: RepositoryKey, etag: String?) -> (url: String, etag: String?, resource: GitHubResource) {
        switch key {
        case .name(let owner, let name):
            (url: configuration.endpoint.url(URLPath.repository(owner: owner, name: name)), etag: etag, resource: .repository("\(owner)/\(name)"))
        case .id(let id):
            (url: configuration.endpoint.url("/repositories/\(id)"), etag: etag, resource: .repository("id \(id)"))
        }
    }

    /// A repository answer, parsed keeping only the fields doogit reads.
    func decodeRepository(_ response: HTTPResponse) throws(GitHubError) -> GitHubRepository {
        try decode(response, keeping: GitHubRepository.fields, as: GitHubRepository.init(json:))
    }

    private func conditionalRepository(_ response: HTTPResponse) throws(GitHubError) -> Conditional<GitHubRepository> {
        if response.status == 304 { return .notModified }
        return .modified(try decodeRepository(response), etag: response.header("etag"))
    }
}
