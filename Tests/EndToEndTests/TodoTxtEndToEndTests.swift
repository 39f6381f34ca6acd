import DoogitSupport
import Foundation
import Testing
import TestSupport

/// todo-txt (todo.sh) with its files in a temporary folder, plain output.
struct TodoTxt {
    let path: String
    let folder = TemporaryDirectory()
    let config: String

    init(_ path: String) throws {
        self.path = path
        config = try folder.write("config", """
            export TODO_DIR="\(folder.path)"
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"

            """)
        _ = try folder.write("done.txt", "")
    }

    var todoFile: String { folder.path + "/todo.txt" }

    /// todo.txt and done.txt, as one file.
    func lines() throws -> String {
        try String(contentsOfFile: folder.path + "/todo.txt", encoding: .utf8)
            + String(contentsOfFile: folder.path + "/done.txt", encoding: .utf8)
    }

    @discardableResult
    func run(_ arguments: String...) -> ProcessResult {
        ChildProcess.run(path, ["-d", config, "-p"] + arguments, environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"])
    }
}

/// doogit's todo.txt export as the real todo-txt (todo.sh) reads and changes it, and todo-txt's
/// file imported back.
@Suite(.serialized) struct TodoTxtEndToEndTests {
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
        #expect(run("listpri", "A").stdout.hasPrefix("1 (A) \(today) ship it due:2026-12-24 @release +octocat/app uuid:\(try machines.uuid("ship it", on: a))\n"))
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

    /// todo-txt keeps the `uuid:` word of each line, so the file comes back adding only what was
    /// added in todo-txt; an export without UUIDs (an older doogit's) is recognised by
    /// repository, text and creation date, and the lines skipped are named.
    @Test(.enabled(if: installed("todo-txt") != nil, "todo-txt (todotxt-cli) is not on PATH (scripts/install-dependencies --for-tests installs it)"))
    func aTodoTxtExportImportedBackAddsOnlyWhatTodoTxtAdded() throws {
        let todoTxt = try TodoTxt(try #require(installed("todo-txt")))
        let machines = try Machines(1, remote: false)
        let a = machines[0]
        #expect(a.run(["todo", "add", "-R", "app", "ship it", "--priority", "H", "--tag", "release"]).status == 0)
        #expect(a.run("todo", "add", "-R", "app", "plain").status == 0)
        #expect(a.run(["export", "--format", "todotxt", "-o", todoTxt.todoFile]).status == 0)
        #expect(todoTxt.run("ls").stdout.contains("uuid:\(try machines.uuid("ship it", on: a))"))
        #expect(todoTxt.run("do", "2").status == 0)
        #expect(todoTxt.run("add", "from todo-txt +app").status == 0)

        let imported = a.run(["--json", "import", "-"], stdin: try todoTxt.lines())
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(imported.stdout == #"{"added":1,"updated":1,"unchanged":1}"# + "\n")
        #expect(try machines.list(a) == ["octocat/app: ship it, from todo-txt, plain [done]"])

        let older = try todoTxt.lines().replacingOccurrences(of: #" uuid:[0-9a-f-]{36}"#, with: "", options: .regularExpression)
        let recognised = a.run(["--json", "import", "-"], stdin: older)
        #expect(recognised.stdout == #"{"added":0,"updated":0,"unchanged":3}"# + "\n", "\(older)")
        #expect(recognised.stderr == "doogit: standard input: skipped 2 lines without a uuid: word that are todos here already (the same repository, text and creation date): line 1, line 3\n")
    }

    /// What todo-txt's `do`, `pri`, `replace` (keeping the uuid: word) and `append` changed comes
    /// back, each field a change made here now; imported again, nothing changes.
    @Test(.enabled(if: installed("todo-txt") != nil, "todo-txt (todotxt-cli) is not on PATH (scripts/install-dependencies --for-tests installs it)"))
    func whatTodoTxtChangedComesBack() throws {
        let todoTxt = try TodoTxt(try #require(installed("todo-txt")))
        let machines = try Machines(1, remote: false)
        let a = machines[0]
        for text in ["ship it", "plain", "rename me", "extend"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        #expect(a.run(["todo", "edit", "3", "--tag", "old"]).status == 0)
        #expect(a.run(["export", "--format", "todotxt", "-o", todoTxt.todoFile]).status == 0)
        let renamed = try machines.uuid("rename me", on: a)

        #expect(todoTxt.run("pri", "2", "A").status == 0)
        #expect(todoTxt.run("replace", "3", "renamed in todo-txt due:2027-01-05 @phone +octocat/app uuid:\(renamed)").status == 0)
        #expect(todoTxt.run("append", "4", "and more").status == 0)
        #expect(todoTxt.run("do", "1").status == 0)
        let lines = try todoTxt.lines()
        let imported = a.run(["--json", "import", "-"], stdin: lines)
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(imported.stdout == #"{"added":0,"updated":4,"unchanged":0}"# + "\n", "\(lines)")
        let todos = try machines.todos(a)
        func todo(_ text: String) throws -> JSONValue { try #require(todos.first { (try? $0.string("text")) == text }) }
        #expect(try todo("ship it").bool("done"))
        #expect(try todo("plain").string("priority") == "H")
        let moved = try todo("renamed in todo-txt")
        #expect(try moved.string("uuid") == renamed && moved.string("due") == "2027-01-05" && moved.array("tags") == [.string("phone")])
        #expect(try !todo("extend and more").bool("done"))

        let again = a.run(["--json", "import", "-"], stdin: lines)
        #expect(again.stdout == #"{"added":0,"updated":0,"unchanged":4}"# + "\n")
    }
}
