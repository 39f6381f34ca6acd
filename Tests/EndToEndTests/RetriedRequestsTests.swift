import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A GitHub that stumbles costs nothing that trying again can save: the remote's git objects are
/// made again after a 502 or a lost answer, and a request alone in its window gets every attempt a
/// request alone gets. A creation is still never repeated, and a GitHub that is down still sees a
/// handful of requests.
@Suite(.serialized)
struct RetriedRequestsTests {
    static let serverError = ServerResponse.json(502, #"{"message":"Server Error"}"#)

    /// The tree's POST meets a 502 and the commit's loses its answer: both are made again, the
    /// sync goes through, and the branch holds the files, which another machine reads.
    @Test func aWriteWhoseTreeOrCommitMeetsAFailureIsMadeAgain() throws {
        let machines = try Machines(2)
        let (a, b, github) = (machines[0], machines[1], machines.github)
        machines.syncAll([0, 1, 0])  // the repositories each machine tracks reach the other
        #expect(a.run("todo", "add", "-R", "app", "write the release notes").status == 0)
        github.activity.failNext("POST", pathSuffix: "/repos/\(Machines.data)/git/trees", with: .status(502))
        github.activity.failNext("POST", pathSuffix: "/repos/\(Machines.data)/git/commits", with: .dropAfterProcessing)
        github.resetCounters()

        let sent = a.run("sync")
        #expect(sent.status == 0 && sent.stderr.isEmpty, "\(sent.status) \(sent.stderr)")
        #expect(sent.stdout == "\(Machines.data): sent 1 change\n")
        #expect(github.activity.clearFaults() == 0, "both POSTs met their failure")
        for object in ["trees", "commits"] {
            let posts = github.requests.filter { $0.method == "POST" && $0.path == "/repos/\(Machines.data)/git/\(object)" }
            #expect(posts.count == 2, "the \(object) POST was made again")
            #expect(Set(posts.map(\.body)).count == 1, "the same \(object), twice")
        }
        let files = github.contents.files(Machines.data)
        #expect(Set(files.keys) == ["README.md", "todos.jsonl", "remote.jsonl", "repositories.jsonl", "todos/1/1.jsonl"])
        #expect(files["todos/1/1.jsonl"]?.contains(#""text":"write the release notes""#) == true)
        #expect(a.run("remote", "status").stdout.contains("Waiting: nothing"))

        let received = b.run("sync")
        #expect(received.status == 0 && received.stdout == "\(Machines.data): received 1 change\n", "\(received.stderr)")
        #expect(try machines.list(b) == machines.list(a))
    }

    /// Creating an issue is not repeated once it may have reached GitHub: a 502 on its POST is
    /// one issue at most, and the message says to check.
    @Test func anIssueCreationThatMeetsA502IsNotRepeated() throws {
        let machines = try Machines(1, remote: false)
        let (a, github) = (machines[0], machines.github)
        #expect(a.run("todo", "add", "-R", "app", "write the docs").status == 0)
        github.activity.failNext("POST", pathSuffix: "/repos/octocat/app/issues", with: .status(502))
        let promoted = a.run("todo", "promote", "1")
        #expect(promoted.status != 0 && promoted.stderrLines.count == 1, "\(promoted.status) \(promoted.stderr)")
        #expect(promoted.stderr.contains("may have reached GitHub"), "\(promoted.stderr)")
        #expect(github.requests.filter { $0.method == "POST" }.count == 1)
    }

    /// `repo add` of one repository is a window of one request: two 502s, then the answer, and
    /// the repository is tracked. Against a GitHub that is down it asks a handful of times.
    @Test func addingARepositoryThatMeetsTwo502sTracksIt() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 100, name: "app", description: "the app")
        let failures = Counter()
        sandbox.github.script { request in
            request.path == "/repos/octocat/app" && failures.next() <= 2 ? Self.serverError : nil
        }
        let added = sandbox.run("repo", "add", "octocat/app")
        #expect(added.status == 0, "\(added.status) \(added.stderr)")
        #expect(sandbox.github.requests.filter { $0.path == "/repos/octocat/app" }.count == 3)
        #expect(sandbox.run("repo", "list").stdout.contains("octocat/app"))

        sandbox.github.addRepository(id: 101, name: "site", description: nil)
        sandbox.github.resetCounters()
        sandbox.github.script { _ in Self.serverError }
        let before = try sandbox.snapshot()
        let down = sandbox.run("repo", "add", "octocat/site")
        #expect(down.status == 75 && down.stderrLines.count == 1, "\(down.status) \(down.stderr)")
        #expect(down.stderr.contains("HTTP 502"), "\(down.stderr)")
        #expect(sandbox.github.requests.count <= 3, "a request's attempts: \(sandbox.github.requests.count) requests")
        #expect(try sandbox.snapshot() == before)
    }

    /// With the listing answered for a dozen repositories of the user's own, another's
    /// repository is read by id in a window of its own: its two 502s cost it nothing, and its
    /// change is taken.
    @Test func aRepositoryThatMeetsTwo502sInASyncIsUpdated() throws {
        let sandbox = try Sandbox()
        var references: [String] = []
        for id in 0..<12 {
            sandbox.github.addRepository(id: Int64(100 + id), name: "own-\(id)", description: nil)
            references.append("octocat/own-\(id)")
        }
        sandbox.github.addRepository(id: 1000, owner: "other", name: "lib", description: "v1")
        #expect(sandbox.run(["repo", "add"] + references + ["other/lib"]).status == 0)
        sandbox.github.update(1000) { $0.description = "v2" }
        sandbox.github.resetCounters()
        let failures = Counter()
        sandbox.github.script { request in
            request.path == "/repositories/1000" && failures.next() <= 2 ? Self.serverError : nil
        }
        let synced = sandbox.run("sync")
        #expect(synced.status == 0 && synced.stderr.isEmpty, "\(synced.status) \(synced.stderr)")
        #expect(synced.stdout == "other/lib: description changed to \"v2\"\n")
        #expect(sandbox.github.requests.filter { $0.path == "/repositories/1000" }.count == 3)
        #expect(sandbox.github.requests.contains { $0.path == "/user/repos" }, "the others came from the listing")
    }
}
