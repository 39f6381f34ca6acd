import DoogitSupport
import Foundation

/// A GitHub REST API on 127.0.0.1 with state the tests can change between requests: repositories
/// can be added, renamed, transferred, archived, deleted and restored. It answers the endpoints
/// doogit uses with bodies shaped like GitHub's (from the fixtures), the Contents and Git Data
/// APIs over real git objects (FakeGitHub+Contents.swift, +GitData), ETags and 304s, Link
/// pagination, 301 and 307 for every route of a renamed repository (FakeGitHub+Renames.swift),
/// 401 for a wrong token, a primary rate limit that counts every request except a 304 and
/// `/rate_limit`, the secondary rate limits (`FakeSecondaryLimits`: requests at once, points a
/// minute per endpoint, content creation), and GitHub's generic 404 for any route it does not
/// serve. It knows several people, each signing in with a token, and what each may do to each
/// repository (FakeGitHub+Access.swift); the primary rate limit is counted per user.
public final class FakeGitHub: @unchecked Sendable {
    public struct Repository: Equatable, Sendable {
        public var id: Int64
        public var owner: String
        public var name: String
        public var description: String?
        public var isPrivate = false
        public var archived = false
        /// Whether `GET /user/repos` lists it for the main user (their own, or one they collaborate
        /// on); other users' listings are their own repositories and those they collaborate on.
        public var listed: Bool
        /// When commits were last pushed (nil: the fixture's time); see FakeGitHub+Issues.swift.
        public var pushedAt: String? = nil
        /// Its default branch (nil: the fixture's, master).
        public var defaultBranch: String? = nil

        public init(id: Int64, owner: String, name: String, description: String?, isPrivate: Bool = false,
                    archived: Bool = false, listed: Bool = true) {
            self.id = id
            self.owner = owner
            self.name = name
            self.description = description
            self.isPrivate = isPrivate
            self.archived = archived
            self.listed = listed
        }

        public var fullName: String { "\(owner)/\(name)" }
    }

    private let lock = NSRecursiveLock()
    var repositories: [Int64: Repository] = [:]
    var deleted: Set<Int64> = []
    var formerNames: [String: Int64] = [:]
    /// GitHub's ids of the owners whose listings were asked for (by lowercased login).
    private var ownerIDs: [String: Int64] = [:]
    private var received: [ReceivedRequest] = []
    /// The requests answered, each with the size of its answer's body (nothing when dropped).
    private var answered: [(request: ReceivedRequest, bytes: Int)] = []
    /// Requests counted against each user's primary rate limit, by login in lower case.
    private var usedBy: [String: Int] = [:]
    /// Who may do what (FakeGitHub+Access.swift).
    var access: FakeAccess
    private var scripted: (@Sendable (ReceivedRequest) -> ServerResponse?)?
    private var delay = 0
    private var server: HTTPServer?
    /// Files of repositories (the Contents API): see FakeGitHub+Contents.swift.
    public let contents = FakeContents()
    /// GitHub's secondary rate limits, on unless a test switches them off.
    public let secondaryLimits = FakeSecondaryLimits()

    public let token: String
    public let login: String
    /// Issues, branches and commits of the repositories (FakeGitHub+Issues.swift).
    public let activity = FakeActivity()
    public var rateLimit: Int {
        get { locked { limit } }
        set { locked { limit = newValue } }
    }
    private var limit = 5000
    public let rateLimitReset: Int64 = 4_102_444_800  // 2100-01-01

    /// The address clients reach this GitHub at, which its answers name (links, redirects,
    /// `url` fields): its own, unless it stands behind a proxy (`publicURL`).
    public var apiURL: String { publicURL ?? server?.baseURL ?? "" }
    /// The proxy's address, when clients reach this GitHub through one (a benchmark's TLS proxy).
    /// Under a lock of its own: answers ask for it while they hold the fake's.
    public var publicURL: String? {
        get { addressLock.lock(); defer { addressLock.unlock() }; return publicAddress }
        set { addressLock.lock(); defer { addressLock.unlock() }; publicAddress = newValue }
    }
    private let addressLock = NSLock()
    private var publicAddress: String?
    public var port: UInt16 { server?.port ?? 0 }
    /// Connections clients opened to this GitHub, ever.
    public var connectionsOpened: Int { server?.acceptedConnections ?? 0 }

