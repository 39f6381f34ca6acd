import DoogitSupport
import Foundation
import Testing
import TestSupport

/// What one machine saw on GitHub never undoes what the user did on another: a trailer finishes
/// its todo once (whatever cursors, rescans and force-pushes follow), an unlink stands, and an
/// issue closed before a reopen does not finish the todo again.
@Suite(.serialized)
struct ObservationsTogetherTests {
    /// GitHub's clock, a little ahead of the machines' (within what doogit tolerates): what
    /// happens there comes after what the machines did before it.
    func githubNow(_ machines: Machines, plus seconds: Int64 = 2) {
        machines.github.activity.setClock(Int64(Date().timeIntervalSince1970) + seconds)
    }

    func trailer(_ uuid: String) -> String { "Doogit-Done: " + String(uuid.filter { $0 != "-" }.prefix(8)) }

    func patches(_ machines: Machines) -> [String] {
        machines.github.requests.filter { $0.method == "PATCH" && $0.path.contains("/issues/") }.map { String(decoding: $0.body, as: UTF8.self) }
    }

    /// A trailer finishes its todo once. Reopened afterwards, it stays open when another machine,
    /// whose last read of the branch is older, reads the same commit, and after a force-push that
    /// keeps the commit; with pushing on, its issue is closed once and reopened once.
    @Test func aTrailerFinishesItsTodoOnceWhateverReadsItAgain() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("repo", "set", "app", "--push-issues", "on").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        #expect(a.run("todo", "promote", "1").status == 0)
        machines.syncAll([0, 1])  // both remember the branch's head
        let uuid = try machines.uuid("ship it", on: a)

        githubNow(machines)
        let commit = machines.github.pushCommits(repository: 1, messages: ["Ship it\n\n\(trailer(uuid))"])[0]
        let finished = a.run("sync")
        #expect(finished.status == 0)
        #expect(finished.stdout.contains("octocat/app: todo 1 marked done by commit \(commit.prefix(7))"), "\(finished.stdout)")
        #expect(machines.github.activity.issue(repository: 1, number: 1)?.state == "closed")
        #expect(a.run("todo", "undo", "1").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(machines.github.activity.issue(repository: 1, number: 1)?.state == "open")

        // b read the branch before the commit: it reads it now, and leaves the todo as a left it.
        let other = b.run("sync")
        #expect(other.status == 0 && !other.stdout.contains("marked done"), "\(other.stdout)")
        // A force-push that keeps the commit: read again from the new head, and left alone.
        githubNow(machines, plus: 4)
        machines.github.pushCommits(repository: 1, messages: ["wip"])
        machines.syncAll([0, 1])
        machines.github.forcePushCommits(repository: 1, dropping: 1, messages: ["rewritten"])
        machines.syncAll([0, 1, 0, 1])
        for machine in [a, b] { #expect(try machines.list(machine) == ["octocat/app: ship it #1"]) }
        #expect(machines.github.activity.issue(repository: 1, number: 1)?.state == "open")
        let states = patches(machines).map { $0.contains("closed") ? "close" : "reopen" }
        #expect(states == ["close", "reopen"], "closed once, reopened once: \(states)")
    }

    /// An unlink made on one machine stands when another machine, still linked, sees the issue
    /// change before the unlink reaches it.
    @Test func anUnlinkStandsWhenAnotherMachineSeesTheIssueChange() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        #expect(a.run("todo", "promote", "1").status == 0)
        machines.syncAll([0, 1])
        #expect(try machines.list(b) == ["octocat/app: ship it #1"])
        #expect(a.run("todo", "unlink", "1").status == 0)
        githubNow(machines)
        machines.github.activity.close(repository: 1, number: 1)
        let seen = b.run("sync")
        #expect(seen.stdout.contains("octocat/app#1: closed on GitHub; todo 1 marked done"), "\(seen.stdout)")
        machines.syncAll([0, 1, 0])
        for machine in [a, b] {
            #expect(try machines.list(machine) == ["octocat/app: ship it [done]"], "unlinked everywhere")
        }
        machines.github.activity.reopen(repository: 1, number: 1)
        machines.syncAll([1, 0])
        #expect(try machines.list(a) == ["octocat/app: ship it [done]"], "an issue no longer linked changes nothing")
    }

    /// An issue closed on GitHub, then the todo reopened: a machine that reads the issue only
    /// afterwards (its exchange failed, so it has not heard of the reopen) does not undo it.
    @Test func anIssueClosedBeforeAReopenDoesNotFinishTheTodoAgain() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        #expect(a.run("todo", "promote", "1").status == 0)
        machines.syncAll([0, 1])
        githubNow(machines)
        machines.github.activity.close(repository: 1, number: 1)
        #expect(a.run("sync").status == 0)
        #expect(a.run("todo", "undo", "1").status == 0)
        #expect(a.run("sync").status == 0)
        // b's exchange fails this once: its issue phase reads the close without having heard of the reopen.
        let failed = Counter()
        machines.github.script { request in
            guard request.path.hasPrefix("/repos/\(Machines.data)/git/"), failed.next() <= 2 else { return nil }
            return .json(403, #"{"message":"Resource not accessible by personal access token","documentation_url":"https://docs.github.com/rest"}"#)
        }
        let blind = b.run("sync")
        #expect(blind.status == 1 && blind.stderr.contains("GitHub refused the exchange with \(Machines.data)"), "\(blind.stderr)")
        machines.github.script(nil)
        machines.syncAll([1, 0, 1])
        for machine in [a, b] { #expect(try machines.list(machine) == ["octocat/app: ship it #1"], "the later reopen stands") }
    }
}
