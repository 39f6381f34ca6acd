@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// What GitHub's description lets an answer leave out, and answers that leave out more: one odd
/// item of a listing never fails the whole answer. A listed repository's owner may be null (its
/// full name names it), a label's name may be missing (the label is left out), the Contents
/// `PUT` answer's `content` may be null (its commit shows the write), and a listing may leave
/// out fields doogit reads (a search keeps the repository, those fields unknown).
@Suite(.serialized)
struct OddItemsTests {
    static let listed = { () -> JSONValue in
        guard case .array(let items) = Fixtures.json("user-repos.json"), let first = items.first else { return .null }
        return first
    }()

    func listed(id: Int64, name: String, _ changes: [String: JSONValue] = [:], removing: [String] = []) -> JSONValue {
        var item = Self.listed.replacing(["id": .int(id), "name": .string(name), "full_name": .string("octocat/\(name)")])
            .replacing(changes)
        for key in removing { item = item.removing(key) }
        return item
    }

    func serve(_ github: FakeGitHub, listing items: [JSONValue]) {
        let body = JSONWriter.write(.array(items))
        github.script { request in request.path == "/user/repos" ? .json(200, body) : nil }
    }

    @Test func aRepositoryWithoutAnOwnerIsTheOwnerOfItsFullNameAndABrokenOneIsLeftOutAlone() throws {
        let github = try FakeGitHub()
        serve(github, listing: [
            listed(id: 1, name: "no-owner", ["owner": .null]),
            listed(id: 2, name: "owner-left-out", removing: ["owner"]),
            listed(id: 3, name: "no-id", removing: ["id"]),
            listed(id: 4, name: "nameless-owner", ["owner": .null, "full_name": .string("nameless-owner")]),
            listed(id: 5, name: "plain"),
        ])
        let notes = Notes()
        let client = try GitHubClientTests().client(github, log: notes.add)
        let found = try client.userRepositories()
        #expect(found.map(\.fullName) == ["octocat/no-owner", "octocat/owner-left-out", "octocat/plain"])
        #expect(found.allSatisfy { $0.owner == "octocat" })
        #expect(notes.lines.filter { $0.hasPrefix("left out") }
            == ["left out octocat/no-id of the listing GitHub sent: field 'id' is missing",
                "left out nameless-owner of the listing GitHub sent: field 'owner' is missing"])
        // Sync reads a page the same way.
        guard case .modified(let page, _) = try client.repositoryPage(client.userRepositoriesURL, ifNoneMatch: nil) else {
            Issue.record("no page")
            return
        }
        #expect(page.repositories.map(\.id) == [1, 2, 5])
    }

    /// GitHub Enterprise and older answers leave some fields out of a listing: a search shows the
    /// repository with them unknown; sync leaves it to be read by id, where GitHub gives them all.
    @Test func aSearchKeepsARepositoryListedWithoutTheFieldsItMayLeaveOut() throws {
        let github = try FakeGitHub()
        serve(github, listing: GitHubRepository.listedFields.enumerated().map { index, field in
            listed(id: Int64(index + 1), name: "without-\(field)", removing: [field])
        } + [listed(id: 9, name: "without-all", removing: GitHubRepository.listedFields)])
        let client = try GitHubClientTests().client(github)
        let found = try client.userRepositories()
        #expect(found.map(\.name) == ["without-archived", "without-pushed_at", "without-updated_at", "without-default_branch",
                                      "without-all"])
        let all = try #require(found.last)
        #expect(all.archived == nil && all.pushedAt == nil && all.updatedAt == nil && all.defaultBranch == nil)
        #expect(found.first?.archived == nil && found.dropFirst().first?.archived == false)
        guard case .modified(let page, _) = try client.repositoryPage(client.userRepositoriesURL, ifNoneMatch: nil) else {
            Issue.record("no page")
            return
        }
        #expect(page.repositories.isEmpty)
    }

    @Test func aLabelWithoutANameIsLeftOutOfTheIssuesLabels() throws {
        guard case .array(let issues) = Fixtures.json("issues-list.json"), let issue = issues.first,
              case .array(let labels)? = issue["labels"], let bug = labels.first else {
            Issue.record("issues-list.json")
            return
        }
        let odd = issue.replacing(["labels": .array([bug, bug.removing("name"), bug.replacing(["name": .null]), .string("old")])])
        #expect(try GitHubIssue(json: odd).labels == ["bug", "old"])
        #expect(GitHubIssue.labelNames([bug.replacing(["name": .int(3)]), .int(4)]).isEmpty, "a name of another type is no name")
    }

    @Test func aWriteAnsweredWithoutItsContentIsNamedByItsCommit() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 900, name: "doogit-data", description: nil, isPrivate: true)
        let answer = Fixtures.json("file-commit.json").replacing(["content": .null])
        github.script { request in request.method == "PUT" ? .json(201, JSONWriter.write(answer)) : nil }
        let client = try GitHubClientTests().client(github)
        let written = Array("a todo\n".utf8)
        #expect(try client.writeFile(repository: "octocat/doogit-data", path: "todos.jsonl", branch: "master",
                                     content: written, sha: nil, message: "m") == GitHash.blob(written))
        let neither = answer.replacing(["commit": .null])
        github.script { request in request.method == "PUT" ? .json(201, JSONWriter.write(neither)) : nil }
        #expect(throws: GitHubError.unexpectedResponse("the answer to writing todos.jsonl has neither content.sha nor commit.sha")) {
            try client.writeFile(repository: "octocat/doogit-data", path: "todos.jsonl", branch: "master", content: written, sha: nil,
                                 message: "m")
        }
    }
}

/// Lines a client logged (what `-v` shows).
final class Notes: @unchecked Sendable {
    private let lock = NSLock()
    private var logged: [String] = []

    func add(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        logged.append(line)
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return logged
    }
}