    public init(token: String = "ghp_testtoken0123456789", login: String = "octocat") throws {
        self.token = token
        self.login = login
        access = FakeAccess(users: [User(login: login, token: token, id: Self.mainUserID)])
        server = try HTTPServer { [weak self] request in
            self?.handle(request) ?? ServerResponse(status: 500)
        }
    }

    deinit {
        server?.stop()
    }

    public func stop() { server?.stop() }

    func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: State the tests change

    public func add(_ repository: Repository) {
        locked {
            repositories[repository.id] = repository
            deleted.remove(repository.id)
        }
    }

    @discardableResult
    public func addRepository(id: Int64, owner: String? = nil, name: String, description: String? = nil,
                              isPrivate: Bool = false, archived: Bool = false, listed: Bool? = nil) -> Repository {
        let repository = Repository(id: id, owner: owner ?? login, name: name, description: description,
                                    isPrivate: isPrivate, archived: archived, listed: listed ?? ((owner ?? login) == login))
        add(repository)
        return repository
    }

    public func update(_ id: Int64, _ change: (inout Repository) -> Void) {
        locked {
            guard var repository = repositories[id] else { return }
            let before = repository.fullName.lowercased()
            change(&repository)
            if repository.fullName.lowercased() != before {
                formerNames[before] = id
                contents.renameRepository(from: before, to: repository.fullName)
            }
            repositories[id] = repository
        }
    }

    public func rename(_ id: Int64, to name: String) { update(id) { $0.name = name } }

    /// The repository (not deleted) of that OWNER/NAME, if any.
    public func repositoryNamed(_ fullName: String) -> Repository? {
        locked { repositories.values.first { $0.fullName.lowercased() == fullName.lowercased() && !deleted.contains($0.id) } }
    }
    public func transfer(_ id: Int64, to owner: String) { update(id) { $0.owner = owner } }
    public func delete(_ id: Int64) { locked { _ = deleted.insert(id) } }
    public func restore(_ id: Int64) { locked { _ = deleted.remove(id) } }

    /// Answers requests with `script` wherever it returns a response (nil: the normal answer).
    public func script(_ script: (@Sendable (ReceivedRequest) -> ServerResponse?)?) { locked { scripted = script } }

    /// Holds every answer back this long.
    public func setDelay(milliseconds: Int) { locked { delay = milliseconds } }

    public var requests: [ReceivedRequest] { locked { received } }
    /// Requests counted against the main user's primary rate limit.
    public var rateLimitUsed: Int { rateLimitUsed(by: login) }
    public func rateLimitUsed(by login: String) -> Int { locked { usedBy[login.lowercased()] ?? 0 } }
    /// Bytes of the answer bodies sent so far (an answer not sent, its connection closed, counts nothing).
    public var bytesSent: Int { locked { answered.reduce(0) { $0 + $1.bytes } } }
    /// The same, of the answers to the requests `include` picks (by method and path, say).
    public func bytesSent(where include: (ReceivedRequest) -> Bool) -> Int {
        locked { answered.reduce(0) { include($1.request) ? $0 + $1.bytes : $0 } }
    }
    public func resetCounters() {
        locked { received = []; answered = []; usedBy = [:] }
        secondaryLimits.reset()
    }

    // MARK: Answers

    private static let fullTemplate = Fixtures.json("repo-full.json")
    private static func firstItem(_ fixture: String) -> JSONValue {
        guard case .array(let items) = Fixtures.json(fixture), let first = items.first else { return .null }
        return first
    }
    private static let listTemplate = firstItem("user-repos.json")
    private static let ownerListTemplate = firstItem("users-repos.json")

