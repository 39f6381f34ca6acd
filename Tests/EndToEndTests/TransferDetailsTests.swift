import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A program on PATH, for the tests that check doogit's files with the real one.
func installed(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// TZ for a zone far from UTC: its name where the system has the zone's rules, else the same
/// offset as a POSIX rule (neither zone has summer time).
private func zone(_ name: String) -> String {
    let rules = ["Pacific/Kiritimati": "<+14>-14", "Pacific/Pago_Pago": "<-11>11"]
    return FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name) ? name : rules[name] ?? name
}

/// `todo list --json` of a machine without the IDs, and with times to the second (Taskwarrior
/// keeps no more).
private func list(_ machine: Sandbox) throws -> JSONValue {
    func strip(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let values): return .array(values.map(strip))
        case .object(let members):
            return .object(members.filter { $0.key != "id" }.map { member in
                guard ["createdAt", "doneAt"].contains(member.key), case .string(let time) = member.value else {
                    return JSONMember(member.key, strip(member.value))
                }
                return JSONMember(member.key, .string(String(time.prefix(19))))
            })
        default: return value
        }
    }
    return strip(try JSONParser.parse(machine.run("todo", "list", "--json").stdout))
}

/// Waits until the wall clock is in a later second than now: Taskwarrior keeps times to the
/// second, and a change made in `task` is later than doogit's only in a later second.
private func waitForTheNextSecond() {
    let now = Int(Date().timeIntervalSince1970)
    while Int(Date().timeIntervalSince1970) <= now { usleep(10_000) }
}

/// A Taskwarrior of its own (data and taskrc in a temporary folder), run as a user would, without
/// colour or confirmations.
private struct Taskwarrior {
    let path: String
    let data = TemporaryDirectory()
    let zone: String

    init(_ path: String, zone: String = "UTC") throws {
        self.path = path
        self.zone = zone
        _ = try data.write(".taskrc", "")
    }

    @discardableResult
    func run(_ arguments: String...) -> ProcessResult {
        ChildProcess.run(path, ["rc.confirmation=off", "rc.verbose=nothing", "rc.color=off"] + arguments,
                         environment: ["HOME": data.path, "TASKRC": data.path + "/.taskrc", "TASKDATA": data.path + "/.task",
                                       "PATH": "/usr/bin:/bin", "TZ": zone])
    }
}

