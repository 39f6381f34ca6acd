import DoogitMerge
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The remote over years, as users meet it: a remote written by an older doogit (one file) is
/// taken over in one commit, by one machine or two at once, while an older doogit writes; a
/// removal leaves once every machine has merged it, or after the horizon, or once the machine it
/// waits for is forgotten, and the machine that was away brings nothing back; a todo removed on
/// another machine can be restored here.
@Suite(.serialized)
struct RemoteForYearsTests {
    static let appTodos = RemoteLayout.todosPath(1)

    /// The single file an older doogit (format 2) wrote: octocat/app and these todos.
    static func olderFile(_ todos: [(uuid: String, text: String, removed: Bool)]) -> String {
        let stamp = HybridTimestamp(wall: Int64(Date().timeIntervalSince1970 * 1000) - 86_400_000, counter: 0, machine: "a0a0a0a0a0a0")
        var replica = Replica()
        replica.repositories[1] = RepositoryEntry(
            id: 1, name: Register(RepositoryName(fullName: "octocat/app", url: "https://github.com/octocat/app"), at: stamp),
            tracked: Register(true, at: stamp))
        for todo in todos {
            var entry = TodoEntry(uuid: todo.uuid, repository: 1, text: todo.text, createdAt: stamp.timestamp, stamp: stamp)
            if todo.removed { entry.removed = Register(true, at: stamp.next(on: stamp.machine)) }
            replica.todos[todo.uuid] = entry
        }
        return String(decoding: TodoFile.encode(replica), as: UTF8.self)
            .replacingOccurrences(of: #"{"format":"doogit","version":"\#(TodoFile.majorVersion).\#(TodoFile.minorVersion)"}"#,
                                  with: #"{"format":"doogit","version":"2.0"}"#)
    }

    static let older = olderFile([("11111111-0000-4000-8000-000000000001", "from the older doogit", false),
                                  ("11111111-0000-4000-8000-000000000002", "removed long ago", true)])

    func refUpdates(_ machines: Machines) -> Int {
        machines.github.requests.filter { $0.method == "PATCH" && $0.path.contains("/git/refs/heads/") }.count
    }

    func id(of machine: Sandbox) throws -> String {
        try JSONParser.parse(machine.run("remote", "status", "--json").stdout).string("machine")
    }

    /// Moves GitHub's time `days` ahead (its answers' Date).
    func daysPass(_ days: Double, _ machines: Machines) {
        let later = Date().addingTimeInterval(days * 86_400)
        machines.github.contents.setDate(later)
        machines.github.activity.setClock(Int64(later.timeIntervalSince1970))
    }

    @Test func aRemoteOfTheOlderFormIsTakenOverInOneCommit() throws {
        let machines = try Machines(1)
        let a = machines[0]
        machines.github.contents.setFile(Machines.data, Self.older)
        #expect(a.run("todo", "add", "-R", "app", "mine").status == 0)
        machines.github.resetCounters()
        let took = a.run("sync")
        #expect(took.status == 0 && took.stderr.isEmpty, "\(took.stderr)")
        #expect(refUpdates(machines) == 1, "one commit")
        let files = machines.github.contents.files(Machines.data)
        #expect(files["todos.jsonl"].map { Array($0.utf8) } == RemoteLayout.stub, "an older doogit refuses a newer major version")
        let todos = try #require(files[Self.appTodos])
        #expect(todos.contains("from the older doogit") && todos.contains("removed long ago") && todos.contains("mine"))
        #expect(files["repositories.jsonl"]?.contains("octocat/app") == true && files["remote.jsonl"] != nil)
        #expect(try machines.list(a) == ["octocat/app: from the older doogit, mine"])
        #expect(a.run("sync").stdout.isEmpty)
        machines.github.resetCounters()
        #expect(a.run("sync").status == 0)
        #expect(machines.github.requests.filter { $0.path.hasPrefix("/repos/\(Machines.data)/") }.count == 1, "settled: one 304")
    }

    /// Two new doogits take the remote over at once (the first's move of the branch held until
    /// the second's is done), while an older one writes its file once more: nothing is lost.
    @Test func twoMachinesTakingItOverAtOnceWhileAnOlderOneWritesLoseNothing() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        machines.github.contents.setFile(Machines.data, Self.older)
        #expect(a.run("todo", "add", "-R", "app", "from a").status == 0)
        #expect(b.run("todo", "add", "-R", "app", "from b").status == 0)
        // The older doogit's write lands just before b's move of the branch.
        let older = Self.olderFile([("11111111-0000-4000-8000-000000000001", "from the older doogit", false),
                                    ("11111111-0000-4000-8000-000000000003", "written by the older doogit meanwhile", false)])
        machines.github.contents.moveRefBeforeNextUpdate(Machines.data, files: ["todos.jsonl": older])
        let (arrived, release) = machines.holdFirstPatch { $0.contains("/git/refs/heads/") }
        defer { release.signal() }
        let held = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: a.environment)
        try #require(arrived.wait(seconds: 60), "a's move never arrived")
        let second = b.run("sync")
        #expect(second.status == 0, "\(second.stderr)")
        release.signal()
        let first = held.finish()
        #expect(first.status == 0, "\(first.stderr)")
        machines.syncAll([1, 0, 1])
        let expected = ["octocat/app: from the older doogit, from a, from b, written by the older doogit meanwhile"]
        for machine in [a, b] {
            let list = try machines.list(machine)
            #expect(Set(list.first?.split(separator: ", ").map(String.init) ?? [])
                    == Set(expected[0].split(separator: ", ").map(String.init)), "\(list)")
        }
        #expect(try machines.list(a) == machines.list(b))
        #expect(machines.github.contents.file(Machines.data)?.content == RemoteLayout.stub)
    }

    /// A machine that does not sync holds a removal in the remote until the horizon passes; then
    /// the removal leaves, and the machine, back, removes the todo too (restorable there) and
    /// sends what it changed while away.
    @Test func aMachineBackAfterTheHorizonBringsNothingBack() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["kept", "gone"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        machines.syncAll([0, 1, 0])
        #expect(a.run("todo", "rm", try machines.id("gone", on: a)).status == 0)
        #expect(b.run("todo", "edit", try machines.id("kept", on: b), "kept, edited while away").status == 0)
        machines.syncAll([0, 0])
        #expect(machines.github.contents.file(Machines.data, Self.appTodos)?.text.contains("\"gone\"") == true,
                "held for b, which has not merged it")
        daysPass(100, machines)
        machines.syncAll([0])
        #expect(machines.github.contents.file(Machines.data, Self.appTodos)?.text.contains("\"gone\"") == false,
                "past the horizon: it left")
        machines.syncAll([1, 0, 1])
        #expect(try machines.list(b) == ["octocat/app: kept, edited while away"], "not brought back, and the edit sent")
        #expect(try machines.list(a) == machines.list(b))
        #expect(!b.run("todo", "list", "--removed").stdout.contains("gone"), "older than the horizon: gone for good here too")
    }

    static let droppedLine = "octocat/doogit-data: dropped this machine's edits of 1 todo removed on another machine meanwhile: "

    /// A machine away past the horizon edits (or finishes) a todo that another machine removed
    /// meanwhile, and makes one. Back, its edit is dropped and said: the removal left the remote
    /// and wins, as it would have had the machine synced before; what it made goes out.
    @Test(arguments: ["edit", "done"]) func anEditMadeAwayOfATodoWhoseRemovalLeftIsDropped(_ change: String) throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["kept", "gone"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        machines.syncAll([0, 1, 0])
        #expect(a.run("todo", "rm", try machines.id("gone", on: a)).status == 0)
        machines.syncAll([0])
        daysPass(100, machines)
        machines.syncAll([0])
        #expect(machines.github.contents.file(Machines.data, Self.appTodos)?.text.contains("\"gone\"") == false,
                "past the horizon: it left")
        let gone = try machines.id("gone", on: b)
        let edit = change == "edit" ? b.run("todo", "edit", gone, "gone, edited while away") : b.run("todo", "done", gone)
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(b.run("todo", "add", "-R", "app", "made while away").status == 0)
        let back = b.run("sync")
        #expect(back.status == 0, "\(back.stderr)")
        let edited = change == "edit" ? "gone, edited while away" : "gone"
        #expect(back.stdout.split(separator: "\n").contains { $0 == Self.droppedLine + "\"\(edited)\"" }, "\(back.stdout)")
        #expect(try machines.list(b) == ["octocat/app: kept, made while away"])
        #expect(!b.run("todo", "list", "--removed").stdout.contains("gone"), "older than the horizon: gone for good")
        let remote = machines.github.contents.file(Machines.data, Self.appTodos)?.text ?? ""
        #expect(!remote.contains("gone") && remote.contains("made while away"), "\(remote)")
        machines.syncAll([0])
        #expect(try machines.list(a) == machines.list(b), "not back to life on the other machine either")
        let again = b.run("sync")
        #expect(again.status == 0 && !again.stdout.contains("dropped"), "said once: \(again.stdout)")
    }

    /// Forgotten while only offline, with a done of a todo removed meanwhile (its removal left
    /// when the machine was forgotten): the machine's first sync drops it, restorable there.
    @Test func aForgottenMachineDropsATodoRemovedElsewhereInOneSync() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["kept", "gone"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        machines.syncAll([0, 1, 0])
        #expect(a.run("todo", "rm", try machines.id("gone", on: a)).status == 0)
        machines.syncAll([0])
        #expect(a.run("remote", "forget", try id(of: b)).status == 0)
        machines.syncAll([0])
        #expect(machines.github.contents.file(Machines.data, Self.appTodos)?.text.contains("\"gone\"") == false, "it left")
        #expect(b.run("todo", "done", try machines.id("gone", on: b)).status == 0)
        let preview = b.run("sync", "--dry-run", "--json")
        #expect(try JSONParser.parse(preview.stdout).field("remote").int64("dropped") == 1, "\(preview.stdout)")
        #expect(try machines.list(b).first?.contains("gone [done]") == true, "a dry run changes nothing")
        let back = b.run("sync")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try machines.list(b) == ["octocat/app: kept"], "one sync")
        #expect(back.stdout.split(separator: "\n").contains { $0 == Self.droppedLine + "\"gone\" (restorable: 'doogit todo list --removed')" },
                "\(back.stdout)")
        #expect(b.run("todo", "list", "--removed").stdout.contains("gone"), "within the horizon: restorable here")
        #expect(machines.github.contents.file(Machines.data, Self.appTodos)?.text.contains("\"gone\"") == false)
        machines.syncAll([0])
        #expect(try machines.list(a) == ["octocat/app: kept"])
    }

    @Test func aForgottenMachineNoLongerHoldsRemovalsBack() throws {
        let machines = try Machines(3)
        let (a, c) = (machines[0], machines[2])
        #expect(a.run("todo", "add", "-R", "app", "gone soon").status == 0)
        machines.syncAll([0, 1, 2, 0])
        let status = a.run("remote", "status").stdout
        #expect(status.contains("Machines:") && status.contains("(this machine)"), "\(status)")
        #expect(a.run("todo", "rm", "1").status == 0)
        machines.syncAll([0, 1, 0])
        #expect(machines.github.contents.file(Machines.data, Self.appTodos)?.text.contains("gone soon") == true, "c has not merged it")
        let cID = try id(of: c)
        let forget = a.run("remote", "forget", cID)
        #expect(forget.status == 0 && forget.stdout == "Machine \(cID) will be forgotten at the next sync ('doogit sync')\n")
        #expect(a.run("remote", "status").stdout.contains("forgotten at the next sync"))
        machines.syncAll([0, 0])
        #expect(machines.github.contents.file(Machines.data, Self.appTodos)?.text.contains("gone soon") != true, "it left")
        #expect(a.run("remote", "status").stdout.contains("\(cID)") && a.run("remote", "status").stdout.contains("(forgotten)"))
        machines.syncAll([2])
        #expect(try machines.list(c).isEmpty, "c, back, removes it too")
        // Mistakes are told apart.
        #expect(a.run("remote", "forget", "nope").status == 2)
        #expect(a.run("remote", "forget", "0123456789ab").status == 1)
        #expect(a.run("remote", "forget", try id(of: a)).status == 1)
        #expect(a.run("remote", "set", "--horizon", "0").status == 2)
        #expect(a.run("remote", "set", "--horizon", "30").status == 0)
        machines.syncAll([0])
        #expect(try JSONParser.parse(c.run("remote", "status", "--json").stdout)["horizonDays"] == .int(90), "c has not read it yet")
        machines.syncAll([2])
        #expect(try JSONParser.parse(c.run("remote", "status", "--json").stdout)["horizonDays"] == .int(30))
    }

    @Test func aTodoRemovedOnAnotherMachineIsRestoredHere() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["keep", "undo me"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        machines.syncAll([0, 1])
        #expect(a.run("todo", "rm", try machines.id("undo me", on: a)).status == 0)
        machines.syncAll([0, 1])
        let removed = b.run("todo", "list", "--removed")
        #expect(removed.status == 0 && removed.stdout.contains("undo me") && !removed.stdout.contains("keep"), "\(removed.stdout)")
        guard case .array(let sections) = try JSONParser.parse(b.run("todo", "list", "--removed", "--json").stdout),
              let id = try sections.first?.array("todos").first?.int64("id") else {
            Issue.record("no removed todo listed")
            return
        }
        #expect(b.run("todo", "restore", "\(id)").status == 0)
        machines.syncAll([1, 0])
        #expect(try Set(machines.list(a)[0].split(separator: ", ").map(String.init)) == ["octocat/app: keep", "undo me"])
        #expect(try machines.list(a) == machines.list(b))
        #expect(b.run("todo", "list", "--removed", "--open").status == 2)
    }

    /// Taking out removals every machine has merged is upkeep, not a change sent: the machine
    /// that does it says nothing of sending, as `remote status` said nothing waited.
    @Test func droppingRemovalsEveryoneMergedSendsNothing() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["one", "two", "three", "kept"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        machines.syncAll([0, 1])
        #expect(a.run("todo", "rm", "1-3").status == 0)
        let sent = a.run("sync")
        #expect(sent.status == 0 && sent.stdout.contains("sent 3 changes"), "\(sent.stdout)")
        for (name, machine) in [("b", b), ("a", a), ("b", b)] {
            #expect(machine.run("remote", "status").stdout.contains("Waiting: nothing"), "\(name)")
            let synced = machine.run("sync")
            #expect(synced.status == 0 && !synced.stdout.contains("sent"), "\(name): \(synced.stdout)")
        }
        let file = machines.github.contents.file(Machines.data, Self.appTodos)?.text ?? ""
        #expect(file.contains("kept") && !file.contains("\"one\"") && !file.contains("\"three\""), "the removals left: \(file)")
        #expect(try machines.list(a) == ["octocat/app: kept"] && machines.list(b) == ["octocat/app: kept"])
        // One day is a day.
        #expect(a.run("remote", "set", "--horizon", "1").stdout.hasPrefix("Removals will wait 1 day for a machine"))
        #expect(a.run("remote", "status").stdout.contains("Removals wait: 1 day for a machine that does not sync (from the next sync)\n"))
    }
}
