@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A repository renamed on GitHub, read and written by its former name: GitHub redirects every
/// route under the name to the same route under the repository's id (301 for a GET, 307 for the
/// others), and the client follows, alone or in a window of parallel reads. Also the branch
/// listing in the form GitHub documents.
@Suite(.serialized)
struct RenamedRepositoryTests {
    let former = "octocat/doogit-data"
    let renamed = "octocat/todos-home"

    func world() throws -> FakeGitHub {
        let github = try FakeGitHub()
        github.addRepository(id: 900, name: "doogit-data", description: nil, isPrivate: true)
        github.contents.setDate(GitDataTests.t0)
        github.contents.commitFiles(former, ["todos.jsonl": "top\n", "todos/1.jsonl": "one\n", "todos/2.jsonl": "two\n"])
        return github
    }

    func client(_ github: FakeGitHub) throws -> GitHubClient { try GitDataTests().client(github) }

    /// The paths asked under the former name and under the id, in the order asked.
    func redirected(_ github: FakeGitHub) -> (former: Int, byID: Int) {
        (github.requests.filter { $0.path.hasPrefix("/repos/\(former)/") }.count,
         github.requests.filter { $0.path.hasPrefix("/repositories/900/") }.count)
    }

    @Test func aWindowOfReadsFollowsGitHubsRedirectsToTheRepositorysID() throws {
        let github = try world()
        let client = try client(github)
        let commit = try #require(github.contents.head(former))
        github.rename(900, to: "todos-home")
        github.resetCounters()

        // The commit and its tree together, then every folder and file at once: each a 301 first.
        let root = try client.rootTree(repository: former, commit: commit)
        #expect(root.entries.map(\.name) == ["todos.jsonl", "todos"])
        let folder = try #require(root.entries.first { $0.isTree })
        let folders = client.treeEntries(repository: former, shas: [folder.sha, root.sha])
        let listed = try folders[0].get().entries
        #expect(listed.map(\.name) == ["1.jsonl", "2.jsonl"])
        #expect(try folders[1].get() == root)
        var read: [Int: [UInt8]] = [:]
        client.blobs(repository: former, shas: listed.map(\.sha) + [root.entries[0].sha]) { index, result in
            read[index] = try? result.get()
        }
        #expect(read == [0: Array("one\n".utf8), 1: Array("two\n".utf8), 2: Array("top\n".utf8)])
        let answers = github.requests.filter { $0.path.hasPrefix("/repos/\(former)/") }
        #expect(answers.count == 7 && redirected(github).byID == 7, "each read once under the name, once under the id")
        #expect(github.requests.filter { $0.path.hasPrefix("/repositories/900/git/blobs/") }
            .allSatisfy { $0.headers["accept"] == GitHubClient.rawMediaType }, "the redirect is asked as the read was")
        #expect(client.requestCount == 14)
    }

    @Test func aConditionalReadInAWindowKeepsItsETagAcrossTheRedirect() throws {
        let github = try world()
        let client = try client(github)
        guard case .head(_, let etag?, _) = try client.branchRef(repository: former, branch: "master", ifNoneMatch: nil) else {
            Issue.record("no ref")
            return
        }
        guard case .modified(_, let repositoryETag) = try client.repository(id: 900, ifNoneMatch: nil) else {
            Issue.record("no repository")
            return
        }
        github.rename(900, to: "todos-home")
        github.resetCounters()
        let (ref, repository) = try client.branchRefAndRepository(repository: former, branch: "master", refETag: etag, id: 900,
                                                                  repositoryETag: repositoryETag)
        // The ref's answer names the repository anew (its ETag changed with it).
        #expect(GitDataTests().head(ref) == github.contents.head(renamed))
        // The repository's answer changed with its name: read whole, with its name now.
        guard case .success(.modified(let found, _)) = repository else {
            Issue.record("\(repository)")
            return
        }
        #expect(found.fullName == renamed)
        #expect(github.requests.map(\.path) == ["/repos/\(former)/git/ref/heads/master", "/repositories/900",
                                                "/repositories/900/git/ref/heads/master"]
            || github.requests.map(\.path) == ["/repositories/900", "/repos/\(former)/git/ref/heads/master",
                                               "/repositories/900/git/ref/heads/master"])
        #expect(github.requests.allSatisfy { $0.path == "/repositories/900" || $0.headers["if-none-match"] == etag })
    }

    /// An ETag of the repository recorded after its rename (by a doogit that did not take the
    /// name) answers 304: a ref read that was redirected says the name is stale, and the
    /// repository is read whole for its name.
    @Test func aRedirectedRefReadsTheRepositoryWholeForItsName() throws {
        let github = try world()
        let client = try client(github)
        github.rename(900, to: "todos-home")
        guard case .modified(_, let repositoryETag) = try client.repository(id: 900, ifNoneMatch: nil) else {
            Issue.record("no repository")
            return
        }
        github.resetCounters()
        let (ref, repository) = try client.branchRefAndRepository(repository: former, branch: "master", refETag: nil, id: 900,
                                                                  repositoryETag: repositoryETag)
        #expect(GitDataTests().head(ref) == github.contents.head(renamed))
        guard case .success(.modified(let found, _)) = repository else {
            Issue.record("\(repository)")
            return
        }
        #expect(found.fullName == renamed)
        #expect(github.requests.filter { $0.path == "/repositories/900" }.map { $0.headers["if-none-match"] }
            == [repositoryETag, nil])

        // Under its name now, nothing is redirected and the 304 stands.
        github.resetCounters()
        let (_, again) = try client.branchRefAndRepository(repository: renamed, branch: "master", refETag: nil, id: 900,
                                                           repositoryETag: repositoryETag)
        #expect(again == .success(.notModified))
        #expect(github.requests.count == 2)
    }

    @Test func writesFollowTheTemporaryRedirectAsTheyWere() throws {
        let github = try world()
        let client = try client(github)
        let commit = try #require(github.contents.head(former))
        let root = try client.rootTree(repository: former, commit: commit)
        github.rename(900, to: "todos-home")
        github.resetCounters()
        let tree = try client.createTree(repository: former, base: root.sha,
                                         files: [GitTreeWrite(path: "todos/3.jsonl", content: Array("three\n".utf8))])
        let made = try client.createCommit(repository: former, message: "three", tree: tree.sha, parents: [commit])
        try client.updateRef(repository: former, branch: "master", commit: made)
        #expect(github.contents.head(renamed) == made)
        #expect(github.contents.files(renamed)["todos/3.jsonl"] == "three\n")
        let redirects = github.requests.filter { $0.path.hasPrefix("/repos/\(former)/") }
        #expect(redirects.map(\.method) == ["POST", "POST", "PATCH"])
        #expect(github.requests.filter { $0.path.hasPrefix("/repositories/900/") }.map(\.body) == redirects.map(\.body),
                "each sent again as it was")
    }

    /// The rule, over random histories of renames, transfers and deletions: each request of a
    /// window (by a current name, a former one, or an id) answers what it answers alone.
    @Test(arguments: [UInt64(1), 2, 3, 0xD00_6172])
    func aWindowAnswersWhatEachRequestAnswersAlone(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let github = try FakeGitHub()
        var current: [Int64: (owner: String, name: String)] = [:]
        for id in Int64(1)...24 {
            github.addRepository(id: id, name: "repo-\(id)")
            current[id] = ("octocat", "repo-\(id)")
        }
        var names = Set(current.values.map { "\($0.owner)/\($0.name)" })
        for step in 0..<30 {
            let id = Int64.random(in: 1...24, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                let owner = ["acme", "octo-org", "octocat"].randomElement(using: &random) ?? "acme"
                github.transfer(id, to: owner)
                current[id]?.owner = owner
            case 1:
                github.delete(id)
            default:
                github.rename(id, to: "renamed-\(step)")
                current[id]?.name = "renamed-\(step)"
            }
            names.formUnion(current.values.map { "\($0.owner)/\($0.name)" })
        }
        let client = try client(github)
        let keys = names.sorted().shuffled(using: &random).map { name -> GitHubClient.RepositoryKey in
            let parts = name.split(separator: "/").map(String.init)
            return .name(owner: parts[0], name: parts[1])
        } + (Int64(1)...26).map { .id($0) }
        let together = client.repositoriesWithETags(keys).map { $0.map(\.repository) }
        for (key, answer) in zip(keys, together) {
            let alone = Result { () throws(GitHubError) -> GitHubRepository in
                switch key {
                case .name(let owner, let name): try client.repository(owner: owner, name: name)
                case .id(let id): try client.repository(id: id)
                }
            }
            #expect(answer == alone, "seed \(seed): \(key)")
        }
    }

    @Test func theBranchesAreListedInTheDocumentedForm() throws {
        let github = try world()
        let client = try client(github)
        github.contents.createBranch(former, "doogit")
        github.resetCounters()
        #expect(try client.branchNames(repository: former).sorted() == ["doogit", "master"])
        #expect(github.requests.map(\.path) == ["/repos/\(former)/git/matching-refs/heads"])
        // The form GitHub does not document is no route the fake GitHub claims to serve.
        #expect(throws: GitHubError.self) { try client.get("/repos/\(former)/git/matching-refs/heads/") }
        #expect(try client.get("/repos/\(former)/git/matching-refs/heads/doo").status == 200)
    }
}
