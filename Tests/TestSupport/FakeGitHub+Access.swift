import DoogitSupport
import Foundation

/// The people of the fake GitHub and what each may do to each repository, as GitHub decides it.
/// Every request's token says who asks (an unknown one gets the 401 of `error-401.json`); the
/// main user is the one the fake was made with (`token`, `login`), and tests add others.
///
/// Who may do what, and the sources:
/// - A repository's owner has admin; a collaborator has the role given (GitHub's roles: read,
///   triage, write, maintain, admin); every signed-in user reads a public repository. An owner
///   that is no user of this fake stands for an organization the main user administers (what the
///   fake always assumed): the main user has admin there unless a test says otherwise.
/// - A private repository that the user cannot read answers every route with the 404 of a
///   missing one (`error-404.json`), never 403: GitHub's docs, "Troubleshooting the REST API",
///   `404 Not Found` for an existing resource ("to avoid confirming the existence of private
///   repositories").
/// - `permissions` in a repository's answers are the asking user's role (`admin`, `maintain`,
///   `push`, `triage`, `pull`: the `full-repository` schema of github/rest-api-description; the
///   spec's own examples, `repo-full.json`, show only three of them).
/// - A change the user's role does not allow: with a classic token (`ghp_`, and any token that
///   is not fine-grained) GitHub answers 404, as for a repository it hides (the same docs page:
///   for a classic token, check that "the owner of the token has any permissions that are
///   required to use the endpoint"; seen in electricbookworks/electric-book-gui#85, a 404 when
///   writing to a repository with read access, and AlexsJones/llmfit#865, "GitHub answers 404,
///   not 403, when a token may read a repository but has no write access to it"). With a
///   fine-grained token (`github_pat_`) GitHub answers 403 "Resource not accessible by personal
///   access token", naming the endpoint's page (the docs page above, "Resource not accessible";
///   the body as quoted in joshuakto/fit#225 for create-a-blob and thedaviddias/llms-txt-hub#411).
/// - A fine-grained token reaches only the repositories of its user (its resource owner); on
///   everyone else's it reads public ones and writes none, whatever its user's role there
///   (GitHub's docs, "Managing your personal access tokens", the limits of fine-grained tokens:
///   "Only personal access tokens (classic) have write access for public repositories that are
///   not owned by you"). The main user's fine-grained token also reaches its organizations'.
/// - Opening an issue needs read access only; without push access the labels, assignees and
///   milestone given are silently dropped; an issue's author, and anyone with triage or more,
///   may edit it, and label changes of someone without push access are dropped (the REST docs
///   of "Create an issue" and "Update an issue"). An issue's labels endpoints need triage; the
///   repository's labels, Git Data writes and Contents writes need write (GitHub's repository
///   roles: "Apply/dismiss labels" is triage, "Create, edit, delete labels" and pushing are write).
/// - A protected branch whose pushes are restricted refuses a ref update by anyone not allowed:
///   422 with GitHub's message for it (see `protectedBranchBody`). Admins may push unless the
///   protection applies to them too (GitHub's docs, "About protected branches": by default the
///   restrictions "don't apply to people with admin permissions").
///
/// The checks are all here (`accessRefusal`), consulted by FakeGitHub's dispatch before any
/// route answers.
extension FakeGitHub {
    /// Someone who can sign in to the fake GitHub, with the token they sign in with.
    public struct User: Equatable, Sendable {
        public let login: String
        public let token: String
        /// GitHub's id of the account (the main user's is `user.json`'s).
        public let id: Int64
        public var tokenKind: TokenKind { TokenKind(token: token) }
    }

    /// The two kinds of personal access token, told apart by prefix as GitHub makes them
    /// (`ghp_` classic, `github_pat_` fine-grained).
    public enum TokenKind: Equatable, Sendable {
        case classic, fineGrained

        public init(token: String) { self = token.hasPrefix("github_pat_") ? .fineGrained : .classic }
    }

