import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Three machines, a few hundred rounds of random operations: adds, edits, done and undo,
/// removals and restores, promotes, links and unlinks, trailers pushed, issues opened, closed,
/// reopened and retitled on GitHub, force-pushes, cron syncs at once, and doogit killed (-9) at
/// random requests. Then every machine syncs until the file settles, and: the same list
/// everywhere (IDs aside), no issue with two todos, no two open issues made for one todo, no todo
/// finished by a trailer older than its last reopen, nothing the user did lost.
@Suite(.serialized)
struct SoakTests {
    static let rounds = 300
    static let seed: UInt64 = 0x50AC_D006_17

    final class Soak {
        let machines: Machines
        var random: SplitMix64
        var counts: [String: Int] = [:]
        /// Every todo a user added or got, by UUID, and whether the user removed it last.
        var removedByUser: [String: Bool] = [:]
        /// The user's last done or undo per todo, with when (real time, ms).
        var lastIntent: [String: (done: Bool, at: Int64)] = [:]
        /// The last trailer commit per todo UUID, with GitHub's second of it (ms).
        var lastTrailer: [String: Int64] = [:]
        /// Todos ever linked to an issue: their state also follows the issue.
        var everLinked: Set<String> = []
        var issueNumbers: [Int64] = []

        init(seed: UInt64) throws {
            machines = try Machines(3)
            // GitHub's secondary rate limits stay on, on a clock that moves 20 seconds a round: the
            // rounds are a user's commands some 20 seconds apart, not hundreds in a minute.
            machines.github.secondaryLimits.useManualClock()
            random = SplitMix64(seed: seed)
            #expect(machines[0].run("repo", "set", "app", "--push-issues", "on", "--import-issues", "all").status == 0)
        }

