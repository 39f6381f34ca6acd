import DoogitMerge
import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Machines that change the same todos and sync in any order, write at once, or are killed in the
/// middle of a sync, as a user sees it: they end with the same list and lose nothing.
@Suite(.serialized)
struct RemoteConcurrencyEndToEndTests: RemoteEndToEndSuite {
    @Test(arguments: [true, false])
    func concurrentChangesOnTwoMachinesEndTheSameWhateverTheOrder(aSyncsFirst: Bool) throws {
        let (_, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["fields", "same field", "removed here", "flip"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        // Different fields of one todo; one field on both; a removal and an edit; done and undo.
        #expect(a.run("todo", "edit", try idOf("fields", a), "fields, edited on a").status == 0)
        #expect(b.run("todo", "done", try idOf("fields", b)).status == 0)
        #expect(a.run("todo", "edit", try idOf("same field", a), "same field, a").status == 0)
        #expect(b.run("todo", "edit", try idOf("same field", b), "same field, b").status == 0)
        #expect(a.run("todo", "rm", try idOf("removed here", a)).status == 0)
        #expect(b.run("todo", "edit", try idOf("removed here", b), "edited elsewhere").status == 0)
        #expect(a.run("todo", "done", try idOf("flip", a)).status == 0)
        #expect(b.run("todo", "done", try idOf("flip", b)).status == 0)
        #expect(b.run("todo", "undo", try idOf("flip", b)).status == 0)
        let order = aSyncsFirst ? [a, b, a] : [b, a, b]
        for machine in order { #expect(machine.run("sync").status == 0) }
        let expected = try todos(a)
        #expect(try todos(b) == expected)
        #expect(expected.count == 1)
        let items = expected[0]
        #expect(items.contains("fields, edited on a [done]"))
        #expect(items.contains("same field, b"), "the later edit (b's) wins")
        #expect(!items.contains("removed here") && !items.contains("edited elsewhere"))
        #expect(items.contains("flip") && !items.contains("flip [done]"), "b's undo came last")
    }

    /// Both machines write at once: the first one's move of the branch is held until the second's
    /// sync is done, so it is not a fast forward (422), and the first reads, merges and writes again.
    @Test(arguments: [false, true])
    func twoMachinesWritingAtOnceBothKeepEverything(fileExists: Bool) throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        if fileExists {
            #expect(a.run("sync").status == 0)
            #expect(b.run("sync").status == 0)
        }
        #expect(a.run("todo", "add", "-R", "app", "from a").status == 0)
        #expect(b.run("repo", "add", "octocat/site").status == 0)
        #expect(b.run("todo", "add", "-R", "site", "from b").status == 0)
        github.resetCounters()
        let arrived = Event(), release = Event()
        let first = Counter()
        github.script { request in
            guard request.method == "PATCH", request.path.contains("/git/refs/heads/"), first.next() == 1 else { return nil }
            arrived.signal()
            _ = release.wait(seconds: 60)
            return nil
        }
        defer { release.signal() }
        let held = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: a.environment)
        try #require(arrived.wait(seconds: 60), "a's write never arrived")
        let other = b.run("sync")
        #expect(other.status == 0, "\(other.stderr)")
        release.signal()
        let lost = held.finish(timeoutSeconds: 60)
        #expect(lost.status == 0, "\(lost.stderr)")
        #expect(refUpdates(github).count == 3, "a's held write, b's, a's retry")
        #expect(b.run("sync").status == 0)
        #expect(try todos(a) == todos(b))
        #expect(try todos(a) == ["octocat/app: from a", "octocat/site: from b"])
    }

    /// `kill -9` at each step of a sync: while it reads, once the merge is committed here but not
    /// written there (its commit made, the branch not moved), and once GitHub moved the branch but
    /// the answer has not arrived.
    @Test(arguments: ["read", "write", "answer"])
    func aSyncKilledAtEachStepLosesNothing(step: String) throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "from a").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "later from a").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("todo", "add", "-R", "app", "from b").status == 0)
        let arrived = Event(), release = Event()
        let hold = AnswerHold()
        if step == "answer" {
            // GitHub moves the branch; the answer never comes.
            github.dropNextRefUpdate(Self.data, with: .holdAfterProcessing(hold))
        } else {
            github.script { request in
                let reading = request.method == "GET" && request.path.contains("/git/trees/")
                let moving = request.method == "PATCH" && request.path.contains("/git/refs/heads/")
                guard (step == "read" && reading) || (step == "write" && moving) else { return nil }
                arrived.signal()
                _ = release.wait(seconds: 60)
                return ServerResponse(status: 500).hangingUp()
            }
        }
        defer { release.signal(); hold.releaseAnswer() }
        let sync = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: b.environment)
        try #require(step == "answer" ? hold.waitForArrival(seconds: 60) : arrived.wait(seconds: 60))
        sync.kill()
        _ = sync.finish(timeoutSeconds: 10)
        release.signal()
        hold.releaseAnswer()
        github.script(nil)
        #expect(try Database(path: b.databasePath).scalarString("PRAGMA integrity_check") == "ok")
        let afterKill = try todos(b)
        #expect(afterKill.first?.contains("from b") == true, "the local todo is kept")
        if step != "read" {
            #expect(afterKill == ["octocat/app: from a, later from a, from b"] || afterKill == ["octocat/app: from a, from b, later from a"],
                    "the merge was committed before the write: \(afterKill)")
        }
        #expect(b.run("sync").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(try todos(a).first.map { $0.split(separator: ",").count } == 3)
        #expect(try todos(b) == todos(a))
    }

    @Test func threeMachinesWithRandomChangesAndSyncsConverge() throws {
        let (_, machines) = try machines(3)
        var random = SplitMix64(seed: 0xD006_1710)
        for machine in machines { #expect(machine.run("sync").status == 0) }
        var operations = 0
        for round in 0..<12 {
            for (index, machine) in machines.enumerated() {
                let ids = (try? JSONParser.parse(machine.run("todo", "list", "--json").stdout))
                    .map { json -> [String] in
                        guard case .array(let sections) = json else { return [] }
                        return sections.flatMap { (try? $0.array("todos")) ?? [] }.compactMap { try? $0.int64("id") }.map(String.init)
                    } ?? []
                let pick = ids.isEmpty ? nil : ids[Int.random(in: 0..<ids.count, using: &random)]
                let arguments: [String]
                switch (Int.random(in: 0..<10, using: &random), pick) {
                case (0..<3, _), (_, nil): arguments = ["todo", "add", "-R", "app", "m\(index) r\(round)"]
                case (3..<5, let id?): arguments = ["todo", "edit", id, "edited by m\(index) r\(round)"]
                case (5, let id?): arguments = ["todo", "done", id]
                case (6, let id?): arguments = ["todo", "undo", id]
                case (7, let id?): arguments = ["todo", "rm", id]
                default: arguments = ["sync", "--quiet"]
                }
                let result = machine.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                operations += 1
            }
        }
        for _ in 0..<2 {
            var order = Array(machines.indices)
            order.shuffle(using: &random)
            for index in order { #expect(machines[index].run("sync", "--quiet").status == 0) }
        }
        let expected = try todos(machines[0])
        #expect(!expected.isEmpty)
        for machine in machines.dropFirst() { #expect(try todos(machine) == expected) }
        #expect(operations == 36)
    }
}