    /// GitHub's repository roles, the weakest first: read (pull), triage, write (push),
    /// maintain, admin.
    public enum Permission: Int, Comparable, CaseIterable, Sendable {
        case read, triage, write, maintain, admin

        /// The role's name as GitHub spells it (`role_name`).
        public var name: String { ["read", "triage", "write", "maintain", "admin"][rawValue] }

        public static func < (lhs: Permission, rhs: Permission) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A branch whose pushes are restricted to some people.
    public struct BranchProtection: Equatable, Sendable {
        /// Who may push, besides admins (logins in lower case).
        public var allowed: Set<String>
        /// Whether admins are held to it too ("Do not allow bypassing the above settings").
        public var enforceAdmins: Bool
    }

    // MARK: People and their access, as tests set them

    /// The user the fake was made with (`token`, `login`).
    public var mainUser: User { locked { access.users[0] } }

    /// Adds someone who can sign in with `token` (by default a classic one made from the login).
    @discardableResult
    public func addUser(login: String, token: String? = nil) -> User {
        locked {
            let token = token ?? "ghp_\(login.lowercased())0123456789abcdef"
            precondition(access.user(token: token) == nil && access.user(login: login) == nil, "a second \(login) or token")
            let user = User(login: login, token: token, id: 5_000_000 + Int64(access.users.count))
            access.users.append(user)
            return user
        }
    }

    /// The user of that login, if the fake knows them.
    public func user(_ login: String) -> User? { locked { access.user(login: login) } }

    /// Gives `login` this role on the repository, as a collaborator (replacing any they had).
    public func addCollaborator(_ login: String, to repository: Int64, permission: Permission = .write) {
        locked { access.grants[repository, default: [:]][login.lowercased()] = .some(permission) }
    }

    /// Takes away whatever access `login` was given to the repository; for the main user on an
    /// organization's repository, the admin it has by default too. An owner keeps admin, and a
    /// public repository stays readable.
    public func removeAccess(of login: String, to repository: Int64) {
        locked { access.grants[repository, default: [:]][login.lowercased()] = .some(nil) }
    }

    /// The role `login` has on the repository (nil: none, not even read).
    public func permission(of login: String, on repository: Int64) -> Permission? {
        locked {
            guard let repository = repositories[repository] else { return nil }
            return role(of: login, on: repository)
        }
    }

    /// Restricts who may push to the branch: `allowing` (and admins, unless `enforceAdmins`).
    public func protectBranch(_ branch: String, of repository: Int64, allowing logins: [String] = [],
                              enforceAdmins: Bool = false) {
        locked {
            access.protections[repository, default: [:]][branch] =
                BranchProtection(allowed: Set(logins.map { $0.lowercased() }), enforceAdmins: enforceAdmins)
        }
    }

    public func unprotectBranch(_ branch: String, of repository: Int64) {
        locked { _ = access.protections[repository]?.removeValue(forKey: branch) }
    }

    // MARK: Decisions (under the lock)

    /// The role of `login` on the repository: an owner's admin, a collaborator's role, the main
    /// user's admin on an organization's (an owner that is no user here), read on a public one.
    func role(of login: String, on repository: Repository) -> Permission? {
        let key = login.lowercased()
        if repository.owner.lowercased() == key { return .admin }
        if let grant = access.grants[repository.id]?[key] {
            if let given = grant { return given }
            return repository.isPrivate ? nil : .read
        }
        if key == access.users[0].login.lowercased() && access.user(login: repository.owner) == nil { return .admin }
        return repository.isPrivate ? nil : .read
    }

    /// The most the user's token lets them do on the repository (nil: nothing, not even read):
    /// a classic token all their role allows; a fine-grained one that on its user's own
    /// repositories (and the main user's organizations'), and elsewhere reading public ones only.
    private func reach(of user: User, on repository: Repository) -> Permission? {
        guard user.tokenKind == .fineGrained else { return .admin }
        let owner = repository.owner.lowercased()
        if owner == user.login.lowercased() { return .admin }
        if user == access.users[0] && access.user(login: owner) == nil { return .admin }
        return repository.isPrivate ? nil : .read
    }