    /// The forms GitHub shows a repository in: whole (`GET /repos/...`, schema
    /// `full-repository`), in the signed-in user's listing (`GET /user/repos`, `repository`), or
    /// in an owner's listing (`GET /users/{username}/repos`, `minimal-repository`).
    public enum Form: Sendable {
        case full, listing, ownerListing
    }

    /// GitHub's id of the main user: `user.json`'s.
    static let mainUserID: Int64 = (try? Fixtures.json("user.json").int64("id")) ?? 1

    /// A repository as GitHub shows it, in the given form; `permissions` is that of the user who
    /// asks (`viewer`'s role; without one, the fixture's).
    public static func json(for repository: Repository, apiURL: String, form: Form = .full,
                            viewer: Permission?? = nil) -> JSONValue {
        let template = switch form {
        case .full: fullTemplate
        case .listing: listTemplate
        case .ownerListing: ownerListTemplate
        }
        let owner = (template["owner"] ?? .null).replacing(["login": .string(repository.owner)])
        return template.replacing([
            "id": .int(repository.id),
            "name": .string(repository.name),
            "full_name": .string(repository.fullName),
            "owner": owner,
            "description": .optional(repository.description),
            "private": .bool(repository.isPrivate),
            "archived": .bool(repository.archived),
            "html_url": .string("https://github.com/\(repository.fullName)"),
            "url": .string("\(apiURL)/repos/\(repository.fullName)"),
            "pushed_at": repository.pushedAt.map(JSONValue.string) ?? template["pushed_at"] ?? .null,
            "default_branch": repository.defaultBranch.map(JSONValue.string) ?? template["default_branch"] ?? .null,
            "permissions": viewer.map(permissionsJSON) ?? template["permissions"] ?? .null,
        ])
    }

    static func etag(_ body: String) -> String {
        var hash: UInt64 = 5381
        for byte in body.utf8 { hash = hash &* 33 &+ UInt64(byte) }
        return "\"\(String(hash, radix: 16))\""
    }

    /// The primary rate limit's headers for a user who has used `used` of it.
    private func rateHeaders(used: Int) -> [(String, String)] {
        [("x-ratelimit-limit", String(limit)), ("x-ratelimit-remaining", String(max(0, limit - used))),
         ("x-ratelimit-used", String(used)), ("x-ratelimit-reset", String(rateLimitReset)),
         ("x-ratelimit-resource", "core")]
    }

    private func handle(_ request: ReceivedRequest) -> ServerResponse {
        var response = answer(request)
        response.delayMilliseconds = max(response.delayMilliseconds, locked { delay })
        // GitHub dates every answer.
        if !response.headers.contains(where: { $0.0.lowercased() == "date" }) {
            response.headers.append(contents.currentDateHeader(at: activity.clockSeconds.map { Date(timeIntervalSince1970: Double($0)) }))
        }
        let bytes = response.hangUp ? 0 : response.raw?.count ?? response.body.count
        locked { answered.append((request, bytes)) }
        return response
    }

