import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Three people with two machines each share one repository's todos (`repo share`), each
/// person's machines also keeping their own remote. A hundred and fifty rounds of random
/// operations: adds (some assigned to another), edits, done and undo, removals, assignments,
/// syncs of two people at once, and doogit killed (-9) at a random request of a sync. Then every
/// machine syncs until a whole round writes nothing, and: the same todos everywhere (IDs aside),
/// with the same authors, finishers and assignees; nothing a user added lost, nothing removed
/// back; the repository's code branch never moved.
@Suite(.serialized)
struct SharedSoakTests {
    static let rounds = 150
    static let seed: UInt64 = 0x5_4A8E_D5

    final class Soak {
        let github: FakeGitHub
        /// Each machine with its person's login.
        var machines: [(login: String, sandbox: Sandbox)] = []
        var random: SplitMix64
        var counts: [String: Int] = [:]
        /// Every todo a user added, by UUID, and whether a user removed it last.
        var removedByUser: [String: Bool] = [:]

        init(seed: UInt64) throws {
            github = try FakeGitHub()
            github.addRepository(id: 1, name: "app", description: "the app", isPrivate: true)
            github.contents.commitFiles("octocat/app", ["README.md": "# app\n"], message: "First commit")
            // GitHub's secondary rate limits stay on, on a clock that moves 20 seconds a round: the
            // rounds are people's commands some 20 seconds apart, not hundreds in a minute.
            github.secondaryLimits.useManualClock()
            random = SplitMix64(seed: seed)
            for login in ["octocat", "hubot", "monalisa"] {
                var token: String?
                if login != "octocat" {
                    token = github.addUser(login: login).token
                    github.addCollaborator(login, to: 1, permission: .write)
                }
                for index in 0..<2 {
                    let machine = try Sandbox(github: github)
                    if let token { machine.environment["GH_TOKEN"] = token }
                    github.secondaryLimits.advance(seconds: 20)
                    #expect(machine.run("repo", "add", "octocat/app").status == 0)
                    let remote = index == 0 ? machine.run("remote", "init", "\(login)/doogit-data", "--create")
                        : machine.run("remote", "init", "\(login)/doogit-data")
                    #expect(remote.status == 0, "\(login): \(remote.stderr)")
                    #expect(machine.run("auth", "status").status == 0)
                    machines.append((login, machine))
                }
            }
            for machine in machines {
                github.secondaryLimits.advance(seconds: 20)
                let shared = machine.sandbox.run("repo", "share", "octocat/app")
                #expect(shared.status == 0, "\(machine.login): \(shared.stderr)")
            }
        }

        func count(_ name: String) { counts[name, default: 0] += 1 }

        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)] }

        func todos(_ machine: Sandbox) throws -> [(id: String, uuid: String, done: Bool)] {
            guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return [] }
            return try sections.flatMap { try $0.array("todos") }.map { (String(try $0.int64("id")), try $0.string("uuid"), try $0.bool("done")) }
        }

        @discardableResult
        func run(_ machine: Sandbox, _ arguments: [String], allowed: Set<Int32> = [0]) -> ProcessResult {
            let result = machine.run(arguments)
            count("commands")
            if !allowed.contains(result.status) {
                Issue.record("doogit \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
            }
            return result
        }

        func round() throws {
            github.secondaryLimits.advance(seconds: 20)
            guard let (_, machine) = pick(machines) else { return }
            let number = Int.random(in: 0...9999, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<18:
                var arguments = ["todo", "add", "-R", "app", "--json", "task \(number)"]
                if Bool.random(using: &random), let other = pick(["octocat", "hubot", "monalisa"]) { arguments += ["--assignee", other] }
                let added = run(machine, arguments)
                if let uuid = try? JSONParser.parse(added.stdout).string("uuid") { removedByUser[uuid] = false }
                count("add")
            case 18..<26:
                if let todo = pick(try todos(machine)) {
                    run(machine, ["todo", "edit", todo.id, "edited \(number)"])
                    count("edit")
                }
            case 26..<40:
                if let todo = pick(try todos(machine)) {
                    run(machine, ["todo", todo.done ? "undo" : "done", todo.id])
                    count(todo.done ? "undo" : "done")
                }
            case 40..<45:
                if let todo = pick(try todos(machine)) {
                    run(machine, ["todo", "rm", todo.id])
                    removedByUser[todo.uuid] = true
                    count("rm")
                }
            case 45..<52:
                if let todo = pick(try todos(machine)), let other = pick(["octocat", "hubot", "monalisa", "@me"]) {
                    run(machine, ["todo", "assign", todo.id, other])
                    count("assign")
                }
            case 52..<60:
                // Two people's syncs at once: both write the branch.
                guard let other = pick(machines.map(\.sandbox).filter { $0 !== machine }) else { break }
                let first = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: machine.environment)
                let second = other.run("sync")
                for result in [first.finish(), second] where ![0, 75].contains(result.status) {
                    Issue.record("a sync at once exited \(result.status): \(result.stderr)")
                }
                count("syncs at once")
            case 60..<66:
                try killAtARandomRequest(machine)
            default:
                let synced = run(machine, ["sync"], allowed: [0, 75])
                if synced.status == 75 { count("syncs that asked to be tried again") }
                count("sync")
            }
        }

        /// Starts a sync and kills it with -9 while its k-th request is on the wire.
        func killAtARandomRequest(_ machine: Sandbox) throws {
            let target = Int.random(in: 1...12, using: &random)
            if try killAtRequest(target, running: ["sync"], on: machine, github: github) { count("kills (-9)") }
        }
    }

    @Test func threePeopleWithTwoMachinesEachEndWithTheSameSharedTodos() throws {
        let soak = try Soak(seed: Self.seed)
        let code = soak.github.contents.head("octocat/app")
        for _ in 0..<Self.rounds { try soak.round() }

        var settleRounds = 0
        repeat {
            let writes = soak.github.contents.writes
            for machine in soak.machines {
                soak.github.secondaryLimits.advance(seconds: 20)
                soak.run(machine.sandbox, ["sync"])
            }
            settleRounds += 1
            if soak.github.contents.writes == writes { break }
        } while settleRounds < 5
        #expect(settleRounds < 5, "the machines settled")

        // The same todos everywhere, with who did what, IDs aside.
        let lists = try soak.machines.map { machine -> [String] in
            guard case .array(let sections) = try JSONParser.parse(machine.sandbox.run("todo", "list", "--json").stdout) else { return [] }
            return try sections.flatMap { try $0.array("todos") }.map { todo in
                guard case .object(let members) = todo else { return "" }
                return JSONWriter.write(.object(members.filter { $0.key != "id" }))
            }.sorted()
        }
        #expect(lists.allSatisfy { $0 == lists[0] }, "every machine shows the same todos: counts \(lists.map(\.count))")
        let uuids = Set(try soak.todos(soak.machines[0].sandbox).map(\.uuid))
        for (uuid, removed) in soak.removedByUser {
            if removed {
                #expect(!uuids.contains(uuid), "todo \(uuid) was removed, and is back")
            } else {
                #expect(uuids.contains(uuid), "todo \(uuid) was added, and is lost")
            }
        }
        #expect(soak.github.contents.head("octocat/app") == code, "the code's branch never moved")
        soak.counts["rounds to settle"] = settleRounds
        soak.counts["todos at the end"] = uuids.count
        print("Shared soak: " + soak.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        #expect((soak.counts["kills (-9)"] ?? 0) > 2 && (soak.counts["syncs at once"] ?? 0) > 3 && (soak.counts["add"] ?? 0) > 10)
    }
}
