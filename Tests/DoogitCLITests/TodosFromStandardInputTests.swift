import DoogitSupport
import Foundation
import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// Todos added from standard input, one a line: all or nothing, and told how to end at a terminal.
@Suite struct TodosFromStandardInputTests: DailyUseSuite {
    @Test func addReadsOneTodoPerLineFromStandardInput() throws {
        let harness = try harness()
        harness.standardInput = "first\n\n   \n  second todo  \r\nthird\n"
        let added = harness.run("todo", "add", "-R", "widgets", "-")
        #expect(added.code == 0)
        #expect(added.stdout == "Added 3 todos to acme/widgets: 4-6\n")
        #expect(try texts(harness)["acme/widgets"] == ["ship it", "first", "second todo", "third"])
        harness.standardInput = "only\n"
        #expect(harness.run("add", "-R", "widgets", "-").stdout == "Added 7 to acme/widgets\n")
        harness.standardInput = "a\nb"
        let json = harness.run("add", "-R", "widgets", "-", "--json").stdout
        #expect(json.hasPrefix("[{\"id\":8,"), "always an array: \(json)")
    }

    @Test func addFromStandardInputIsAllOrNothing() throws {
        let harness = try harness()
        let before = try texts(harness)
        harness.standardInput = "fine\n" + String(repeating: "x", count: 10_001) + "\nalso fine\n"
        let long = harness.run("todo", "add", "-R", "widgets", "-")
        expectUsageError(long, topic: "todo add")
        #expect(long.stderr.contains("line 2 of standard input: the todo text is longer than 10000 characters"))
        harness.standardInput = "\n  \n\t\n"
        let blank = harness.run("todo", "add", "-R", "widgets", "-")
        expectUsageError(blank, topic: "todo add")
        #expect(blank.stderr.contains("no todos on standard input"))
        harness.standardInput = "ok\n\u{1B}[2J\u{07}\n"
        #expect(harness.run("todo", "add", "-R", "widgets", "-").stderr.contains("line 2 of standard input: the todo text is empty"))
        #expect(try texts(harness) == before, "nothing was added")
        #expect(try harness.openStore().sections().flatMap(\.todos).map(\.id).max() == 3)
    }

    @Test func typingTodosAtATerminalSaysHowToEnd() throws {
        let harness = try harness()
        harness.standardInputIsTerminal = true
        harness.standardInput = "typed\n"
        let added = harness.run("todo", "add", "-R", "widgets", "-")
        #expect(added.stderr == "doogit: reading todos from standard input, one a line; end with Ctrl-D\n")
        #expect(added.stdout == "Added 4 to acme/widgets\n")
    }
}
