import DoogitSupport
import Foundation
import Testing
import TestSupport

/// One issue per creation, whoever else is running: a sync meeting a promote half-way, a
/// creation whose answer was lost and that another machine imported, a todo promoted on two
/// machines before they synced, two promotes at the very same moment.
@Suite(.serialized)
struct CreationsTogetherTests {
    /// A `todo promote` whose POST is still on the wire (GitHub has not made the issue yet, or has
    /// and its answer is on its way) when cron's sync runs: the sync leaves that creation alone,
    /// both exit 0, and there is one issue, linked.
    @Test(arguments: [false, true])
    func aSyncMeetingAPromoteHalfWayMakesNoSecondIssue(madeAlready: Bool) throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        #expect(machine.run("todo", "add", "-R", "app", "ship it").status == 0)
        let (arrived, release) = madeAlready ? (Event(), Event()) : machines.holdFirstPost { $0.hasSuffix("/issues") }
        let hold = AnswerHold()
        if madeAlready { machines.github.activity.failNext("POST", pathSuffix: "/issues", with: .holdAfterProcessing(hold)) }
        defer { release.signal(); hold.releaseAnswer() }
        let promote = try ChildProcess.spawn(DoogitBinary.path, ["todo", "promote", "1"], environment: machine.environment)
        try #require(madeAlready ? hold.waitForArrival(seconds: 60) : arrived.wait(seconds: 60), "the POST never arrived")
        let sync = machine.run("sync")
        #expect(sync.status == 0 && sync.stderr.isEmpty, "\(sync.stderr)")
        release.signal()
        hold.releaseAnswer()
        let promoted = promote.finish()
        #expect(promoted.status == 0, "\(promoted.stderr)")
        #expect(promoted.stdout.hasPrefix("Created octocat/app#1 for todo 1"))
        #expect(machines.github.activity.issues(repository: 1).count == 1 && machines.issuePosts == 1)
        let after = machine.run("sync")
        #expect(after.status == 0 && after.stdout.isEmpty)
        #expect(try machines.list(machine) == ["octocat/app: ship it #1"])
        #expect(machines.issuePosts == 1, "never posted again")
    }

    /// GitHub made the issue but the promote never heard (its answer was lost); another machine
    /// imports every issue, and meets that issue first. It belongs to the todo its marker names:
    /// one todo (the same UUID) linked to it on every machine, and every later sync exits 0.
    @Test(arguments: [true, false])
    func aLostCreationImportedElsewhereEndsAsOneTodoLinkedEverywhere(otherHasTheTodo: Bool) throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(b.run("repo", "set", "app", "--import-issues", "all").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        if otherHasTheTodo { machines.syncAll([0, 1]) } else { machines.syncAll([1]) }
        machines.github.activity.failNext("POST", pathSuffix: "/issues", with: .dropAfterProcessing)
        let lost = a.run("todo", "promote", "1")
        #expect(lost.status == 75 && lost.stderr.contains("may have reached GitHub"), "\(lost.status) \(lost.stdout) \(lost.stderr)")
        let uuid = try machines.uuid("ship it", on: a)

        let imported = b.run("sync")
        #expect(imported.status == 0, "\(imported.stderr)")
        for _ in 0..<2 { machines.syncAll([0, 1]) }
        for machine in [a, b] {
            let todos = try machines.todos(machine)
            #expect(todos.count == 1 && (try? todos[0].string("uuid")) == uuid, "\(todos)")
            #expect(try machines.list(machine) == ["octocat/app: ship it #1"])
        }
        #expect(machines.github.activity.issues(repository: 1).count == 1 && machines.issuePosts == 1)
        #expect(a.run("todo", "promote", "1").stderr.contains("is linked to issue #1 already"))
    }

    /// Promoted on one machine, then on another before they synced: the second finds the issue
    /// the first made (its marker) and links it, posting nothing.
    @Test func aTodoPromotedOnTwoMachinesBeforeTheySyncedHasOneIssue() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        machines.syncAll([0, 1])
        #expect(a.run("todo", "promote", "1").stdout.hasPrefix("Created octocat/app#1 for todo 1"))
        let second = b.run("todo", "promote", try machines.id("ship it", on: b))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("Linked octocat/app#1 to todo 1 (it was made for it earlier, here or on another machine)"))
        machines.syncAll([0, 1, 0])
        #expect(try machines.list(a) == ["octocat/app: ship it #1"] && machines.list(b) == machines.list(a))
        #expect(machines.github.activity.issues(repository: 1).count == 1 && machines.issuePosts == 1)
    }

    /// Promoted on two machines at the very same moment (each POST made before either could see
    /// the other's issue): the next syncs keep the first issue linked on both, and close the other
    /// as a duplicate with pushing on, or say it is one with pushing off. Also when the two issues
    /// are made in two seconds of GitHub's (`apart`): the machine whose issue came second still
    /// lists the first (its listing starts before its own issue, by as long as it took to make).
    @Test(arguments: [true, false], [false, true])
    func twoIssuesMadeAtOnceForOneTodoSettleOnTheFirst(push: Bool, apart: Bool) throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        if push { #expect(a.run("repo", "set", "app", "--push-issues", "on").status == 0) }
        machines.syncAll([0, 1])
        // a's POST waits until b has promoted too: each made its own issue.
        let (arrived, release) = machines.holdFirstPost { $0.hasSuffix("/issues") }
        defer { release.signal() }
        let second = Int64(Date().timeIntervalSince1970)
        if apart { machines.github.activity.setClock(second) }
        let promote = try ChildProcess.spawn(DoogitBinary.path, ["todo", "promote", "1"], environment: a.environment)
        try #require(arrived.wait(seconds: 60))
        #expect(b.run("todo", "promote", try machines.id("ship it", on: b)).stdout.hasPrefix("Created octocat/app#1"))
        if apart { machines.github.activity.setClock(second + 1) }
        release.signal()
        #expect(promote.finish().stdout.hasPrefix("Created octocat/app#2"))
        machines.github.activity.setClock(nil)

        let settled = a.run("sync")
        #expect(settled.status == 0, "\(settled.stderr)")
        #expect(settled.stdout.contains(push
            ? "octocat/app#2: made for todo 1 twice; closed as a duplicate; todo 1 linked to #1 instead, the first made"
            : "octocat/app#2: made for todo 1 twice; a duplicate to close on GitHub (pushing is off); todo 1 linked to #1 instead, the first made"),
            "\(settled.stdout)")
        machines.syncAll([1, 0, 1])
        #expect(try machines.list(a) == ["octocat/app: ship it #1"] && machines.list(b) == machines.list(a))
        let issues = machines.github.activity.issues(repository: 1)
        #expect(issues.map(\.state) == ["open", push ? "closed" : "open"])
        if push { #expect(issues[1].stateReason == "duplicate") }
        #expect(machines.issuePosts == 2)
    }

    /// A todo's own issue unlinked, and another linked instead by hand: the issue made for it
    /// stays open, as the user left it; it is no duplicate of the one they chose.
    @Test func anIssueOfTheTodosOwnThatTheUserUnlinkedIsNoDuplicate() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        #expect(machine.run("repo", "set", "app", "--push-issues", "on").status == 0)
        #expect(machine.run("todo", "add", "-R", "app", "ship it").status == 0)
        #expect(machine.run("todo", "promote", "1").stdout.hasPrefix("Created octocat/app#1 for todo 1"))
        let chosen = machines.github.activity.addIssue(repository: 1, title: "Ship the release")
        #expect(machine.run("todo", "unlink", "1").status == 0)
        #expect(machine.run("todo", "link", "1", "\(chosen)").status == 0)
        let sync = machine.run("sync")
        #expect(sync.status == 0 && !sync.stdout.contains("duplicate"), "\(sync.stdout) \(sync.stderr)")
        #expect(machines.github.activity.issues(repository: 1).map(\.state) == ["open", "open"])
        #expect(try machines.list(machine) == ["octocat/app: ship it #2"])
    }
}
