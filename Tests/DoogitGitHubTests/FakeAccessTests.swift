@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The fake GitHub's people and permissions, as GitHub has them (FakeGitHub+Access.swift): each
/// token is its user, the owner has admin, a public repository is read by everyone and written
/// only by those with push access, a private one is invisible (404) to the rest, writes refused
/// with a 404 to a classic token and a 403 to a fine-grained one, a protected branch refuses the
/// pushes of those not allowed. Through real requests on 127.0.0.1, answers checked against the
/// fixtures' shapes.
@Suite(.serialized)
struct FakeAccessTests {
    let transport = CurlTransport()
    static let publicID: Int64 = 1
    static let privateID: Int64 = 2

    /// octocat (the main user) with a public repository `octocat/open` and a private one
    /// `octocat/secret`, each with one file on master.
    func world() throws -> FakeGitHub {
        let github = try FakeGitHub()
        github.addRepository(id: Self.publicID, name: "open", description: nil)
        github.addRepository(id: Self.privateID, name: "secret", description: nil, isPrivate: true)
        github.contents.setFile("octocat/open", "one\n")
        github.contents.setFile("octocat/secret", "one\n")
        return github
    }

    func send(_ github: FakeGitHub, _ method: String, _ path: String, token: String, body: JSONValue? = nil) throws -> HTTPResponse {
        try transport.send(HTTPRequest(method: method, url: github.apiURL + path,
                                       headers: [(name: "Authorization", value: "Bearer \(token)")],
                                       body: body.map { Array(JSONWriter.write($0).utf8) }))
    }

    func json(_ response: HTTPResponse) throws -> JSONValue { try JSONParser.parse(response.body) }

    func keys(_ value: JSONValue?) -> [String] {
        guard case .object(let members)? = value else { return [] }
        return members.map(\.key)
    }

