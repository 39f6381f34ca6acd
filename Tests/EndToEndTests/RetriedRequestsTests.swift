import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A GitHub that stumbles costs nothing that trying again can save: the remote's git objects are
/// made again after a 502 or a lost answer. A creation is still never repeated.
@Suite(.serialized)
struct RetriedRequestsTests {
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
}