/// Details through export and import as a user meets them: the due date of a Taskwarrior task
/// in the zone TZ names, and the files checked with the real `task` and `todo-txt`.
@Suite(.serialized) struct TransferDetailsTests {
    /// Moments around the start of 2026-12-24 in UTC, and the local date of each.
    @Test(arguments: [
        ("UTC", ["2026-12-24", "2026-12-24", "2026-12-24", "2026-12-24"], "20261224T000000Z"),
        ("Pacific/Kiritimati", ["2026-12-24", "2026-12-24", "2026-12-25", "2026-12-25"], "20261223T100000Z"),
        ("Pacific/Pago_Pago", ["2026-12-23", "2026-12-23", "2026-12-23", "2026-12-24"], "20261224T110000Z"),
    ])
    func aTaskwarriorDueIsTheLocalDateOfItsMoment(name: String, dates: [String], midnight: String) throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        machine.environment["TZ"] = zone(name)
        let moments = ["20261224T000100Z", "20261224T095959Z", "20261224T100000Z", "20261224T110000Z"]
        let tasks = moments.enumerated().map { index, moment in
            #"{"uuid":"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c0\#(index)","description":"task \#(index)","status":"pending","project":"app","due":"\#(moment)"}"#
        }
        let file = try machine.home.write("tasks.json", "[\n" + tasks.joined(separator: ",\n") + "\n]\n")
        let imported = machine.run("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        let todos = try machines.todos(machine).sorted { (try? $0.string("text")) ?? "" < (try? $1.string("text")) ?? "" }
        #expect(todos.map { try? $0.string("due") } == dates)
        // Written back, a date is the moment its day starts here.
        #expect(machine.run("todo", "edit", "1", "--due", "2026-12-24").status == 0)
        let exported = machine.run("export", "--format", "taskwarrior").stdout
        #expect(exported.contains(#""description":"task 0","status":"pending","#) && exported.contains(#""due":"\#(midnight)""#),
                "\(exported)")
    }

    @Test(.enabled(if: installed("task") != nil, "Taskwarrior's task is not on PATH (scripts/install-dependencies --for-tests installs it)"))
    func taskwarriorImportsTheExportAndItsExportComesBack() throws {
        let task = try #require(installed("task"))
        let machines = try Machines(2, remote: false)
        let (a, b) = (machines[0], machines[1])
        for machine in [a, b] { machine.environment["TZ"] = zone("Pacific/Pago_Pago") }
        #expect(a.run(["todo", "add", "-R", "app", "ship it", "--due", "2026-12-24", "--priority", "H", "--tag", "release",
                       "--tag", "ci", "--note", "line one\nline two"]).status == 0)
        #expect(a.run("todo", "add", "-R", "app", "plain").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "finished", "--priority", "L").status == 0)
        #expect(a.run("todo", "done", "3").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "removed").status == 0)
        #expect(a.run("todo", "rm", "4").status == 0)
        let file = a.home.path + "/tasks.json"
        #expect(a.run(["export", "--format", "taskwarrior", "-o", file]).status == 0)

        let data = TemporaryDirectory()
        _ = try data.write(".taskrc", "")
        let environment = ["HOME": data.path, "TASKRC": data.path + "/.taskrc", "TASKDATA": data.path + "/.task",
                           "PATH": "/usr/bin:/bin", "TZ": zone("Pacific/Pago_Pago")]
        func run(_ arguments: String...) -> ProcessResult {
            ChildProcess.run(task, ["rc.confirmation=off", "rc.verbose=nothing"] + arguments, environment: environment)
        }
        let imported = run("import", file)
        #expect(imported.status == 0, "task import: \(imported.stderr)")
        let exported = run("export")
        #expect(exported.status == 0)
        guard case .array(let tasks) = try JSONParser.parse(exported.stdout) else {
            Issue.record("task export wrote no array: \(exported.stdout)")
            return
        }
        #expect(tasks.count == 3, "the removed todo is left out")
        let shipped = try #require(tasks.first { (try? $0.string("description")) == "ship it" })
        #expect(try shipped.string("project") == "octocat/app" && shipped.string("priority") == "H")
        #expect(try shipped.array("tags") == [.string("ci"), .string("release")])
        #expect(try shipped.array("annotations").map { try $0.string("description") } == ["line one", "line two"],
                "a line of the note an annotation: task shows an annotation on one line")
        #expect(try shipped.string("due") == "20261224T110000Z")
        #expect(run("_get", try shipped.string("uuid") + ".due").stdout == "2026-12-24T00:00:00\n", "due that day where it is")
        let finished = try #require(tasks.first { (try? $0.string("description")) == "finished" })
        #expect(try finished.string("status") == "completed" && finished.string("priority") == "L")

        let back = b.run(["import", "-"], stdin: exported.stdout)
        #expect(back.status == 0 && back.stdout == "Imported 3 todos from standard input\n", "\(back.stderr)")
        #expect(try list(b) == list(a))
    }

    /// `task done`, `modify priority:H +tag`, `annotate` and a new description come back: each
    /// field that differs, where the task changed after the todo's field; a field changed here
    /// after the task keeps this machine's value. Imported again, nothing changes.
    @Test(.enabled(if: installed("task") != nil, "Taskwarrior's task is not on PATH (scripts/install-dependencies --for-tests installs it)"))
    func whatTaskwarriorChangedComesBack() throws {
        let task = try Taskwarrior(try #require(installed("task")))
        let machines = try Machines(1, remote: false)
        let a = machines[0]
        a.environment["TZ"] = "UTC"
        #expect(a.run(["todo", "add", "-R", "app", "ship it", "--priority", "L", "--tag", "ci", "--note", "first"]).status == 0)
        #expect(a.run("todo", "add", "-R", "app", "plain").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "rename me").status == 0)
        for index in 1...13 { #expect(a.run("todo", "add", "-R", "app", "untouched \(index)").status == 0) }
        let file = a.home.path + "/tasks.json"
        #expect(a.run(["export", "--format", "taskwarrior", "-o", file]).status == 0)
        #expect(task.run("import", file).status == 0)
        let uuids = try ["ship it", "plain", "rename me"].map { try machines.uuid($0, on: a) }
        waitForTheNextSecond()

        #expect(task.run(uuids[0], "done").status == 0)
        #expect(task.run(uuids[0], "modify", "priority:H", "+release").status == 0)
        #expect(task.run(uuids[0], "annotate", "second").status == 0)
        #expect(task.run(uuids[1], "done").status == 0)
        #expect(task.run(uuids[1], "modify", "due:2027-01-05").status == 0)
        #expect(task.run(uuids[2], "modify", "renamed in task").status == 0)
        // Changed here after the task, in a later second (Taskwarrior's times have no less): this
        // text stays (the task's state still comes).
        waitForTheNextSecond()
        #expect(a.run("todo", "edit", try machines.id("plain", on: a), "plain, edited here").status == 0)

        let exported = task.run("export")
        #expect(exported.status == 0)
        let imported = a.run(["--json", "import", "-"], stdin: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == #"{"added":0,"updated":3,"unchanged":13}"# + "\n")
        let todos = try machines.todos(a)
        let shipped = try #require(todos.first { (try? $0.string("uuid")) == uuids[0] })
        #expect(try shipped.bool("done") && shipped.string("priority") == "H" && shipped.string("text") == "ship it")
        #expect(try shipped.array("tags") == [.string("ci"), .string("release")] && shipped.string("note") == "first\nsecond")
        let plain = try #require(todos.first { (try? $0.string("uuid")) == uuids[1] })
        #expect(try plain.string("text") == "plain, edited here" && plain.bool("done") && plain.string("due") == "2027-01-05")
        #expect(try todos.first { (try? $0.string("uuid")) == uuids[2] }?.string("text") == "renamed in task")

        let again = a.run(["--json", "import", "-"], stdin: exported.stdout)
        #expect(again.stdout == #"{"added":0,"updated":0,"unchanged":16}"# + "\n")
    }

    /// An issue title that retitles the terminal, and a note with ESC and BEL (as another
    /// machine's file may bring one), reach neither `task` nor todo-txt: what they print of
    /// doogit's exports has no control character.
    @Test(.enabled(if: installed("task") != nil && installed("todo-txt") != nil, "task or todo-txt is not on PATH"))
    func noExportChangesTheTerminalOfTheProgramThatReadsIt() throws {
        let task = try Taskwarrior(try #require(installed("task")))
        let todoTxt = try TodoTxt(try #require(installed("todo-txt")))
        let machine = try Sandbox()
        machine.github.addRepository(id: 1, name: "app", description: nil)
        machine.github.activity.addIssue(repository: 1, title: "\u{1B}]0;pwned\u{07}Fix the \u{1B}[31mbuild")
        #expect(machine.run("repo", "add", "octocat/app").status == 0)
        #expect(machine.run("repo", "set", "app", "--import-issues", "all").status == 0)
        #expect(machine.run("sync").status == 0)
        #expect(machine.run("todo", "add", "-R", "app", "with a note").status == 0)
        let database = try Database(path: machine.databasePath)
        try database.run("UPDATE todos SET note = ? WHERE text = 'with a note'", .text("ring\u{07}\u{1B}]2;title\u{07} me\r\nlater"))
        // A due date an older doogit took, which `task import` refuses (the whole file).
        try database.run("UPDATE todos SET due = '0001-01-01' WHERE text = 'with a note'")
        let raw = machine.run("todo", "list", "--json").stdout
        #expect(raw.contains(#"\u001b]0;pwned\u0007Fix"#) && raw.contains(#"ring\u0007"#), "doogit keeps text as it came: \(raw)")

        let tasks = machine.home.path + "/tasks.json"
        #expect(machine.run(["export", "--format", "taskwarrior", "-o", tasks]).status == 0)
        let imported = task.run("import", tasks)
        #expect(imported.status == 0, "\(imported.stderr)")
        for shown in [task.run("list"), task.run("1", "info"), task.run("2", "info"), task.run("export")] {
            #expect(shown.status == 0)
            #expect(!shown.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" } && !shown.stdout.contains("\\u00"),
                    "\(shown.stdout.debugDescription)")
        }
        #expect(task.run("list").stdout.contains("Fix the build"))

        #expect(machine.run(["export", "--format", "todotxt", "-o", todoTxt.todoFile]).status == 0)
        let listed = todoTxt.run("ls")
        #expect(listed.status == 0 && listed.stdout.contains("Fix the build"))
        #expect(!listed.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(listed.stdout.debugDescription)")
    }
}