    func client(_ github: FakeGitHub, _ user: FakeGitHub.User) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: user.token,
                                          userAgent: "doogit-tests", retry: GitHubClientTests.quickRetries,
                                          timeouts: GitHubClientTests.patientTimeouts),
                     transport: CurlTransport())
    }

    /// The `permissions` object of GET /repos/{repository} for that token.
    func permissions(_ github: FakeGitHub, _ repository: String, token: String) throws -> [String: Bool] {
        let response = try send(github, "GET", "/repos/\(repository)", token: token)
        #expect(response.status == 200)
        guard case .object(let members)? = try json(response)["permissions"] else { return [:] }
        return Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value == .bool(true)) })
    }

    /// Every Git Data write of a commit on master by that token, as doogit makes one: a blob,
    /// a tree, a commit, the ref moved, and a new branch. Returns each answer's status. What the
    /// ref update needs is prepared with `ownerToken` (by default the main user's).
    func writeCommit(_ github: FakeGitHub, _ repository: String, token: String, ownerToken: String? = nil) throws -> [Int] {
        let owner = ownerToken ?? github.token
        let head = try #require(github.contents.head(repository))
        let tree = try #require(try json(try send(github, "GET", "/repos/\(repository)/git/commits/\(head)", token: owner))["tree"]?["sha"])
        let blob = try send(github, "POST", "/repos/\(repository)/git/blobs", token: token,
                            body: .object([JSONMember("content", .string("two\n"))]))
        let made = try send(github, "POST", "/repos/\(repository)/git/trees", token: owner, body: .object([
            JSONMember("base_tree", tree),
            JSONMember("tree", .array([.object([JSONMember("path", .string("todos.jsonl")), JSONMember("mode", .string("100644")),
                                                 JSONMember("type", .string("blob")), JSONMember("content", .string("two\n"))])])),
        ]))
        let treeSHA = try json(made)["sha"] ?? .null
        let treeAnswer = try send(github, "POST", "/repos/\(repository)/git/trees", token: token, body: .object([
            JSONMember("base_tree", tree), JSONMember("tree", .array([])),
        ]))
        let commit = try send(github, "POST", "/repos/\(repository)/git/commits", token: token, body: .object([
            JSONMember("message", .string("two")), JSONMember("tree", treeSHA), JSONMember("parents", .array([.string(head)])),
        ]))
        // The commit as its owner would make it, for the ref update alone.
        let own = try json(try send(github, "POST", "/repos/\(repository)/git/commits", token: owner, body: .object([
            JSONMember("message", .string("two")), JSONMember("tree", treeSHA), JSONMember("parents", .array([.string(head)])),
        ])))["sha"] ?? .null
        let ref = try send(github, "PATCH", "/repos/\(repository)/git/refs/heads/master", token: token,
                           body: .object([JSONMember("sha", own), JSONMember("force", .bool(false))]))
        let branch = try send(github, "POST", "/repos/\(repository)/git/refs", token: token,
                              body: .object([JSONMember("ref", .string("refs/heads/doogit-todos")), JSONMember("sha", own)]))
        return [blob.status, treeAnswer.status, commit.status, ref.status, branch.status]
    }

    // MARK: Who asks

    @Test func eachTokenIsItsUserAndAnUnknownOneIsRefused() throws {
        let github = try world()
        let alice = github.addUser(login: "alice")
        let bob = github.addUser(login: "bob", token: "github_pat_11BOB_0123456789")
        let main = github.mainUser
        #expect(main.login == "octocat" && main.token == github.token && main.id == 1, "user.json's id")
        #expect(alice.tokenKind == .classic && bob.tokenKind == .fineGrained)
        #expect(github.user("ALICE") == alice)

        let fixture = Fixtures.json("user.json")
        for (user, scopes) in [(github.mainUser, "repo, read:org" as String?), (alice, "repo, read:org"), (bob, nil)] {
            let response = try send(github, "GET", "/user", token: user.token)
            let body = try json(response)
            #expect(response.status == 200)
            #expect(keys(body) == keys(fixture), "user.json's shape")
            #expect(body["login"] == .string(user.login) && body["id"] == .int(user.id))
            #expect(response.header("x-oauth-scopes") == scopes, "a fine-grained token has no scopes")
        }
        #expect(try client(github, alice).currentUser().login == "alice")

        let unknown = try send(github, "GET", "/user", token: "ghp_nobody")
        #expect(unknown.status == 401)
        #expect(try json(unknown) == Fixtures.json("error-401.json"))
        let missing = try transport.send(HTTPRequest(method: "GET", url: github.apiURL + "/user", headers: []))
        #expect(missing.status == 401)

        // Each user's requests count against their own primary rate limit, as GitHub's do.
        github.resetCounters()
        _ = try send(github, "GET", "/user", token: alice.token)
        #expect(try send(github, "GET", "/user", token: alice.token).header("x-ratelimit-used") == "2")
        #expect(try send(github, "GET", "/user", token: github.token).header("x-ratelimit-used") == "1")
        #expect(github.rateLimitUsed(by: "alice") == 2 && github.rateLimitUsed == 1)
    }

    @Test func theMainUserKeepsEverythingItHad() throws {
        let github = try world()
        github.addUser(login: "alice")
        // An owner that is no user of the fake stands for an organization of the main user's.
        github.addRepository(id: 3, owner: "acme", name: "tools", description: nil, isPrivate: true, listed: true)
        github.contents.setFile("acme/tools", "one\n")
        let all = ["admin": true, "maintain": true, "push": true, "triage": true, "pull": true]
        for repository in ["octocat/open", "octocat/secret", "acme/tools"] {
            #expect(try permissions(github, repository, token: github.token) == all, "\(repository)")
            #expect(try writeCommit(github, repository, token: github.token) == [201, 201, 201, 200, 201], "\(repository)")
        }
        let listed = try json(try send(github, "GET", "/user/repos", token: github.token))
        guard case .array(let items) = listed else { throw JSONError.missing(field: "repositories") }
        #expect(items.compactMap { if case .string(let name)? = $0["full_name"] { name } else { nil } }
            == ["acme/tools", "octocat/open", "octocat/secret"])
        #expect(github.rateLimitUsed(by: "alice") == 0, "each user has a rate limit of their own")
        #expect(github.rateLimitUsed == github.requests.count)
        // A test may take the organization's repository away from the main user.
        github.removeAccess(of: "octocat", to: 3)
        #expect(try send(github, "GET", "/repos/acme/tools", token: github.token).status == 404)
    }

    // MARK: A public repository

    @Test func aPublicRepositoryIsReadByEveryoneAndItsRefsWrittenByNoOneWithoutPush() throws {
        let github = try world()
        let alice = github.addUser(login: "alice")
        let head = try #require(github.contents.head("octocat/open"))

        let response = try send(github, "GET", "/repos/octocat/open", token: alice.token)
        #expect(response.status == 200)
        let permissions = try json(response)["permissions"]
        #expect(Set(keys(Fixtures.json("repo-full.json")["permissions"])).isSubset(of: keys(permissions)), "the fixture's members")
        #expect(keys(permissions) == ["admin", "maintain", "push", "triage", "pull"], "and the schema's other two")
        #expect(try self.permissions(github, "octocat/open", token: alice.token)
            == ["admin": false, "maintain": false, "push": false, "triage": false, "pull": true])

        // Everything reads: the ref, the commit, its tree, a blob, a file.
        let api = try client(github, alice)
        guard case .head(let commit, _, _) = try api.branchRef(repository: "octocat/open", branch: "master", ifNoneMatch: nil) else {
            Issue.record("no head")
            return
        }
        let root = try api.rootTree(repository: "octocat/open", commit: commit)
        let file = try #require(root.entries.first { $0.name == "todos.jsonl" })
        #expect(try api.blob(repository: "octocat/open", sha: file.sha) == Array("one\n".utf8))
        #expect(try send(github, "GET", "/repos/octocat/open/contents/todos.jsonl", token: alice.token).status == 200)

        // No write: 404, naming the endpoint, as GitHub answers a classic token without push access.
        #expect(try writeCommit(github, "octocat/open", token: alice.token) == [404, 404, 404, 404, 404])
        let refused = try send(github, "PATCH", "/repos/octocat/open/git/refs/heads/master", token: alice.token,
                               body: .object([JSONMember("sha", .string(head)), JSONMember("force", .bool(false))]))
        let body = try json(refused)
        #expect(keys(body) == keys(Fixtures.json("error-404.json")))
        #expect(body["message"] == .string("Not Found")
                && body["documentation_url"] == .string("https://docs.github.com/rest/git/refs#update-a-reference"))
        #expect(throws: GitHubError.notFound(.other("the branch master of octocat/open"), message: "Not Found")) {
            try api.updateRef(repository: "octocat/open", branch: "master", commit: head)
        }
        let put = try send(github, "PUT", "/repos/octocat/open/contents/todos.jsonl", token: alice.token, body: .object([
            JSONMember("message", .string("m")), JSONMember("content", .string(Base64.encode(Array("x\n".utf8)))),
            JSONMember("sha", .string(file.sha)),
        ]))
        #expect(put.status == 404)
        #expect(github.contents.head("octocat/open") == head, "nothing moved")
        #expect(github.contents.files("octocat/open") == ["todos.jsonl": "one\n"])
        #expect(github.contents.head("octocat/open", branch: "doogit-todos") == nil)
    }

    @Test func aFineGrainedTokenIsRefusedWithGitHubsForbidden() throws {
        let github = try world()
        let bob = github.addUser(login: "bob", token: "github_pat_11BOB_0123456789")
        #expect(try writeCommit(github, "octocat/open", token: bob.token) == [403, 403, 403, 403, 403])
        let refused = try send(github, "POST", "/repos/octocat/open/git/blobs", token: bob.token,
                               body: .object([JSONMember("content", .string("x"))]))
        let body = try json(refused)
        #expect(keys(body) == keys(Fixtures.json("error-403-rate-limit.json")), "GitHub's basic-error shape")
        #expect(body["message"] == .string("Resource not accessible by personal access token")
                && body["documentation_url"] == .string("https://docs.github.com/rest/git/blobs#create-a-blob")
                && body["status"] == .string("403"))
        #expect(throws: GitHubError.forbidden(message: "Resource not accessible by personal access token", hint: nil)) {
            _ = try client(github, bob).createBlob(repository: "octocat/open", content: Array("x".utf8))
        }
        // Even as a collaborator with write: a fine-grained token writes only its own user's.
        github.addCollaborator("bob", to: Self.publicID, permission: .write)
        #expect(try permissions(github, "octocat/open", token: bob.token)["push"] == true)
        #expect(try writeCommit(github, "octocat/open", token: bob.token) == [403, 403, 403, 403, 403])
        // On their own repository it writes.
        github.addRepository(id: 4, owner: "bob", name: "own", description: nil, isPrivate: true)
        github.contents.setFile("bob/own", "one\n")
        #expect(try writeCommit(github, "bob/own", token: bob.token, ownerToken: bob.token) == [201, 201, 201, 200, 201])
        #expect(try send(github, "GET", "/repos/bob/own", token: github.token).status == 404, "private: not octocat's to see")
    }

    // MARK: Collaborators

    @Test func aCollaboratorWithWriteWritesAndOneWithReadOnlyReads() throws {
        let github = try world()
        let alice = github.addUser(login: "alice")
        let carol = github.addUser(login: "carol")
        github.addCollaborator("alice", to: Self.privateID, permission: .write)
        github.addCollaborator("carol", to: Self.privateID, permission: .read)
        #expect(github.permission(of: "alice", on: Self.privateID) == .write)
        #expect(try permissions(github, "octocat/secret", token: alice.token)
            == ["admin": false, "maintain": false, "push": true, "triage": true, "pull": true])
        #expect(try permissions(github, "octocat/secret", token: carol.token)
            == ["admin": false, "maintain": false, "push": false, "triage": false, "pull": true])

        // Through the client, as doogit writes a commit.
        let api = try client(github, alice)
        let head = try #require(github.contents.head("octocat/secret"))
        let root = try api.rootTree(repository: "octocat/secret", commit: head)
        let tree = try api.createTree(repository: "octocat/secret", base: root.sha,
                                      files: [GitTreeWrite(path: "todos.jsonl", content: Array("two\n".utf8))])
        let commit = try api.createCommit(repository: "octocat/secret", message: "two", tree: tree.sha, parents: [head])
        try api.updateRef(repository: "octocat/secret", branch: "master", commit: commit)
        #expect(github.contents.files("octocat/secret") == ["todos.jsonl": "two\n"])

        #expect(try writeCommit(github, "octocat/secret", token: carol.token) == [404, 404, 404, 404, 404])
        #expect(try send(github, "GET", "/repos/octocat/secret/git/ref/heads/master", token: carol.token).status == 200)

        // Access taken away: a stranger again.
        github.removeAccess(of: "alice", to: Self.privateID)
        #expect(github.permission(of: "alice", on: Self.privateID) == nil)
        #expect(try send(github, "GET", "/repos/octocat/secret", token: alice.token).status == 404)
        // The owner keeps admin whatever is said.
        github.removeAccess(of: "octocat", to: Self.privateID)
        #expect(github.permission(of: "octocat", on: Self.privateID) == .admin)
    }

    @Test func aUsersListingHoldsTheirOwnAndThoseTheyCollaborateOn() throws {
        let github = try world()
        let alice = github.addUser(login: "alice")
        github.addRepository(id: 5, owner: "alice", name: "mine", description: nil, isPrivate: true)
        github.addRepository(id: 6, owner: "bob", name: "shared", description: nil, isPrivate: true)
        github.addUser(login: "bob")
        github.addCollaborator("alice", to: 6, permission: .triage)
        func names(_ token: String) throws -> [String] {
            guard case .array(let items) = try json(try send(github, "GET", "/user/repos", token: token)) else { return [] }
            return items.compactMap { if case .string(let name)? = $0["full_name"] { name } else { nil } }
        }
        #expect(try names(alice.token) == ["alice/mine", "bob/shared"], "not octocat's public one: she neither owns it nor collaborates")
        guard case .array(let items) = try json(try send(github, "GET", "/user/repos", token: alice.token)) else { return }
        guard case .array(let fixture) = Fixtures.json("user-repos.json") else { return }
        #expect(items.allSatisfy { keys($0) == keys(fixture.first) }, "user-repos.json's shape")
        #expect(items.last?["permissions"]?["triage"] == .bool(true) && items.last?["permissions"]?["push"] == .bool(false))
        #expect(try names(github.token) == ["octocat/open", "octocat/secret"], "the main user's, as before")
        github.addCollaborator("octocat", to: 6)
        #expect(try names(github.token) == ["bob/shared", "octocat/open", "octocat/secret"])
        // Another user's public listing shows their public repositories only, to anyone.
        guard case .array(let bobs) = try json(try send(github, "GET", "/users/bob/repos", token: alice.token)) else { return }
        #expect(bobs.isEmpty)
    }

    // MARK: A private repository

    @Test func aPrivateRepositoryIsNotFoundByAStrangerWhateverTheyAsk() throws {
        let github = try world()
        let carol = github.addUser(login: "carol")
        let dave = github.addUser(login: "dave", token: "github_pat_11DAVE_0123456789")
        let head = try #require(github.contents.head("octocat/secret"))
        let missing = Fixtures.json("error-404.json")
        for token in [carol.token, dave.token] {
            for path in ["/repos/octocat/secret", "/repositories/\(Self.privateID)", "/repos/octocat/secret/git/ref/heads/master",
                         "/repos/octocat/secret/git/commits/\(head)", "/repos/octocat/secret/git/trees/master",
                         "/repos/octocat/secret/contents/todos.jsonl", "/repos/octocat/secret/issues",
                         "/repositories/\(Self.privateID)/git/ref/heads/master"] {
                let response = try send(github, "GET", path, token: token)
                #expect(response.status == 404, "\(path)")
                #expect(try json(response) == missing, "\(path): the answer for a repository that is not there")
            }
            // Writes too: 404, never 403, whatever the token.
            #expect(try writeCommit(github, "octocat/secret", token: token) == [404, 404, 404, 404, 404])
            let write = try send(github, "POST", "/repos/octocat/secret/git/blobs", token: token,
                                 body: .object([JSONMember("content", .string("x"))]))
            #expect(try json(write) == missing)
        }
        #expect(throws: GitHubError.notFound(.repository("octocat/secret"), message: "Not Found")) {
            try client(github, carol).repository(owner: "octocat", name: "secret")
        }
        // Renamed, its former name redirects only those who see it.
        github.rename(Self.privateID, to: "hidden")
        #expect(try send(github, "GET", "/repos/octocat/secret", token: carol.token).status == 404)
        #expect(try send(github, "GET", "/repos/octocat/secret", token: github.token).status == 301)
        #expect(github.contents.head("octocat/hidden") == head)
    }

    // MARK: Issues

    @Test func anyoneWhoReadsOpensAnIssueAndEditsTheirOwnWithoutLabels() throws {
        let github = try world()
        let alice = github.addUser(login: "alice")
        let triager = github.addUser(login: "tess")
        github.addCollaborator("tess", to: Self.publicID, permission: .triage)
        github.activity.addIssue(repository: Self.publicID, title: "octocat's", author: "octocat")
        let label = JSONMember("labels", .array([.string("bug")]))

        let opened = try send(github, "POST", "/repos/octocat/open/issues", token: alice.token,
                              body: .object([JSONMember("title", .string("alice's")), label]))
        #expect(opened.status == 201)
        #expect(try json(opened)["user"]?["login"] == .string("alice"))
        #expect(github.activity.issue(repository: Self.publicID, number: 2)?.labels == [], "labels dropped without push access")
        let edited = try send(github, "PATCH", "/repos/octocat/open/issues/2", token: alice.token,
                              body: .object([JSONMember("title", .string("alice's, edited")), label]))
        #expect(edited.status == 200)
        #expect(github.activity.issue(repository: Self.publicID, number: 2).map { ($0.title, $0.labels) }! == ("alice's, edited", []))

        let others = try send(github, "PATCH", "/repos/octocat/open/issues/1", token: alice.token,
                              body: .object([JSONMember("title", .string("mine now"))]))
        #expect(others.status == 404)
        #expect(try json(others)["documentation_url"] == .string("https://docs.github.com/rest/issues/issues#update-an-issue"))
        #expect(try send(github, "POST", "/repos/octocat/open/issues/1/labels", token: alice.token,
                         body: .object([label])).status == 404)
        #expect(github.activity.issue(repository: Self.publicID, number: 1).map { ($0.title, $0.labels) }! == ("octocat's", []))

        // Triage edits anyone's issue and applies labels through the labels endpoints.
        #expect(try send(github, "PATCH", "/repos/octocat/open/issues/1", token: triager.token,
                         body: .object([JSONMember("state", .string("closed"))])).status == 200)
        #expect(try send(github, "POST", "/repos/octocat/open/issues/1/labels", token: triager.token,
                         body: .object([label])).status == 200)
        #expect(github.activity.issue(repository: Self.publicID, number: 1).map { ($0.state, $0.labels) }! == ("closed", ["bug"]))
        #expect(try send(github, "POST", "/repos/octocat/open/labels", token: triager.token,
                         body: .object([JSONMember("name", .string("docs"))])).status == 404, "making labels is write's")
        // The owner's labels stay.
        #expect(try send(github, "POST", "/repos/octocat/open/issues", token: github.token,
                         body: .object([JSONMember("title", .string("t")), label])).status == 201)
        #expect(github.activity.issue(repository: Self.publicID, number: 3)?.labels == ["bug"])
    }

    // MARK: A protected branch

    @Test func aProtectedBranchRefusesTheRefUpdatesOfThoseNotAllowed() throws {
        let github = try world()
        let alice = github.addUser(login: "alice")
        let bob = github.addUser(login: "bob")
        github.addCollaborator("alice", to: Self.publicID)
        github.addCollaborator("bob", to: Self.publicID)
        github.protectBranch("master", of: Self.publicID, allowing: ["Alice"])

        func moveMaster(_ token: String) throws -> HTTPResponse {
            let head = try #require(github.contents.head("octocat/open"))
            github.contents.createBranch("octocat/open", "next")
            github.contents.commitFiles("octocat/open", ["todos.jsonl": "\(token)\n"], branch: "next")
            let next = try #require(github.contents.head("octocat/open", branch: "next"))
            #expect(next != head)
            return try send(github, "PATCH", "/repos/octocat/open/git/refs/heads/master", token: token,
                            body: .object([JSONMember("sha", .string(next)), JSONMember("force", .bool(false))]))
        }
        let refused = try moveMaster(bob.token)
        #expect(refused.status == 422)
        let body = try json(refused)
        #expect(keys(body) == keys(Fixtures.json("error-422-not-fast-forward.json")), "GitHub's error shape")
        #expect(body["message"] == .string(
            "You're not authorized to push to this branch. Visit https://help.github.com/articles/about-protected-branches/ for more information."))
        #expect(throws: GitHubError.validationFailed(message: try #require(try? body.string("message")))) {
            try client(github, bob).updateRef(repository: "octocat/open", branch: "master",
                                              commit: try #require(github.contents.head("octocat/open", branch: "next")))
        }
        #expect(github.contents.files("octocat/open") == ["todos.jsonl": "one\n"], "master did not move")
        // Bob may still push another branch.
        #expect(try send(github, "POST", "/repos/octocat/open/git/refs", token: bob.token, body: .object([
            JSONMember("ref", .string("refs/heads/doogit-todos")),
            JSONMember("sha", .string(try #require(github.contents.head("octocat/open")))),
        ])).status == 201)

        #expect(try moveMaster(alice.token).status == 200, "allowed by name")
        #expect(try moveMaster(github.token).status == 200, "an admin, by default")
        github.protectBranch("master", of: Self.publicID, allowing: ["alice"], enforceAdmins: true)
        #expect(try moveMaster(github.token).status == 422, "unless the protection holds admins too")
        github.unprotectBranch("master", of: Self.publicID)
        #expect(try moveMaster(bob.token).status == 200)
    }
}
