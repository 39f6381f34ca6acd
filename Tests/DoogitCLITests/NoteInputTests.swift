import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// A todo's note as `--note` and `--note-file FILE|-` give it (lines kept, control characters
/// and byte-order marks left out, the text's limit), and as `todo show` and `--long` show it.
@Suite struct NoteInputTests {
    /// A harness with octocat/Hello-World and octocat/tools (id 9) tracked.
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([Fixture.helloWorld,
                                                  Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        return harness
    }

    func todo(_ harness: CLIHarness, _ id: Int64) throws -> TodoRecord { try harness.openStore().todo(id: id) }

    @Test func aNoteFromAFileOrStandardInputKeepsItsLinesWithoutControlCharacters() throws {
        let harness = try harness()
        let file = try harness.writeFile("note.txt", "\u{FEFF}\r\nfirst line\r\nsecond\u{1B}[31m line\r\n\r\n")
        let added = harness.run("todo", "add", "-R", "tools", "ship it", "--note-file", file)
        #expect(added.code == 0, "\(added.stderr)")
        #expect(try todo(harness, 1).note == "first line\nsecond line")
        harness.standardInput = "from\rstandard input\n"
        #expect(harness.run("todo", "edit", "1", "--note-file", "-").code == 0)
        #expect(try todo(harness, 1).note == "from\nstandard input")
        #expect(harness.run("todo", "edit", "1", "--note", "typed\u{07}\r\nnote").code == 0)
        #expect(try todo(harness, 1).note == "typed\nnote")
        let empty = try harness.writeFile("empty.txt", "\n\n")
        #expect(harness.run("todo", "edit", "1", "--note-file", empty).code == 0)
        #expect(try todo(harness, 1).note == nil, "a blank file clears the note")
    }

    @Test func aNoteHasTheTextsLimitAndABadNoteFileChangesNothing() throws {
        let harness = try harness()
        #expect(harness.run("todo", "add", "-R", "tools", "ship it").code == 0)
        let before = try harness.openStore().snapshot()
        let long = String(repeating: "n", count: 10_001)
        let typed = harness.run("todo", "edit", "1", "--note", long)
        #expect(typed.code == 2 && typed.errorLines.first == "doogit: error: the note is longer than 10000 characters. Run 'doogit help todo edit'.")
        let file = try harness.writeFile("long.txt", long)
        let read = harness.run("todo", "edit", "1", "--note-file", file)
        #expect(read.code == 1 && read.errorLines == ["doogit: error: the note in \(file) is longer than 10000 characters; shorten it; a note has a todo text's limit"], "\(read.stderr)")
        let missing = harness.run("todo", "edit", "1", "--note-file", "nowhere.txt")
        #expect(missing.code == 1 && missing.errorLines == ["doogit: error: cannot read nowhere.txt: No such file or directory; check the path"], "\(missing.stderr)")
        let both = harness.run("todo", "edit", "1", "--note", "x", "--note-file", file)
        #expect(both.code == 2 && both.errorLines.first == "doogit: error: --note and --note-file cannot be used together. Run 'doogit help todo edit'.")
        let clearing = harness.run("todo", "edit", "1", "--no-note", "--note-file", file)
        #expect(clearing.code == 2 && clearing.errorLines.first == "doogit: error: --note-file and --no-note cannot be used together. Run 'doogit help todo edit'.")
        let fromInput = harness.run("todo", "add", "-R", "tools", "-", "--note-file", "-")
        #expect(fromInput.code == 2 && fromInput.errorLines.first == "doogit: error: --note-file - would read the standard input that holds the todos; give the note with --note TEXT or --note-file FILE. Run 'doogit help todo add'.")
        #expect(try harness.openStore().snapshot() == before)
        #expect(harness.run("todo", "edit", "1", "--note", String(repeating: "n", count: 10_000)).code == 0)
    }

    /// A note written on another system (CRLF, or CR) shows as lines, in `todo show` and `--long`.
    @Test func aNoteWithOtherLineEndsShowsAsLines() throws {
        let harness = try harness()
        _ = try harness.openStore().addTodo(repositoryID: 9, text: "ship it", details: DetailsEdit(note: .some("one\r\ntwo\rthree")),
                                            at: Fixture.t1)
        let shown = harness.run("todo", "show", "1").stdout
        #expect(shown.contains("Note        one\n            two\n            three\n"), "\(shown)")
        let long = harness.run("todo", "list", "--long").stdout.split(separator: "\n").map { $0.trimmingSpaces }
        #expect(long.suffix(3) == ["one", "two", "three"], "\(long)")
    }
}