    private func answer(_ request: ReceivedRequest) -> ServerResponse {
        lock.lock()
        received.append(request)
        let script = scripted
        lock.unlock()
        if let script, let response = script(request) { return response }
        // A fault that meets the request before anything is done, outside the lock: a held
        // request must not hold up the others.
        switch activity.takeFault(request, before: true) {
        case .holdBeforeProcessing(let hold)?:
            hold.arriveAndWait()
            return ServerResponse(status: 500).hangingUp()
        case .dropBeforeProcessing?:
            return ServerResponse(status: 500).hangingUp()
        default:
            break
        }

        lock.lock()
        defer { lock.unlock() }
        // The token says who asks.
        guard let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer "),
              let asker = access.user(token: String(authorization.dropFirst("Bearer ".count))) else {
            return .json(401, Fixtures.text("error-401.json"))
        }
        let who = asker.login.lowercased()
        if let refusal = secondaryLimits.refusal(for: request, inFlight: server?.requestsInFlight ?? 1) { return refusal }
        guard usedBy[who, default: 0] < limit else {
            return .json(403, Fixtures.text("error-403-rate-limit.json"), headers: rateHeaders(used: usedBy[who, default: 0]))
        }
        var parts = namedByOwner(request.path.split(separator: "/").map(String.init))
        // An owner and a name arrive percent-encoded, and GitHub reads them decoded.
        if ["repos", "users", "orgs"].contains(parts.first) {
            for index in parts.indices.dropFirst().prefix(2) { parts[index] = parts[index].removingPercentEncoding ?? parts[index] }
        }
        var response: ServerResponse
        var request = request
        if let answered = accessRefusal(&request, parts: parts, by: asker) ?? renamedOrMissing(request, parts) {
            usedBy[who, default: 0] += 1
            response = answered
            response.headers += rateHeaders(used: usedBy[who, default: 0])
            return response
        }
        switch (request.method, parts.count) {
        case ("GET", 1) where parts[0] == "rate_limit":
            // Free of rate limit on GitHub, as here.
            let used = usedBy[who, default: 0]
            var free = ServerResponse.json(200, #"{"rate":{"limit":\#(limit),"remaining":\#(max(0, limit - used)),"used":\#(used)}}"#)
            free.headers += rateHeaders(used: used)
            return free
        case ("GET", 1) where parts[0] == "user":
            var user = Fixtures.json("user.json").replacing(["login": .string(asker.login)])
            if asker.id != Self.mainUserID { user = user.replacing(["id": .int(asker.id)]) }
            // GitHub reports a classic token's scopes; a fine-grained token has none.
            response = .json(200, JSONWriter.write(user),
                             headers: asker.tokenKind == .classic ? [("X-OAuth-Scopes", "repo, read:org")] : [])
        case ("GET", 2) where parts[0] == "user" && parts[1] == "repos":
            response = userRepositories(request, for: asker)
        case ("GET", 3) where parts[0] == "users" && parts[2] == "repos":
            response = ownerRepositories(request, owner: parts[1], for: asker)
        case ("GET", 3) where parts[0] == "user" && parts[2] == "repos":
            // GitHub's next pages of `/users/{username}/repos` name the user by id.
            let owner = Int64(parts[1]).flatMap { id in ownerIDs.first { $0.value == id }?.key }
            response = owner.map { ownerRepositories(request, owner: $0, for: asker) } ?? .json(404, Fixtures.text("error-404.json"))
        case ("GET", 2) where parts[0] == "repositories":
            guard let id = Int64(parts[1]), let repository = repositories[id], !deleted.contains(id) else {
                response = .json(404, Fixtures.text("error-404.json"))
                break
            }
            response = repositoryAnswer(repository, request, for: asker)
        case ("GET", 3) where parts[0] == "repos":
            let fullName = "\(parts[1])/\(parts[2])".lowercased()
            if let repository = repositories.values.first(where: {
                $0.fullName.lowercased() == fullName && !deleted.contains($0.id)
            }) {
                response = repositoryAnswer(repository, request, for: asker)
            } else {
                response = .json(404, Fixtures.text("error-404.json"))
            }
        case (_, 5...) where parts[0] == "repos" && parts[3] == "git":
            response = gitAnswer(request, parts: parts)
        case (_, 5...) where parts[0] == "repos" && parts[3] == "contents":
            // A repository that is gone has no contents; a branch that is gone, no file on it.
            guard let repository = repositories.values.first(where: {
                $0.fullName.lowercased() == "\(parts[1])/\(parts[2])".lowercased() && !deleted.contains($0.id)
            }) else {
                response = .json(404, Fixtures.text("error-404.json"))
                break
            }
            if request.method != "GET" && repository.archived {
                response = Self.archivedAnswer
                break
            }
            let branch = (request.method == "GET" ? request.query["ref"] : (try? JSONParser.parse(request.body))?["branch"]
                .flatMap { if case .string(let name) = $0 { name } else { nil } })?.removingPercentEncoding
            if parts[3] == "contents", let branch, !branchExists(repository, branch) {
                response = .json(404, request.method == "GET"
                    ? #"{"message":"No commit found for the ref \#(branch)","documentation_url":"https://docs.github.com/rest/repos/contents#get-repository-content","status":"404"}"#
                    : #"{"message":"Branch \#(branch) not found","documentation_url":"https://docs.github.com/rest/repos/contents#create-or-update-file-contents","status":"404"}"#)
                break
            }
            let fault = activity.takeFault(request, before: false)
            if case .status(let status)? = fault {
                response = .json(status, #"{"message":"Server Error","documentation_url":"https://docs.github.com/rest"}"#)
                break
            }
            response = contents.answer(request, parts: parts, github: self, asker: asker)
            response = fault?.applied(to: response) ?? response
        case ("POST", 2) where parts == ["user", "repos"], ("POST", 3) where parts[0] == "orgs" && parts[2] == "repos":
            response = contents.answer(request, parts: parts, github: self, asker: asker)
        case (_, 4...) where parts[0] == "repos":
            let repository = repositories.values.first {
                $0.fullName.lowercased() == "\(parts[1])/\(parts[2])".lowercased() && !deleted.contains($0.id)
            }
            if request.method != "GET", repository?.archived == true {
                response = Self.archivedAnswer
                break
            }
            response = activityAnswer(request, parts: parts, repository: repository, login: asker.login)
        default:
            response = .json(404, Self.unknownRouteBody)
        }
        if response.status != 304 { usedBy[who, default: 0] += 1 }
        response.headers += rateHeaders(used: usedBy[who, default: 0])
        return response
    }

    /// `/repos/OWNER/NAME/git/...`: the Git Data API of a repository that exists, read-only
    /// when archived; the faults the tests set meet these requests too.
    private func gitAnswer(_ request: ReceivedRequest, parts: [String]) -> ServerResponse {
        guard let repository = repositories.values.first(where: {
            $0.fullName.lowercased() == "\(parts[1])/\(parts[2])".lowercased() && !deleted.contains($0.id)
        }) else {
            return .json(404, Fixtures.text("error-404.json"))
        }
        if request.method != "GET" && repository.archived { return Self.archivedAnswer }
        let fault = activity.takeFault(request, before: false)
        if case .status(let status)? = fault {
            return .json(status, #"{"message":"Server Error","documentation_url":"https://docs.github.com/rest"}"#)
        }
        // The objects' refs say which branches there are, unless a test deleted one.
        let response = contents.gitAnswer(request, parts: parts, apiURL: apiURL, branchExists: { branch in
            !activity.branchDeleted(repository: repository.id, branch: branch)
        }, created: { branch in activity.restoreBranch(repository: repository.id, branch: branch) })
        // A branch made or moved through the API is a push: the repository's `pushed_at` moves
        // (GitHub sends a push event for a ref written so, as for `git push`).
        if ["POST", "PATCH"].contains(request.method), parts.count >= 5, parts[4] == "refs", (200..<300).contains(response.status) {
            notePush(repository.id)
        }
        return fault?.applied(to: response) ?? response
    }

    /// Whether the repository has the branch: one its commits were pushed to, or one its files
    /// were committed on, unless a test deleted it (under the lock).
    private func branchExists(_ repository: Repository, _ branch: String) -> Bool {
        activity.branchExists(repository: repository.id, branch: branch)
            || (contents.head(repository.fullName, branch: branch) != nil && !activity.branchDeleted(repository: repository.id, branch: branch))
    }

    /// GitHub's answer to a change of an archived repository's issues or files.
    static let archivedAnswer = ServerResponse.json(
        403, #"{"message":"Repository was archived so is read-only.","documentation_url":"https://docs.github.com/rest/issues/issues#update-an-issue","status":"403"}"#)

    /// GitHub's answer for a route it does not have: the bare documentation root, where a
    /// missing repository's 404 (`error-404.json`) links the endpoint's page.
    public static let unknownRouteBody =
        #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}"#

    private func repositoryAnswer(_ repository: Repository, _ request: ReceivedRequest, for user: User) -> ServerResponse {
        let body = JSONWriter.write(Self.json(for: repository, apiURL: apiURL, viewer: .some(role(of: user.login, on: repository))))
        let tag = Self.etag(body)
        if request.headers["if-none-match"] == tag {
            return ServerResponse(status: 304, headers: [("ETag", tag)])
        }
        return .json(200, body, headers: [("ETag", tag)])
    }

    /// `GET /user/repos`: the asking user's repositories and those they collaborate on (for the
    /// main user: those `listed`, and those they were made a collaborator on), that they see.
    private func userRepositories(_ request: ReceivedRequest, for user: User) -> ServerResponse {
        let key = user.login.lowercased()
        let isMain = user == access.users[0]
        let all = repositories.values.filter { repository in
            let collaborates = access.grants[repository.id]?[key].map { $0 != nil } ?? false
            let mine = isMain ? repository.listed : repository.owner.lowercased() == key
            return !deleted.contains(repository.id) && (mine || collaborates) && canSee(repository, user)
        }
        return listingPage(request, of: all, form: .listing, for: user) { perPage in
            "\(apiURL)/user/repos?per_page=\(perPage)&affiliation=owner,collaborator,organization_member&sort=full_name"
        }
    }

    /// `GET /users/{username}/repos`: the public repositories of that owner (a user or an
    /// organization), by full name, as `minimal-repository`; its next pages are
    /// `/user/{id}/repos?...`, as GitHub links them. An owner of no repository here is not found.
    private func ownerRepositories(_ request: ReceivedRequest, owner: String, for user: User) -> ServerResponse {
        let key = owner.lowercased()
        let owned = repositories.values.filter { $0.owner.lowercased() == key && !deleted.contains($0.id) }
        guard !owned.isEmpty || access.user(login: key) != nil else { return .json(404, Fixtures.text("error-404.json")) }
        let id = ownerIDs[key] ?? 7_000_000 + Int64(ownerIDs.count)
        ownerIDs[key] = id
        return listingPage(request, of: owned.filter { !$0.isPrivate }, form: .ownerListing, for: user) { perPage in
            "\(apiURL)/user/\(id)/repos?per_page=\(perPage)&sort=full_name"
        }
    }

    /// One page of a listing of repositories by full name, with GitHub's `Link` header (next,
    /// last, first) and an ETag that a conditional request meets with a 304.
    private func listingPage(_ request: ReceivedRequest, of listed: [Repository], form: Form, for user: User,
                             base: (Int) -> String) -> ServerResponse {
        let perPage = min(100, max(1, Int(request.query["per_page"] ?? "30") ?? 30))
        let page = max(1, Int(request.query["page"] ?? "1") ?? 1)
        let all = listed.sorted { $0.fullName.lowercased() < $1.fullName.lowercased() }
        let pages = max(1, (all.count + perPage - 1) / perPage)
        let slice = all.dropFirst((page - 1) * perPage).prefix(perPage)
        let body = JSONWriter.write(.array(slice.map {
            Self.json(for: $0, apiURL: apiURL, form: form, viewer: .some(role(of: user.login, on: $0)))
        }))
        var links: [String] = []
        let base = base(perPage)
        if page < pages { links.append("<\(base)&page=\(page + 1)>; rel=\"next\"") }
        if page < pages { links.append("<\(base)&page=\(pages)>; rel=\"last\"") }
        if page > 1 { links.append("<\(base)&page=1>; rel=\"first\"") }
        let tag = Self.etag(body + links.joined())
        if request.headers["if-none-match"] == tag { return ServerResponse(status: 304, headers: [("ETag", tag)]) }
        return .json(200, body, headers: [("ETag", tag)] + (links.isEmpty ? [] : [("Link", links.joined(separator: ", "))]))
    }
}
