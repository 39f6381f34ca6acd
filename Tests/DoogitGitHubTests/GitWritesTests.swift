@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The Git Data API written against the fake GitHub: one commit of several files moved onto the
/// branch only as a fast forward, names that agree with git's computed here, and writes that meet
/// a failure or a lost answer.
@Suite(.serialized)
struct GitWritesTests: GitDataSuite {
    @Test func oneCommitWritesNestedFilesAndARemovalAndMovesTheRef() throws {
        let github = try world()
        let client = try client(github)
        github.contents.commitFiles(repository, ["todos.jsonl": "old\n", "gone.jsonl": "bye\n", "todos/1/2.jsonl": "kept\n"])
        let before = github.contents.commits(repository)
        let parent = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        let base = try client.rootTree(repository: repository, commit: parent).sha
        let tree = try client.createTree(repository: repository, base: base, files: [
            GitTreeWrite(path: "todos/1/3.jsonl", content: Array("new\n".utf8)),
            GitTreeWrite(path: "todos/4/5.jsonl", content: Array("other\n".utf8)),
            GitTreeWrite(path: "gone.jsonl", content: nil),
        ]).sha
        let commit = try client.createCommit(repository: repository, message: "doogit: 2 changes", tree: tree, parents: [parent])
        #expect(github.contents.head(repository) == parent, "a commit alone moves nothing")
        try client.updateRef(repository: repository, branch: "master", commit: commit)
        #expect(github.contents.head(repository) == commit)
        #expect(github.contents.files(repository) == ["todos.jsonl": "old\n", "todos/1/2.jsonl": "kept\n",
                                                      "todos/1/3.jsonl": "new\n", "todos/4/5.jsonl": "other\n"])
        #expect(github.contents.commits(repository) == before + 1)
        #expect(github.contents.writes == 1 && github.contents.messages == ["doogit: 2 changes"])
        let patch = try #require(github.requests.last { $0.method == "PATCH" })
        #expect(patch.path == "/repos/\(repository)/git/refs/heads/master")
        #expect(try JSONParser.parse(patch.body) == .object([JSONMember("sha", .string(commit)), JSONMember("force", .bool(false))]))
        let post = try JSONParser.parse(try #require(github.requests.first { $0.method == "POST" }).body)
        #expect(post["base_tree"] == .string(base))
        #expect(post["tree"] == .array([
            .object([JSONMember("path", .string("todos/1/3.jsonl")), JSONMember("mode", .string("100644")),
                     JSONMember("type", .string("blob")), JSONMember("content", .string("new\n"))]),
            .object([JSONMember("path", .string("todos/4/5.jsonl")), JSONMember("mode", .string("100644")),
                     JSONMember("type", .string("blob")), JSONMember("content", .string("other\n"))]),
            .object([JSONMember("path", .string("gone.jsonl")), JSONMember("mode", .string("100644")),
                     JSONMember("type", .string("blob")), JSONMember("sha", .null)]),
        ]))
        // The Contents API reads the same files.
        guard case .file(let file, _) = try client.readFile(repository: repository, path: "todos/4/5.jsonl", branch: "master",
                                                            ifNoneMatch: nil).answer else {
            Issue.record("the file written is not there")
            return
        }
        #expect(file.content == Array("other\n".utf8) && file.sha == GitHash.blob(file.content))
    }

    @Test func theShasGitHubGivesAreThoseComputedHere() throws {
        let github = try world()
        let client = try client(github)
        let parent = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        let made = try client.createTree(repository: repository, base: nil, files: [
            GitTreeWrite(path: "todos.jsonl", content: Array("top\n".utf8)),
            GitTreeWrite(path: "todos/7.jsonl", content: Array("seven\n".utf8)),
        ])
        let tree = made.sha
        let subtree = try #require(GitHash.tree([("7.jsonl", GitHash.blob(Array("seven\n".utf8)), .file)]))
        #expect(tree == GitHash.tree([("todos.jsonl", GitHash.blob(Array("top\n".utf8)), .file), ("todos", subtree, .tree)]))
        #expect(made.entries.map(\.name) == ["todos.jsonl", "todos"], "the answer lists the new root")
        let listed = try client.treeEntries(repository: repository, sha: tree).entries
        #expect(listed.first { $0.name == "todos" }?.sha == subtree)
        #expect(listed.first { $0.name == "todos.jsonl" }?.sha == GitHash.blob(Array("top\n".utf8)))
        // Content that is not UTF-8 goes as a blob of its own, named as git names it.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x41]
        let binary = try client.createTree(repository: repository, base: tree, files: [GitTreeWrite(path: "raw.bin", content: bytes)]).sha
        let blob = try #require(try client.treeEntries(repository: repository, sha: binary).entries.first { $0.name == "raw.bin" })
        #expect(blob.sha == GitHash.blob(bytes) && blob.size == 4)
        #expect(try client.blob(repository: repository, sha: blob.sha) == bytes)
        let commit = try client.createCommit(repository: repository, message: "m", tree: binary, parents: [parent])
        try client.updateRef(repository: repository, branch: "master", commit: commit)
        #expect(github.contents.file(repository, "raw.bin")?.content == bytes)
    }

    @Test func aRefMovedMeanwhileIsNotAFastForward() throws {
        let github = try world()
        let client = try client(github)
        github.contents.setFile(repository, "start\n")
        let parent = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        let tree = try client.createTree(repository: repository, base: try client.rootTree(repository: repository, commit: parent).sha,
                                         files: [GitTreeWrite(path: "todos.jsonl", content: Array("mine\n".utf8))]).sha
        let commit = try client.createCommit(repository: repository, message: "mine", tree: tree, parents: [parent])
        github.contents.moveRefBeforeNextUpdate(repository, files: ["todos.jsonl": "theirs\n", "other.jsonl": "x\n"])
        do {
            try client.updateRef(repository: repository, branch: "master", commit: commit)
            Issue.record("a ref update over another writer's commit succeeded")
        } catch {
            #expect(GitHubClient.isNotFastForward(error), "\(error)")
            #expect(error == .validationFailed(message: "Update is not a fast forward"))
            #expect(!GitHubClient.isLostRace(error) && !GitHubClient.isEmptyRepository(error))
        }
        #expect(github.contents.files(repository) == ["todos.jsonl": "theirs\n", "other.jsonl": "x\n"])
        #expect(github.contents.writes == 0)
        #expect(!GitHubClient.isNotFastForward(.validationFailed(message: "Object does not exist")))

        // A change between the tree read and the commit: the same lost race.
        let again = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        github.contents.changeFilesAfterNextTreeRead(repository, files: ["other.jsonl": nil])
        let base = try client.rootTree(repository: repository, commit: again).sha
        #expect(github.contents.files(repository) == ["todos.jsonl": "theirs\n"], "changed just after the read")
        let next = try client.createCommit(repository: repository, message: "mine again", tree: try client.createTree(
            repository: repository, base: base, files: [GitTreeWrite(path: "todos.jsonl", content: Array("mine\n".utf8))]).sha,
                                           parents: [again])
        #expect(throws: GitHubError.validationFailed(message: "Update is not a fast forward")) {
            try client.updateRef(repository: repository, branch: "master", commit: next)
        }
        // On top of what the other writer did, it goes.
        let theirs = try #require(github.contents.head(repository))
        let merged = try client.createCommit(repository: repository, message: "merged", tree: try client.createTree(
            repository: repository, base: try client.rootTree(repository: repository, commit: theirs).sha,
            files: [GitTreeWrite(path: "todos.jsonl", content: Array("both\n".utf8))]).sha, parents: [theirs])
        try client.updateRef(repository: repository, branch: "master", commit: merged)
        #expect(github.contents.files(repository) == ["todos.jsonl": "both\n"])
        #expect(github.contents.writes == 1 && github.contents.messages == ["merged"])
    }

    @Test func aBaseTreeMustBeATreeAndATreeWithoutOneHoldsOnlyItsEntries() throws {
        let github = try world()
        let client = try client(github)
        github.contents.commitFiles(repository, ["keep.md": "mine\n", "todos.jsonl": "top\n"])
        let commit = try #require(github.contents.head(repository))
        // GitHub documents base_tree as a tree's sha: a commit's is refused here.
        #expect(throws: GitHubError.validationFailed(message: "base_tree is not a valid tree oid")) {
            _ = try client.createTree(repository: repository, base: commit,
                                      files: [GitTreeWrite(path: "todos.jsonl", content: Array("x\n".utf8))])
        }
        // Without a base, the tree holds only what was sent: what the exchange must never write
        // while the branch has a commit.
        let bare = try client.createTree(repository: repository, base: nil,
                                         files: [GitTreeWrite(path: "todos.jsonl", content: Array("x\n".utf8))])
        #expect(bare.entries.map(\.name) == ["todos.jsonl"])
        // A mode that does not fit its type is refused.
        do {
            _ = try client.send(.create, "/repos/\(repository)/git/trees", body: .object([JSONMember("tree", .array([.object([
                JSONMember("path", .string("x")), JSONMember("mode", .string("100755")), JSONMember("type", .string("tree")),
                JSONMember("sha", .string(bare.sha)),
            ])]))]), about: .repository(repository))
            Issue.record("a tree entry whose mode does not fit its type was taken")
        } catch {
            guard case .validationFailed = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func aRefUpdateWhoseAnswerIsLostIsRepeatedHarmlessly() throws {
        let github = try world()
        let client = try client(github)
        let parent = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        let tree = try client.createTree(repository: repository, base: nil, files: [GitTreeWrite(path: "a", content: [0x61])]).sha
        let commit = try client.createCommit(repository: repository, message: "m", tree: tree, parents: [parent])
        github.dropNextRefUpdate(repository)
        try client.updateRef(repository: repository, branch: "master", commit: commit)
        #expect(github.requests.filter { $0.method == "PATCH" }.count == 2, "the answer was lost, so it was sent again")
        #expect(github.contents.head(repository) == commit && github.contents.writes == 1)
    }

    /// Blobs, trees and commits are named by their content: one whose POST meets a 502 or a lost
    /// answer is made again, and the branch moves to a commit with the files asked.
    @Test(arguments: [FakeActivity.Fault.status(502), .dropAfterProcessing])
    func aBlobTreeOrCommitThatMeetsAFailureIsMadeAgain(fault: FakeActivity.Fault) throws {
        let github = try world()
        let client = try client(github)
        let parent = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        let objects = ["blobs", "trees", "commits"]
        for object in objects { github.activity.failNext("POST", pathSuffix: "/repos/\(repository)/git/\(object)", with: fault) }
        let binary: [UInt8] = [0xFF, 0xFE, 0x00]  // not UTF-8: sent as a blob of its own
        let tree = try client.createTree(repository: repository, base: nil, files: [
            GitTreeWrite(path: "todos.jsonl", content: Array("top\n".utf8)), GitTreeWrite(path: "raw.bin", content: binary),
        ]).sha
        let commit = try client.createCommit(repository: repository, message: "m", tree: tree, parents: [parent])
        try client.updateRef(repository: repository, branch: "master", commit: commit)

        #expect(github.activity.clearFaults() == 0, "every POST met its failure")
        for object in objects {
            #expect(github.requests.filter { $0.method == "POST" && $0.path.hasSuffix("/git/\(object)") }.count == 2,
                    "the \(object) POST was made again")
        }
        #expect(tree == GitHash.tree([("todos.jsonl", GitHash.blob(Array("top\n".utf8)), .file),
                                      ("raw.bin", GitHash.blob(binary), .file)]))
        #expect(github.contents.head(repository) == commit)
        #expect(github.contents.files(repository) == ["todos.jsonl": "top\n", "raw.bin": String(decoding: binary, as: UTF8.self)])
    }

    @Test func aRefUpdateStoppedBeforeGitHubLeavesTheBranch() throws {
        let github = try world()
        let client = try client(github)
        let parent = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        let tree = try client.createTree(repository: repository, base: nil, files: [GitTreeWrite(path: "a", content: [0x61])]).sha
        let commit = try client.createCommit(repository: repository, message: "m", tree: tree, parents: [parent])
        // libcurl itself sends a request again on a reused connection that closed: more than one per attempt.
        github.dropNextRefUpdate(repository, count: 100, with: .dropBeforeProcessing)
        do {
            try client.updateRef(repository: repository, branch: "master", commit: commit)
            Issue.record("the ref update went through")
        } catch {
            guard case .network = error else { Issue.record("\(error)"); return }
        }
        #expect(github.contents.head(repository) == parent && github.contents.writes == 0)
        github.activity.clearFaults()

        // Held on the wire: nothing is done while it is held, nor after.
        let hold = AnswerHold()
        github.dropNextRefUpdate(repository, with: .holdBeforeProcessing(hold))
        let apiURL = github.apiURL, token = github.token, repository = self.repository
        let outcome = Outcome()
        let thread = Thread {
            let client = GitHubClient(configuration: .init(endpoint: (try? APIEndpoint(apiURL)) ?? .github, token: token,
                                                           retry: RetryPolicy(maximumAttempts: 1),
                                                           timeouts: GitHubClientTests.patientTimeouts), transport: CurlTransport())
            outcome.finish(Result { () throws(GitHubError) in try client.updateRef(repository: repository, branch: "master", commit: commit) })
        }
        thread.start()
        #expect(hold.waitForArrival())
        #expect(github.contents.head(repository) == parent, "held before anything was done")
        hold.releaseAnswer()
        let result = try #require(outcome.wait(), "the held request never ended")
        #expect((try? result.get()) == nil, "the connection closed without an answer")
        #expect(github.contents.head(repository) == parent && github.contents.writes == 0)
    }
}

/// The result of a request made on another thread.
private final class Outcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Void, GitHubError>?

    func finish(_ result: Result<Void, GitHubError>) {
        self.result = result
        done.signal()
    }

    func wait() -> Result<Void, GitHubError>? {
        _ = done.wait(timeout: .now() + Patience.seconds)
        return result
    }
}
