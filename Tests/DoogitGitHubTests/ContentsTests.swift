@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The Contents API against the fake GitHub: conditional reads, writes checked by blob sha
/// (409, 422), raw reads of large files, GitHub's time, and private repositories.
@Suite(.serialized)
struct ContentsTests {
    let repository = "octocat/doogit-data"

    /// The fake GitHub with the private repository the todos are kept in.
    func world() throws -> FakeGitHub {
        let github = try FakeGitHub()
        github.addRepository(id: 900, name: "doogit-data", description: nil, isPrivate: true)
        return github
    }

    func client(_ github: FakeGitHub) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token,
                                          userAgent: "doogit-tests", retry: GitHubClientTests.quickRetries,
                                          timeouts: GitHubClientTests.patientTimeouts),
                     transport: CurlTransport())
    }

    @Test func aFileIsCreatedReadConditionallyAndWrittenOverTheShaRead() throws {
        let github = try world()
        let client = try client(github)
        github.contents.setDate(Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try client.readFile(repository: repository, path: "todos.jsonl", branch: "master", ifNoneMatch: nil).answer == .missing)

        let created = try client.writeFile(repository: repository, path: "todos.jsonl", branch: "master",
                                           content: Array("one\n".utf8), sha: nil, message: "first")
        #expect(github.contents.file(repository)?.text == "one\n")
        #expect(github.contents.file(repository)?.sha == created)
        #expect(github.contents.messages == ["first"])

        let read = try client.readFile(repository: repository, path: "todos.jsonl", branch: "master", ifNoneMatch: nil)
        guard case .file(let file, let etag?) = read.answer else {
            Issue.record("no file: \(read)")
            return
        }
        #expect(file == RepositoryFile(content: Array("one\n".utf8), sha: created))
        #expect(read.date == Timestamp(secondsSinceEpoch: 1_700_000_000), "GitHub's Date header")

        github.resetCounters()
        let again = try client.readFile(repository: repository, path: "todos.jsonl", branch: "master", ifNoneMatch: etag)
        #expect(again.answer == .notModified)
        #expect(again.date == Timestamp(secondsSinceEpoch: 1_700_000_000))
        #expect(github.rateLimitUsed == 0, "a 304 costs nothing")

        let second = try client.writeFile(repository: repository, path: "todos.jsonl", branch: "master",
                                          content: Array("two\n".utf8), sha: created, message: "second")
        #expect(second != created && github.contents.file(repository)?.text == "two\n")
        let put = try #require(github.requests.last { $0.method == "PUT" })
        let body = try JSONParser.parse(put.body)
        #expect(body["sha"] == .string(created) && body["branch"] == .string("master"))
    }

    @Test func aWriteThatLostARaceIsA409AndOneWithoutShaOverAFileA422() throws {
        let github = try world()
        let client = try client(github)
        github.contents.setFile(repository, "from another machine\n")
        do {
            _ = try client.writeFile(repository: repository, path: "todos.jsonl", branch: "master", content: [0x41], sha: nil, message: "m")
            Issue.record("a write without sha over a file succeeded")
        } catch {
            #expect(GitHubClient.isLostRace(error), "\(error)")
            #expect(error == .validationFailed(message: "Invalid request.\n\n\"sha\" wasn't supplied."))
        }
        let sha = try #require(github.contents.file(repository)?.sha)
        github.contents.writeBeforeNextPut(repository, "written between the read and the write\n")
        do {
            _ = try client.writeFile(repository: repository, path: "todos.jsonl", branch: "master", content: [0x41], sha: sha, message: "m")
            Issue.record("a write over a changed file succeeded")
        } catch {
            #expect(GitHubClient.isLostRace(error))
            guard case .conflict(let message) = error else { Issue.record("\(error)"); return }
            #expect(message == "todos.jsonl does not match \(sha)")
        }
        #expect(github.contents.file(repository)?.text == "written between the read and the write\n")
        #expect(!GitHubClient.isLostRace(.validationFailed(message: "Validation Failed: content is too large")))
        #expect(!GitHubClient.isLostRace(.notFound(.file(repository: repository, path: "todos.jsonl"), message: "Not Found")))
    }

    @Test func aFileOverTheLimitIsReadRawByItsBlob() throws {
        let github = try world()
        github.contents.largeFileThreshold = 10
        let text = String(repeating: "0123456789", count: 300) + "\n"
        github.contents.setFile(repository, text)
        let read = try client(github).readFile(repository: repository, path: "todos.jsonl", branch: nil, ifNoneMatch: nil)
        guard case .file(let file, _) = read.answer else {
            Issue.record("\(read)")
            return
        }
        #expect(file.content == Array(text.utf8))
        let raw = try #require(github.requests.last)
        #expect(raw.path == "/repos/\(repository)/git/blobs/\(file.sha)")
        #expect(raw.headers["accept"] == GitHubClient.rawMediaType)
    }

    @Test func staleReadsAnswerThePreviousVersion() throws {
        let github = try world()
        github.contents.setFile(repository, "old\n")
        github.contents.setFile(repository, "new\n")
        github.contents.makeNextReadsStale(1)
        let client = try client(github)
        func content() throws -> String? {
            guard case .file(let file, _) = try client.readFile(repository: repository, path: "todos.jsonl", branch: nil,
                                                                ifNoneMatch: nil).answer else { return nil }
            return String(decoding: file.content, as: UTF8.self)
        }
        #expect(try content() == "old\n")
        #expect(try content() == "new\n")
    }

    @Test func repositoriesShowTheirVisibilityAndArePrivateWhenCreated() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 5, name: "public-notes", description: nil)
        let client = try client(github)
        let found = try client.repositoryAccess("octocat/public-notes")
        #expect(found.id == 5 && !found.isPrivate && found.defaultBranch == "master")
        let created = try client.createPrivateRepository(owner: nil, name: "doogit-data", description: "todos")
        #expect(created.isPrivate && created.fullName == "octocat/doogit-data")
        #expect(try client.repositoryAccess("octocat/doogit-data") == created)
        let post = try #require(github.requests.last { $0.method == "POST" })
        #expect(post.path == "/user/repos")
        #expect(try JSONParser.parse(post.body)["private"] == .bool(true))
        #expect(try client.createPrivateRepository(owner: "acme", name: "data", description: "x").fullName == "acme/data")
        #expect(github.requests.last { $0.method == "POST" }?.path == "/orgs/acme/repos")
        // A name taken already (another machine made it meanwhile): GitHub's 422, as GitHub words it.
        #expect(throws: GitHubError.validationFailed(message: "Repository creation failed.: name already exists on this account")) {
            try client.createPrivateRepository(owner: nil, name: "doogit-data", description: "todos")
        }
    }

    @Test(arguments: [("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37.000Z"), ("Tue, 14 Nov 2023 22:13:20 GMT", "2023-11-14T22:13:20.000Z")])
    func httpDatesAreRead(text: String, expected: String) {
        #expect(HTTPDate.parse(text)?.rfc3339 == expected)
    }

    @Test(arguments: ["", "Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT",
                      "Sunday, 06-Nov-94 08:49:37 GMT"])
    func otherDatesAreNot(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func pathsAndBranchesArePercentEncoded() {
        #expect(URLPath.encodedSegments("dir name/todos ü.jsonl") == "dir%20name/todos%20%C3%BC.jsonl")
        #expect(URLPath.encoded("feature/x&y") == "feature%2Fx%26y")
    }
}
