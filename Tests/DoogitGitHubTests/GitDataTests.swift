@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The Git Data API read against the fake GitHub: a branch's ref read conditionally, trees and
/// blobs, modes, an empty repository, a missing branch, and reads that lag a write.
@Suite(.serialized)
struct GitDataTests: GitDataSuite {
    @Test func aRefIsReadThenNotModifiedForItsETagFreeOfRateLimit() throws {
        let github = try world()
        let client = try client(github)
        github.contents.setFile(repository, "one\n")
        let read = try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)
        guard case .head(let commit, let etag?, let date) = read else {
            Issue.record("\(read)")
            return
        }
        #expect(commit == github.contents.head(repository))
        #expect(date == Timestamp(secondsSinceEpoch: 1_700_000_000), "GitHub's Date header")
        #expect(github.requests.last?.path == "/repos/\(repository)/git/ref/heads/master")

        github.resetCounters()
        #expect(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: etag)
            == .notModified(date: Timestamp(secondsSinceEpoch: 1_700_000_000)))
        #expect(github.rateLimitUsed == 0, "a 304 costs nothing")

        github.contents.setFile(repository, "two\n")
        let moved = try client.branchRef(repository: repository, branch: "master", ifNoneMatch: etag)
        #expect(head(moved) == github.contents.head(repository) && head(moved) != commit, "a moved ref is no longer the ETag's")
        #expect(github.rateLimitUsed == 1)
    }

    @Test func aTreeIsListedOneLevelAndABlobReadRaw() throws {
        let github = try world()
        let client = try client(github)
        github.contents.commitFiles(repository, ["todos.jsonl": "top\n", "todos/3/1.jsonl": "deep\n", "README.md": "# data\n"])
        let commit = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        let byCommit = try client.treeEntries(repository: repository, sha: commit)
        let entries = byCommit.entries
        #expect(byCommit.sha == commit, "asked by a commit, GitHub answers the commit's sha, not the tree's")
        #expect(entries.map(\.name) == ["README.md", "todos.jsonl", "todos"], "git's order: a tree sorts as if it ended in /")
        let top = try #require(entries.first { $0.name == "todos.jsonl" })
        #expect(top == GitTreeEntry(name: "todos.jsonl", sha: GitHash.blob(Array("top\n".utf8)), mode: .file, size: 4))
        let todos = try #require(entries.first { $0.name == "todos" })
        #expect(todos.isTree && todos.mode == .tree && todos.size == nil)
        // The root's own name comes from the commit.
        let root = try client.rootTree(repository: repository, commit: commit)
        #expect(root.entries == entries && root.sha != commit)
        #expect(root.sha == GitHash.tree(entries.map { ($0.name, $0.sha, $0.mode) }))
        #expect(try client.treeEntries(repository: repository, sha: root.sha) == root, "a tree's sha lists the same, under its name")
        #expect(try client.treeEntries(repository: repository, sha: "master") == byCommit, "a branch's name is a tree-ish too")
        let three = try #require(try client.treeEntries(repository: repository, sha: todos.sha).entries.first)
        #expect(three.name == "3" && three.isTree)
        let deep = try #require(try client.treeEntries(repository: repository, sha: three.sha).entries.first)
        #expect(try client.blob(repository: repository, sha: deep.sha) == Array("deep\n".utf8))
        let raw = try #require(github.requests.last)
        #expect(raw.path == "/repos/\(repository)/git/blobs/\(deep.sha)" && raw.headers["accept"] == GitHubClient.rawMediaType)
        #expect(github.bytesSent(where: { $0.path == raw.path }) == 5, "the blob's bytes, as they are")
        // Without the raw media type, JSON with the content in base64; recursively, every path.
        let json = try JSONParser.parse(try client.get("/repos/\(repository)/git/blobs/\(deep.sha)").body)
        #expect(json["encoding"] == .string("base64") && json["size"] == .int(5))
        #expect(try Base64.decode(json.string("content").split(separator: "\n").joined()) == Array("deep\n".utf8))
        let all = try JSONParser.parse(try client.get("/repos/\(repository)/git/trees/\(commit)?recursive=1").body)
        #expect(try all.array("tree").map { try $0.string("path") }
            == ["README.md", "todos.jsonl", "todos", "todos/3", "todos/3/1.jsonl"])
    }

    @Test func anEmptyRepositoryAnswersEveryGitDataCallWith409UntilItsFirstPut() throws {
        let github = try world()
        let client = try client(github)
        github.contents.makeEmptyRepository(repository)
        #expect(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)
            == .empty(date: Timestamp(secondsSinceEpoch: 1_700_000_000)))
        #expect(github.contents.commits(repository) == 0)
        func expectEmpty(_ call: () throws(GitHubError) -> Void) {
            do {
                try call()
                Issue.record("a Git Data call on an empty repository succeeded")
            } catch {
                #expect(GitHubClient.isEmptyRepository(error), "\(error)")
            }
        }
        let emptyTree = GitHash.tree([]) ?? ""
        expectEmpty { () throws(GitHubError) in _ = try client.treeEntries(repository: repository, sha: emptyTree) }
        expectEmpty { () throws(GitHubError) in _ = try client.createTree(repository: repository, base: nil, files: []) }
        expectEmpty { () throws(GitHubError) in _ = try client.blob(repository: repository, sha: emptyTree) }
        expectEmpty { () throws(GitHubError) in try client.updateRef(repository: repository, branch: "master", commit: emptyTree) }
        #expect(!GitHubClient.isEmptyRepository(.conflict(message: "todos.jsonl does not match 123")))
        let sha = try client.writeFile(repository: repository, path: "todos.jsonl", branch: "master", content: Array("one\n".utf8),
                                       sha: nil, message: "first")
        #expect(github.contents.commits(repository) == 1)
        let first = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        #expect(try client.treeEntries(repository: repository, sha: first).entries
            == [GitTreeEntry(name: "todos.jsonl", sha: sha, mode: .file, size: 4)])
    }

    @Test func aMissingBranchIsMissing() throws {
        let github = try world()
        let client = try client(github)
        #expect(try client.branchRef(repository: repository, branch: "feature/x y", ifNoneMatch: nil)
            == .missing(date: Timestamp(secondsSinceEpoch: 1_700_000_000)))
        #expect(github.requests.last?.path == "/repos/\(repository)/git/ref/heads/feature/x%20y", "slashes kept, the rest encoded")
        // A branch deleted on GitHub has no ref either.
        github.pushCommits(repository: 900, branch: "main", messages: ["Start afresh"])
        github.activity.deleteBranch(repository: 900, branch: "master")
        #expect(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)
            == .missing(date: Timestamp(secondsSinceEpoch: 1_700_000_000)))
    }

    @Test func aNewRepositoryWithAReadmeHasARealFirstCommit() throws {
        let github = try FakeGitHub()
        let client = try client(github)
        _ = try client.createPrivateRepository(owner: nil, name: "doogit-data", description: "todos")
        let commit = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        #expect(github.contents.commits(repository) == 1)
        #expect(try client.treeEntries(repository: repository, sha: commit).entries
            == [GitTreeEntry(name: "README.md", sha: GitHash.blob(Array("# doogit-data\n".utf8)), mode: .file, size: 14)])
        let json = try JSONParser.parse(try client.get("/repos/\(repository)/git/commits/\(commit)").body)
        #expect(json["sha"] == .string(commit) && json["parents"] == .array([]) && json["message"] == .string("Initial commit"))
    }

    @Test func modesAreListedAndKeptAsGitHubDoes() throws {
        let github = try world()
        let client = try client(github)
        let submodule = String(repeating: "5a", count: 20)
        github.contents.commitEntries(repository, [
            "setup.sh": .text("#!/bin/sh\n", mode: .executable), "latest": .text("notes/a.md", mode: .symlink),
            "vendor/lib": .submodule(commit: submodule), "notes/a.md": .text("# a\n"), "todos.jsonl": .text("top\n"),
        ])
        let commit = try #require(github.contents.head(repository))
        let root = try client.rootTree(repository: repository, commit: commit)
        let modes = Dictionary(uniqueKeysWithValues: root.entries.map { ($0.name, $0.mode) })
        #expect(modes == ["setup.sh": .executable, "latest": .symlink, "vendor": .tree, "notes": .tree, "todos.jsonl": .file])
        #expect(root.sha == GitHash.tree(root.entries.map { ($0.name, $0.sha, $0.mode) }), "named with the modes listed")
        let plain = GitHash.tree(root.entries.map { ($0.name, $0.sha, $0.mode.isTree ? GitMode.tree : .file) })
        #expect(root.sha != plain, "and not as if every file were 100644")
        let vendor = try #require(root.entries.first { $0.name == "vendor" })
        let lib = try client.treeEntries(repository: repository, sha: vendor.sha).entries
        #expect(lib == [GitTreeEntry(name: "lib", sha: submodule, mode: .submodule)], "a submodule: a commit, no size")
        let all = try client.treeEntriesRecursively(repository: repository, sha: root.sha)
        #expect(all["vendor/lib"]?.mode == .submodule && all["notes/a.md"]?.mode == .file && all["setup.sh"]?.mode == .executable)

        // A write on that base keeps them all; a file is written with the mode given.
        let made = try client.createTree(repository: repository, base: root.sha, files: [
            GitTreeWrite(path: "todos.jsonl", content: Array("new\n".utf8)),
            GitTreeWrite(path: "run.sh", content: Array("echo\n".utf8), mode: .executable),
        ])
        let after = try client.treeEntriesRecursively(repository: repository, sha: made.sha)
        #expect(after["vendor/lib"]?.sha == submodule && after["latest"]?.mode == .symlink && after["setup.sh"]?.mode == .executable)
        #expect(after["run.sh"]?.mode == .executable && after["todos.jsonl"]?.sha == GitHash.blob(Array("new\n".utf8)))
        #expect(made.sha == GitHash.tree(made.entries.map { ($0.name, $0.sha, $0.mode) }))
    }

    @Test func readsCanLagAWriteAsGitHubsReplicasDo() throws {
        let github = try world()
        let client = try client(github)
        github.contents.lagReadsOfNextWrite(repository, count: 2)
        github.contents.commitFiles(repository, ["todos.jsonl": "new\n"])
        let commit = try #require(head(try client.branchRef(repository: repository, branch: "master", ifNoneMatch: nil)))
        #expect(commit == github.contents.head(repository), "the ref names the new commit at once")
        for _ in 0..<2 {
            do {
                _ = try client.treeEntries(repository: repository, sha: commit)
                Issue.record("a lagging read found the commit")
            } catch {
                #expect(error == .notFound(.gitObject(repository: repository, sha: commit), message: "Not Found"))
            }
        }
        #expect(try client.treeEntries(repository: repository, sha: commit).entries.map(\.name) == ["todos.jsonl"],
                "then it has caught up")
    }

    @Test func aNewBranchIsMadeAtACommitOnceAndNotAtAnUnknownOne() throws {
        let github = try world()
        let client = try client(github)
        github.contents.setFile(repository, "one\n")
        let head = try #require(github.contents.head(repository))
        let path = "/repos/\(repository)/git/refs"
        func body(_ ref: String, _ sha: String) -> JSONValue {
            .object([JSONMember("ref", .string(ref)), JSONMember("sha", .string(sha))])
        }
        let made = try CurlTransport().send(HTTPRequest(method: "POST", url: github.apiURL + path,
                                                        headers: [(name: "Authorization", value: "Bearer \(github.token)")],
                                                        body: Array(JSONWriter.write(body("refs/heads/doogit-todos", head)).utf8)))
        #expect(made.status == 201)
        #expect(made.header("location") == "\(github.apiURL)\(path)/heads/doogit-todos")
        let json = try JSONParser.parse(made.body)
        func keys(_ value: JSONValue) -> [String] { if case .object(let members) = value { members.map(\.key) } else { [] } }
        #expect(keys(json) == keys(Fixtures.json("git-ref.json")), "git-ref.json's shape")
        #expect(json["ref"] == .string("refs/heads/doogit-todos") && json["object"]?["sha"] == .string(head))
        #expect(github.contents.head(repository, branch: "doogit-todos") == head)
        #expect(try client.branchNames(repository: repository) == ["doogit-todos", "master"])

        #expect(throws: GitHubError.validationFailed(message: "Reference already exists")) {
            try client.post(path, body("refs/heads/doogit-todos", head), about: .repository(repository))
        }
        #expect(throws: GitHubError.validationFailed(message: "Object does not exist")) {
            try client.post(path, body("refs/heads/other", String(repeating: "1", count: 40)), about: .repository(repository))
        }
        #expect(github.contents.head(repository, branch: "other") == nil)
        // A branch deleted on GitHub can be made again.
        github.activity.deleteBranch(repository: 900, branch: "doogit-todos")
        #expect(try client.branchNames(repository: repository) == ["master"])
        _ = try client.post(path, body("refs/heads/doogit-todos", head), about: .repository(repository))
        #expect(try client.branchNames(repository: repository) == ["doogit-todos", "master"])
    }
}