        func count(_ name: String) { counts[name, default: 0] += 1 }

        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)] }

        func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

        /// A machine's live todos: ID, UUID, done.
        func todos(_ machine: Sandbox) throws -> [(id: String, uuid: String, done: Bool, linked: Bool)] {
            try machines.todos(machine).map { todo in
                (String(try todo.int64("id")), try todo.string("uuid"), try todo.bool("done"), todo["issue"] != .null)
            }
        }

        @discardableResult
        func run(_ machine: Sandbox, _ arguments: String..., allowed: Set<Int32> = [0]) -> ProcessResult {
            let result = machine.run(arguments)
            count("commands")
            if !allowed.contains(result.status) {
                Issue.record("doogit \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
            }
            return result
        }

        func round() throws {
            machines.github.secondaryLimits.advance(seconds: 20)
            let machine = pick(machines.all) ?? machines[0]
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<14:
                let added = run(machine, "todo", "add", "-R", "app", "--json", "task \(Int.random(in: 0...9999, using: &random))")
                if let uuid = try? JSONParser.parse(added.stdout).string("uuid") { removedByUser[uuid] = false }
                count("add")
            case 14..<20:
                if let todo = pick(try todos(machine)) {
                    run(machine, "todo", "edit", todo.id, "edited \(Int.random(in: 0...9999, using: &random))")
                    count("edit")
                }
            case 20..<32:
                if let todo = pick(try todos(machine)) {
                    let done = !todo.done
                    run(machine, "todo", done ? "done" : "undo", todo.id)
                    lastIntent[todo.uuid] = (done, now())
                    count(done ? "done" : "undo")
                }
            case 32..<37:
                if let todo = pick(try todos(machine)) {
                    run(machine, "todo", "rm", todo.id)
                    removedByUser[todo.uuid] = true
                    count("rm")
                }
            case 37..<40:
                // The removed todos completion offers: `ID<TAB>text` a line.
                let offered = machine.run("__complete", "--", "todo", "restore", "").stdout
                let removed = offered.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
                if let id = pick(removed.filter { Int($0) != nil }) {
                    let restored = run(machine, "todo", "restore", "--json", id, allowed: [0, 1])
                    if restored.status == 0, case .array(let items)? = try? JSONParser.parse(restored.stdout),
                       let uuid = try? items.first?.string("uuid") {
                        removedByUser[uuid] = false
                        count("restore")
                    }
                }
            case 40..<46:
                if let todo = pick(try todos(machine).filter { !$0.linked }) {
                    // 75: GitHub's answer was lost (a kill on GitHub's side is not simulated here, but allowed).
                    // Whatever came of it, GitHub may have made the issue: its state may follow the issue.
                    everLinked.insert(todo.uuid)
                    run(machine, "todo", "promote", todo.id, allowed: [0, 1, 75])
                    count("promote")
                }
            case 46..<50:
                if let todo = pick(try todos(machine)), let number = pick(issueNumbers) {
                    if todo.linked {
                        run(machine, "todo", "unlink", todo.id)
                        count("unlink")
                    } else if run(machine, "todo", "link", todo.id, String(number), allowed: [0, 1]).status == 0 {
                        everLinked.insert(todo.uuid)
                        count("link")
                    }
                }
            case 50..<58:
                try gitHubEvent()
            case 58..<62:
                // Two cron syncs at once.
                let others = machines.all.filter { $0 !== machine }
                guard let other = pick(others) else { break }
                let first = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: machine.environment)
                let second = other.run("sync")
                let done = first.finish()
                for result in [done, second] where ![0, 75].contains(result.status) {
                    Issue.record("a sync at once exited \(result.status): \(result.stderr)")
                }
                count("syncs at once")
            case 62..<67:
                try killAtARandomRequest(machine)
            default:
                let synced = run(machine, "sync", allowed: [0, 75])
                if synced.status == 75 { count("syncs that asked to be tried again") }
                count("sync")
            }
        }

        func gitHubEvent() throws {
            let github = machines.github
            let issues = github.activity.issues(repository: 1).filter { !$0.isPullRequest }
            issueNumbers = issues.map(\.number)
            switch Int.random(in: 0..<7, using: &random) {
            case 0:
                github.activity.addIssue(repository: 1, title: "opened on GitHub \(Int.random(in: 0...999, using: &random))")
                count("issue opened on GitHub")
            case 1, 2:
                if let issue = pick(issues) {
                    issue.state == "open" ? github.activity.close(repository: 1, number: issue.number)
                        : github.activity.reopen(repository: 1, number: issue.number)
                    count("issue closed or reopened on GitHub")
                }
            case 3:
                if let issue = pick(issues) {
                    github.activity.retitle(repository: 1, number: issue.number, to: "retitled \(Int.random(in: 0...999, using: &random))")
                    count("issue retitled on GitHub")
                }
            case 4, 5:
                let known = removedByUser.keys.sorted()
                if let uuid = pick(known) {
                    github.pushCommits(repository: 1, messages: ["Work\n\nDoogit-Done: \(uuid.filter { $0 != "-" }.prefix(8))"])
                    lastTrailer[uuid] = now() / 1000 * 1000
                    count("trailer pushed")
                }
            default:
                github.forcePushCommits(repository: 1, dropping: 1, messages: ["rewritten \(Int.random(in: 0...999, using: &random))"])
                count("force-push")
            }
        }

        /// Starts a sync (or a promote) and kills it with -9 while its k-th request is on the wire.
        func killAtARandomRequest(_ machine: Sandbox) throws {
            let target = Int.random(in: 1...10, using: &random)
            var arguments = ["sync"]
            if Bool.random(using: &random), let todo = pick(try todos(machine).filter { !$0.linked }) {
                arguments = ["todo", "promote", todo.id]
                everLinked.insert(todo.uuid)
            }
            if try killAtRequest(target, running: arguments, on: machine, github: machines.github) { count("kills (-9)") }
        }
    }

    @Test func threeMachinesAFewHundredRoundsEndTheSame() throws {
        let soak = try Soak(seed: Self.seed)
        let machines = soak.machines
        for _ in 0..<Self.rounds { try soak.round() }

        // Settle: everyone syncs until a whole round writes nothing.
        var settleRounds = 0
        repeat {
            let writes = machines.github.contents.writes
            for machine in machines.all {
                machines.github.secondaryLimits.advance(seconds: 20)
                soak.run(machine, "sync", allowed: [0])
            }
            settleRounds += 1
            if machines.github.contents.writes == writes { break }
        } while settleRounds < 6
        #expect(settleRounds < 6, "the machines settled")

        // The same list everywhere, IDs aside.
        let lists = try machines.all.map { try machines.todos($0).map { todo -> String in
            var copy = todo
            if case .object(let members) = todo { copy = .object(members.filter { $0.key != "id" }) }
            return JSONWriter.write(copy)
        }.sorted() }
        #expect(lists.allSatisfy { $0 == lists[0] }, "every machine shows the same todos: \(zip(lists[0], lists[1]).filter { $0 != $1 }) \(zip(lists[0], lists[2]).filter { $0 != $1 }) counts \(lists.map(\.count))")
        let final = try machines.todos(machines[0])
        let byUUID = Dictionary(final.compactMap { todo in (try? todo.string("uuid")).map { ($0, todo) } }, uniquingKeysWith: { a, _ in a })

        // No issue with two todos; no two open issues made for one todo.
        let linked = final.compactMap { try? $0.field("issue").int64("number") }
        #expect(Set(linked).count == linked.count, "an issue is linked to one todo at most")
        var markers: [String: Int] = [:]
        for issue in machines.github.activity.issues(repository: 1) where issue.state == "open" {
            if let start = issue.body.range(of: "<!-- doogit:") { markers[String(issue.body[start.upperBound...].prefix(36)), default: 0] += 1 }
        }
        #expect(markers.values.allSatisfy { $0 <= 1 }, "one open issue per todo: \(markers.filter { $0.value > 1 })")

        // No todo finished by a trailer older than its last reopen; nothing the user did lost.
        var checked = 0
        for (uuid, removed) in soak.removedByUser {
            if removed {
                #expect(byUUID[uuid] == nil, "todo \(uuid) was removed, and is back")
                continue
            }
            guard let todo = byUUID[uuid] else {
                Issue.record("todo \(uuid) was added, and is lost")
                continue
            }
            guard !soak.everLinked.contains(uuid), todo["issue"] == .null, let intent = soak.lastIntent[uuid] else { continue }
            let done = (try? todo.bool("done")) ?? false
            if let trailer = soak.lastTrailer[uuid] {
                if intent.at > trailer + 2000 {
                    #expect(done == intent.done, "todo \(uuid): the user's last \(intent.done ? "done" : "undo") came after the trailer")
                    checked += 1
                } else if trailer > intent.at + 2000 {
                    #expect(done, "todo \(uuid): the trailer came after the user's last change")
                    checked += 1
                }
            } else {
                #expect(done == intent.done, "todo \(uuid): the user's last \(intent.done ? "done" : "undo") stands")
                checked += 1
            }
        }
        soak.counts["todos whose state was checked"] = checked
        soak.counts["issues created"] = machines.github.activity.issues(repository: 1).count
        soak.counts["rounds"] = Self.rounds
        soak.counts["rounds to settle"] = settleRounds
        print("Soak: " + soak.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        #expect((soak.counts["kills (-9)"] ?? 0) > 3 && (soak.counts["trailer pushed"] ?? 0) > 3 && (soak.counts["promote"] ?? 0) > 5)
    }
}
