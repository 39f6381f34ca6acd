import DoogitSupport
import Foundation
import Testing
import TestSupport

/// What the built binary takes as text, from a shell: arguments and standard input that are not
/// UTF-8 are refused before anything is added, and `todo add -` gives every line the options.
@Suite struct TextInputEndToEndTests {
    /// Runs doogit from `sh -c SCRIPT`, where `"$0"` is the binary: printf writes the bytes that
    /// no Swift string can hold.
    func shell(_ machine: Sandbox, _ script: String) -> ProcessResult {
        ChildProcess.run("/bin/sh", ["-c", script, DoogitBinary.path], environment: machine.environment, directory: machine.home.path)
    }

    @Test func anArgumentOrAnInputThatIsNotUTF8AddsNothing() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        let before = try machine.snapshot()
        let argument = shell(machine, #""$0" todo add -R app "$(printf 'caf\351')""#)
        #expect(argument.status == 2 && argument.stdout.isEmpty)
        #expect(argument.stderr == "doogit: error: argument 5 'caf\\xE9' is not UTF-8 text (byte 0xE9 at column 4); give it in UTF-8 (is the terminal's locale UTF-8?). Run 'doogit help'.\n")
        let input = shell(machine, #"printf 'fine\ncaf\351\n' | "$0" todo add -R app -"#)
        #expect(input.status == 1)
        #expect(input.stderr == "doogit: error: standard input line 2 is not UTF-8 text (byte 0xE9 at column 4); convert it to UTF-8 on its way in, e.g. through 'iconv -f latin1 -t utf-8'\n")
        #expect(try machine.snapshot() == before)

        let converted = shell(machine, #"printf 'fine\ncaf\351\n' | iconv -f latin1 -t utf-8 | "$0" todo add -R app -"#)
        #expect(converted.status == 0 && converted.stdout == "Added 2 todos to octocat/app: 1 2\n", "\(converted.stderr)")
        #expect(try machines.list(machine) == ["octocat/app: fine, café"])
    }

    /// A variable that is not UTF-8 would name another repository or folder if repaired: it is
    /// as if unset.
    @Test func aVariableThatIsNotUTF8IsAsIfUnset() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        let named = shell(machine, #"GH_REPO="$(printf 'octocat/ap\377')" exec "$0" todo add fix it"#)
        #expect(named.status == 2 && named.stderr.hasPrefix("doogit: error: no repository given, and this directory is not a git checkout"),
                "\(named.stderr)")
        #expect(shell(machine, #"GH_REPO=octocat/app exec "$0" todo add fix it"#).status == 0)
    }

    @Test func todosFromStandardInputTakeTheDetailOptions() throws {
        let machines = try Machines(1, remote: false)
        let machine = machines[0]
        let added = machine.run(["todo", "add", "-R", "app", "-", "--due", "2031-05-06", "--priority", "H", "--tag", "release",
                                 "--note", "for the launch"], stdin: "write the notes\ntag v1 +now\n")
        #expect(added.status == 0 && added.stdout == "Added 2 todos to octocat/app: 1 2\n", "\(added.stderr)")
        let todos = try machines.todos(machine)
        #expect(try todos.map { try $0.string("text") } == ["write the notes", "tag v1 +now"], "a line's words are its text")
        for todo in todos {
            #expect(try todo.string("due") == "2031-05-06" && todo.string("priority") == "H" && todo.string("note") == "for the launch")
            #expect(try todo.array("tags") == [.string("release")])
        }
        let before = try machine.snapshot()
        let twice = machine.run(["todo", "add", "-R", "app", "-", "--due", "2031-05-06", "--due", "tomorrow"], stdin: "one\n")
        #expect(twice.status == 2 && twice.stderr.contains("'--due 2031-05-06' and '--due tomorrow' are two different due dates"))
        #expect(try machine.snapshot() == before)
    }
}
