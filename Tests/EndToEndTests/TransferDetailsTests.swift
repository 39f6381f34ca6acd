import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A program on PATH, for the tests that check doogit's files with the real one.
private func installed(_ name: String) -> String? {
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
        #expect(try shipped.array("annotations").first?.string("description") == "line one\nline two")
        #expect(try shipped.string("due") == "20261224T110000Z")
        #expect(run("_get", try shipped.string("uuid") + ".due").stdout == "2026-12-24T00:00:00\n", "due that day where it is")
        let finished = try #require(tasks.first { (try? $0.string("description")) == "finished" })
        #expect(try finished.string("status") == "completed" && finished.string("priority") == "L")

        let back = b.run(["import", "-"], stdin: exported.stdout)
        #expect(back.status == 0 && back.stdout == "Imported 3 todos from standard input\n", "\(back.stderr)")
        #expect(try list(b) == list(a))
    }

    @Test(.enabled(if: installed("todo-txt") != nil, "todo-txt (todotxt-cli) is not on PATH (scripts/install-dependencies --for-tests installs it)"))
    func todoTxtListsTheExportAndItsOwnLinesImport() throws {
        let todoTxt = try #require(installed("todo-txt"))
        let machines = try Machines(2, remote: false)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run(["todo", "add", "-R", "app", "ship it", "--due", "2026-12-24", "--priority", "H", "--tag", "release"]).status == 0)
        #expect(a.run(["todo", "add", "-R", "app", "finished", "--priority", "M"]).status == 0)
        #expect(a.run("todo", "done", "2").status == 0)

        let folder = TemporaryDirectory()
        let config = try folder.write("config", """
            export TODO_DIR="\(folder.path)"
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"

            """)
        #expect(a.run(["export", "--format", "todotxt", "-o", folder.path + "/todo.txt"]).status == 0)
        _ = try folder.write("done.txt", "")
        func run(_ arguments: String...) -> ProcessResult {
            ChildProcess.run(todoTxt, ["-d", config, "-p"] + arguments, environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"])
        }
        let today = String(Timestamp.now().rfc3339.prefix(10))  // the export writes days of UTC
        #expect(run("listpri", "A").stdout.hasPrefix("1 (A) \(today) ship it due:2026-12-24 @release +octocat/app\n"))
        #expect(run("lsc").stdout == "@release\n")
        #expect(run("lsprj").stdout == "+octocat/app\n")
        #expect(run("ls", "pri:B").stdout.contains("x \(today) \(today) finished pri:B +octocat/app"))

        // What todo-txt itself writes: a priority it drops on completion, one past (C).
        #expect(run("add", "call the bank due:2027-01-02 @phone +app").status == 0)
        #expect(run("pri", "3", "D").status == 0)
        #expect(run("do", "1").status == 0)
        let lines = try String(contentsOfFile: folder.path + "/todo.txt", encoding: .utf8)
            + String(contentsOfFile: folder.path + "/done.txt", encoding: .utf8)
        let imported = b.run(["import", "-"], stdin: lines)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "doogit: warning: standard input: priorities past (C) imported as L, the lowest doogit has: (D) on line 1\n")
        let todos = try machines.todos(b)
        let bank = try #require(todos.first { (try? $0.string("text")) == "call the bank" })
        #expect(try bank.string("priority") == "L" && bank.string("due") == "2027-01-02" && bank.array("tags") == [.string("phone")])
        let shipped = try #require(todos.first { (try? $0.string("text")) == "ship it" })
        #expect(try shipped.bool("done") && shipped.array("tags") == [.string("release")] && shipped.string("due") == "2026-12-24")
        #expect(try todos.first { (try? $0.string("text")) == "finished" }?.string("priority") == "M")
    }
}