    /// Whether the user sees the repository at all.
    func canSee(_ repository: Repository, _ user: User) -> Bool {
        role(of: user.login, on: repository) != nil && reach(of: user, on: repository) != nil
    }

    /// The `permissions` object of a repository's answers for that role.
    static func permissionsJSON(_ role: Permission?) -> JSONValue {
        let has = { (needed: Permission) -> JSONValue in .bool(role.map { $0 >= needed } ?? false) }
        return .object([JSONMember("admin", has(.admin)), JSONMember("maintain", has(.maintain)),
                        JSONMember("push", has(.write)), JSONMember("triage", has(.triage)), JSONMember("pull", has(.read))])
    }

    /// What a request under a repository asks for, by route, with the page of the endpoint its
    /// errors name; `.read` for every read, and for a route the fake does not have (whose own
    /// answer is GitHub's 404 for it).
    private enum Need {
        case read
        /// Opening an issue.
        case open
        /// Editing an issue (its author may).
        case edit(issue: Int64)
        case triage
        case write
    }

    private static func need(_ method: String, _ route: [String]) -> (need: Need, page: String) {
        let rest = "https://docs.github.com/rest/"
        guard method != "GET", let first = route.first else { return (.read, "") }
        switch (first, method, route.count) {
        case ("git", "POST", 2) where route[1] == "blobs": return (.write, rest + "git/blobs#create-a-blob")
        case ("git", "POST", 2) where route[1] == "trees": return (.write, rest + "git/trees#create-a-tree")
        case ("git", "POST", 2) where route[1] == "commits": return (.write, rest + "git/commits#create-a-commit")
        case ("git", "POST", 2) where route[1] == "refs": return (.write, rest + "git/refs#create-a-reference")
        case ("git", "PATCH", 3...) where route[1] == "refs": return (.write, rest + "git/refs#update-a-reference")
        case ("contents", "PUT", 2...): return (.write, rest + "repos/contents#create-or-update-file-contents")
        case ("issues", "POST", 1): return (.open, rest + "issues/issues#create-an-issue")
        case ("issues", "PATCH", 2): return (Int64(route[1]).map { .edit(issue: $0) } ?? .read, rest + "issues/issues#update-an-issue")
        case ("issues", "POST", 3) where route[2] == "labels": return (.triage, rest + "issues/labels#add-labels-to-an-issue")
        case ("issues", "PUT", 3) where route[2] == "labels": return (.triage, rest + "issues/labels#set-labels-for-an-issue")
        case ("issues", "DELETE", 3) where route[2] == "labels":
            return (.triage, rest + "issues/labels#remove-all-labels-from-an-issue")
        case ("issues", "DELETE", 4) where route[2] == "labels":
            return (.triage, rest + "issues/labels#remove-a-label-from-an-issue")
        case ("labels", "POST", 1): return (.write, rest + "issues/labels#create-a-label")
        default: return (.read, "")
        }
    }

