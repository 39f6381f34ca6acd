import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Three machines tagging, untagging and finishing one linked todo while a teammate relabels its
/// issue: every tag anyone gave stands (but the one taken off), the issue gets each change once,
/// and the teammate's label stays.
@Suite(.serialized)
struct TagsTogetherTests {
    func field(_ machines: Machines, _ machine: Sandbox, _ key: String) throws -> [String] {
        let todo = try #require(try machines.todos(machine).first)
        guard case .array(let values) = todo[key] ?? .null else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    @Test func threeMachinesTaggingOneTodoEndWithEveryTagAnyoneGave() throws {
        let machines = try Machines(3)
        let (a, b, c) = (machines[0], machines[1], machines[2])
        #expect(a.run("todo", "add", "-R", "app", "ship it", "+base").status == 0)
        #expect(a.run("todo", "promote", "1").status == 0)
        #expect(a.run("repo", "set", "app", "--push-issues", "on").status == 0)
        machines.syncAll([0, 1, 2])

        // Apart: each machine changes the tags; c finishes it; a teammate labels the issue.
        #expect(a.run("todo", "edit", try machines.id("ship it", on: a), "--tag", "froma").status == 0)
        #expect(b.run("todo", "edit", try machines.id("ship it", on: b), "--tag", "FromB", "--untag", "base").status == 0)
        #expect(c.run("todo", "edit", try machines.id("ship it", on: c), "--tag", "fromc").status == 0)
        #expect(c.run("todo", "done", try machines.id("ship it", on: c)).status == 0)
        machines.github.activity.updateIssue(repository: 1, number: 1) { $0.labels.append("triage") }

        machines.syncAll([0, 1, 2, 0, 1, 2])
        for machine in [a, b, c] {
            #expect(try field(machines, machine, "tags") == ["froma", "FromB", "fromc"])
            #expect(Set(try field(machines, machine, "labels")) == ["triage", "froma", "FromB", "fromc"])
            #expect(try machines.list(machine) == ["octocat/app: ship it [done] #1"])
        }
        let issue = try #require(machines.github.activity.issue(repository: 1, number: 1))
        #expect(Set(issue.labels) == ["triage", "froma", "FromB", "fromc"], "each change once; the teammate's label stays")
        #expect(issue.state == "closed")
        #expect(machines.github.activity.labelWrites(repository: 1, method: "PATCH").isEmpty)
        for machine in [a, b, c] { #expect(machine.run("sync").stdout.isEmpty, "settled") }
    }
}
