@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Requests that change something: JSON bodies, a retry rule per request, and errors that name
/// what they concern. Against the fake GitHub on 127.0.0.1.
@Suite(.serialized)
struct WriteRequestTests {
    func client(_ github: FakeGitHub, transport: HTTPTransport = CurlTransport(),
                timeouts: HTTPTimeouts = GitHubClientTests.patientTimeouts) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token,
                                          userAgent: "doogit-tests", retry: GitHubClientTests.quickRetries,
                                          timeouts: timeouts),
                     transport: transport)
    }

    static let issue: JSONValue = .object([JSONMember("title", .string("Write the docs")),
                                           JSONMember("labels", .array([.string("todo")]))])

    func writes(_ github: FakeGitHub, _ method: String) -> [ReceivedRequest] {
        github.requests.filter { $0.method == method }
    }

    @Test func aWriteSendsItsBodyAsJSONAndReturnsTheParsedAnswer() throws {
        let github = try FakeGitHub()
        github.script { request in
            request.method == "POST" ? .json(201, #"{"number":7,"title":"Write the docs"}"#) : nil
        }
        let answer = try client(github).post("/repos/octocat/app/issues", Self.issue, about: .repository("octocat/app"))
        #expect(answer["number"] == .int(7))
        let sent = try #require(writes(github, "POST").first)
        #expect(sent.path == "/repos/octocat/app/issues")
        #expect(sent.headers["content-type"] == "application/json")
        #expect(sent.headers["authorization"] == "Bearer \(github.token)")
        #expect(try JSONParser.parse(sent.body) == Self.issue)

        github.script { request in request.method == "DELETE" ? ServerResponse(status: 204) : nil }
        #expect(try client(github).delete("/repos/octocat/app/issues/7/labels/todo", about: .issue(repository: "octocat/app", number: 7)) == .null)
    }

    /// A POST that timed out may have created the issue: it is not sent again. (Its answer is
    /// held until the request has given up.)
    @Test func aPostThatTimesOutIsSentOnceAndSaysItMayHaveReachedGitHub() throws {
        let github = try FakeGitHub()
        let hold = AnswerHold()
        defer { hold.releaseAnswer() }
        github.script { request in
            guard request.method == "POST" else { return nil }
            var late = ServerResponse.json(201, #"{"number":1}"#)
            late.hold = hold
            return late
        }
        #expect(throws: GitHubError.outcomeUnknown(request: "POST /repos/octocat/app/issues", reason: "it timed out")) {
            try client(github, timeouts: GitHubClientTests.shortTimeouts)
                .post("/repos/octocat/app/issues", Self.issue, about: .repository("octocat/app"))
        }
        #expect(writes(github, "POST").count == 1)
    }

    @Test func aPostAfterADroppedConnectionOrA502IsNotRepeated() throws {
        let github = try FakeGitHub()
        github.script { request in request.method == "POST" ? ServerResponse(status: 201).hangingUp() : nil }
        let api = try client(github)
        do {
            _ = try api.post("/repos/octocat/app/issues", Self.issue, about: .repository("octocat/app"))
            Issue.record("a dropped POST succeeded")
        } catch {
            guard case .outcomeUnknown(request: "POST /repos/octocat/app/issues", reason: _) = error else {
                Issue.record("got \(error)")
                return
            }
        }
        #expect(writes(github, "POST").count == 1)

        github.resetCounters()
        github.script { request in request.method == "POST" ? ServerResponse(status: 502) : nil }
        #expect(throws: GitHubError.outcomeUnknown(request: "POST /repos/octocat/app/issues", reason: "GitHub answered HTTP 502")) {
            try client(github).post("/repos/octocat/app/issues", Self.issue, about: .repository("octocat/app"))
        }
        #expect(writes(github, "POST").count == 1)
    }

    /// Creating a repository is never repeated once it may have reached GitHub, as creating an
    /// issue is not.
    @Test func aRepositoryCreationAfterA502OrADroppedConnectionIsNotRepeated() throws {
        for answer in [ServerResponse.json(502, #"{"message":"Server Error"}"#), ServerResponse(status: 201).hangingUp()] {
            let github = try FakeGitHub()
            github.script { request in request.method == "POST" ? answer : nil }
            let api = try client(github)
            do {
                _ = try api.createPrivateRepository(owner: nil, name: "doogit-data", description: "todos")
                Issue.record("a failed creation succeeded")
            } catch {
                guard case .outcomeUnknown(request: "POST /user/repos", reason: _) = error else {
                    Issue.record("got \(error)")
                    continue
                }
            }
            #expect(writes(github, "POST").count == 1)
        }
    }

    /// A repeatable request goes on the connection open, as a GET does; a creation opens one of
    /// its own, on which libcurl never sends it again.
    @Test func repeatablePostsReuseTheOpenConnectionAndACreationOpensItsOwn() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: nil)
        github.addRepository(id: 900, name: "doogit-data", description: nil, isPrivate: true)
        let data = "octocat/doogit-data"
        let api = try client(github)
        guard case .head(let parent, _, _) = try api.branchRef(repository: data, branch: "master", ifNoneMatch: nil) else {
            Issue.record("no head")
            return
        }
        #expect(github.connectionsOpened == 1)
        let tree = try api.createTree(repository: data, base: nil, files: [GitTreeWrite(path: "raw.bin", content: [0xFF])]).sha
        _ = try api.createCommit(repository: data, message: "m", tree: tree, parents: [parent])
        #expect(writes(github, "POST").count == 3, "a blob, a tree and a commit")
        #expect(github.connectionsOpened == 1, "they went on the connection the GET opened")
        _ = try api.createIssue(owner: "octocat", name: "app", title: "Once", body: "", labels: [])
        #expect(github.connectionsOpened == 2, "the creation went on a connection of its own")
    }

    /// Refused at connect, the request never reached GitHub: sending it again is safe.
    @Test func aPostRefusedAtConnectIsRetried() throws {
        let github = try FakeGitHub()
        github.script { request in request.method == "POST" ? .json(201, #"{"number":3}"#) : nil }
        let closed = try HTTPServer { _ in ServerResponse(status: 500) }
        let closedURL = closed.baseURL
        closed.stop()
        let transport = FirstAttemptElsewhere(base: github.apiURL, elsewhere: closedURL)
        let answer = try client(github, transport: transport)
            .post("/repos/octocat/app/issues", Self.issue, about: .repository("octocat/app"))
        #expect(answer["number"] == .int(3))
        #expect(transport.attempts == 2)
        #expect(writes(github, "POST").count == 1)
    }

    @Test func aPatchAfterA502IsRetried() throws {
        let github = try FakeGitHub()
        let patches = Counter()
        github.script { request in
            guard request.method == "PATCH" else { return nil }
            return patches.next() == 1 ? ServerResponse(status: 502) : .json(200, #"{"number":5,"state":"closed"}"#)
        }
        let answer = try client(github).patch("/repos/octocat/app/issues/5", .object([JSONMember("state", .string("closed"))]),
                                              about: .issue(repository: "octocat/app", number: 5))
        #expect(answer["state"] == .string("closed"))
        #expect(writes(github, "PATCH").count == 2)
        for sent in writes(github, "PATCH") {
            #expect(try JSONParser.parse(sent.body) == .object([JSONMember("state", .string("closed"))]))
        }
    }

    @Test func conflictsValidationAndMissingThingsHaveTheirOwnErrors() throws {
        let github = try FakeGitHub()
        let contents = "/repos/octocat/notes/contents/notes/hello.txt"
        let file = GitHubResource.file(repository: "octocat/notes", path: "notes/hello.txt")
        let body: JSONValue = .object([JSONMember("message", .string("update")), JSONMember("content", .string("aGk="))])
        github.script { _ in .json(409, #"{"message":"notes/hello.txt does not match 95b966ae","documentation_url":"https://docs.github.com/rest/repos/contents#create-or-update-file-contents","status":"409"}"#) }
        #expect(throws: GitHubError.conflict(message: "notes/hello.txt does not match 95b966ae")) {
            try client(github).put(contents, body, about: file)
        }
        github.script { _ in .json(422, #"{"message":"Invalid request.\n\n\"sha\" wasn't supplied.","documentation_url":"https://docs.github.com/rest/repos/contents#create-or-update-file-contents","status":"422"}"#) }
        #expect(throws: GitHubError.validationFailed(message: "Invalid request.\n\n\"sha\" wasn't supplied.")) {
            try client(github).put(contents, body, about: file)
        }
        github.script { _ in .json(422, Fixtures.text("error-422.json")) }
        #expect(throws: GitHubError.validationFailed(message: "Validation Failed: title missing_field")) {
            try client(github).post("/repos/octocat/app/issues", .object([]), about: .repository("octocat/app"))
        }
        #expect(writes(github, "POST").count == 1, "a 422 is GitHub's answer, not a failure to retry")
        github.script { _ in .json(404, #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/contents#get-repository-content","status":"404"}"#) }
        #expect(throws: GitHubError.notFound(file, message: "Not Found")) { try client(github).put(contents, body, about: file) }
    }
}

/// CurlTransport, except that the first attempt goes to another (closed) port: a real refusal
/// at connect, then the real server.
final class FirstAttemptElsewhere: HTTPTransport {
    let curl = CurlTransport()
    let base: String
    let elsewhere: String
    private(set) var attempts = 0

    init(base: String, elsewhere: String) {
        self.base = base
        self.elsewhere = elsewhere
    }

    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        attempts += 1
        var request = request
        if attempts == 1 { request.url = elsewhere + request.url.dropFirst(base.count) }
        return try curl.send(request)
    }
}