    /// The answer GitHub gives the user instead of carrying the request out, or nil when they
    /// may; the request may come back without fields GitHub drops silently for them. `parts`
    /// is the path's, a repository named by OWNER/NAME (as FakeGitHub's dispatch has it).
    func accessRefusal(_ request: inout ReceivedRequest, parts: [String], by user: User) -> ServerResponse? {
        let hidden = ServerResponse.json(404, Fixtures.text("error-404.json"))
        if parts.count == 2, parts[0] == "repositories", let id = Int64(parts[1]) {
            guard let repository = repositories[id], !deleted.contains(id) else { return nil }
            return canSee(repository, user) ? nil : hidden
        }
        guard parts.count > 2, parts[0] == "repos" else { return nil }
        let fullName = "\(parts[1])/\(parts[2])".lowercased()
        guard let repository = repositories.values.first(where: { $0.fullName.lowercased() == fullName && !deleted.contains($0.id) }) else {
            // A former name redirects only those who see the repository.
            guard let id = formerNames[fullName], let moved = repositories[id], !deleted.contains(id) else { return nil }
            return canSee(moved, user) ? nil : hidden
        }
        guard let role = role(of: user.login, on: repository), let reach = reach(of: user, on: repository) else { return hidden }
        let route = Array(parts.dropFirst(3))
        let (need, page) = Self.need(request.method, route)
        if case .read = need { return nil }
        let refused = user.tokenKind == .fineGrained
            ? ServerResponse.json(403, Self.errorBody("Resource not accessible by personal access token", page, status: 403))
            : ServerResponse.json(404, Self.errorBody("Not Found", page, status: 404))
        // A fine-grained token that only reads here refuses every change, whatever the role.
        guard reach >= .write else { return refused }
        switch need {
        case .read:
            return nil
        case .open:
            if role < .write { request = Self.dropping(["labels", "assignees", "milestone"], from: request) }
        case .edit(let number):
            let author = activity.issue(repository: repository.id, number: number)?.author.lowercased()
            guard role >= .triage || author == user.login.lowercased() else { return refused }
            if role < .write { request = Self.dropping(["labels"], from: request) }
        case .triage:
            guard role >= .triage else { return refused }
        case .write:
            guard role >= .write else { return refused }
            if request.method == "PATCH", route.count > 3, route[2] == "heads" {
                let branch = route.dropFirst(3).joined(separator: "/").removingPercentEncoding ?? ""
                if let protection = access.protections[repository.id]?[branch],
                   !protection.allowed.contains(user.login.lowercased()), role < .admin || protection.enforceAdmins {
                    return .json(422, Self.protectedBranchBody)
                }
            }
        }
        return nil
    }

    /// GitHub's answer to a ref update that a protected branch's push restrictions refuse: 422
    /// with this message, a real answer recorded in dependabot/dependabot-core's
    /// `common/spec/fixtures/github/unauthorized_push_protected_branch.json` (dependabot-core#1790,
    /// "Handle unauthorized pushes to protected branches"; its spec answers PATCH
    /// git/refs/heads/{branch} with it and status 422, and its updater takes it as an
    /// `Octokit::UnprocessableEntity`). The "Protected branch update failed for refs/heads/…"
    /// (GH006) of a `git push` is the git protocol's wording, not the REST API's. `status` is
    /// added as in the other errors here.
    static let protectedBranchBody = JSONWriter.write(.object([
        JSONMember("message", .string("You're not authorized to push to this branch. Visit https://help.github.com/articles/about-protected-branches/ for more information.")),
        JSONMember("documentation_url", .string("https://help.github.com/articles/about-protected-branches")),
        JSONMember("status", .string("422")),
    ]))

    private static func errorBody(_ message: String, _ page: String, status: Int) -> String {
        JSONWriter.write(.object([JSONMember("message", .string(message)), JSONMember("documentation_url", .string(page)),
                                  JSONMember("status", .string(String(status)))]))
    }

    /// The request with these members left out of its JSON body (as GitHub ignores them).
    private static func dropping(_ keys: [String], from request: ReceivedRequest) -> ReceivedRequest {
        guard let body = try? JSONParser.parse(request.body), case .object = body else { return request }
        var request = request
        request.body = Array(JSONWriter.write(keys.reduce(body) { $0.removing($1) }).utf8)
        return request
    }
}

/// Who the fake knows and who may do what beyond what a repository says of itself (FakeGitHub
/// keeps it, under its lock).
struct FakeAccess {
    /// The main user first.
    var users: [FakeGitHub.User]
    /// Access given per repository (by id) and login (lower case): a collaborator's role, or
    /// nil for none at all.
    var grants: [Int64: [String: FakeGitHub.Permission?]] = [:]
    /// Protected branches per repository (by id), by name.
    var protections: [Int64: [String: FakeGitHub.BranchProtection]] = [:]

    func user(token: String) -> FakeGitHub.User? { users.first { $0.token == token } }
    func user(login: String) -> FakeGitHub.User? { users.first { $0.login.lowercased() == login.lowercased() } }
}
