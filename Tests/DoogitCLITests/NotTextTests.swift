@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Bytes that are not UTF-8 text, or NUL, are refused wherever text comes in (import of each
/// format from a file or standard input, `--note-file`, `--body-file`, `todo add -`, the
/// arguments), naming the file and line or the argument; nothing is added or changed. Nothing is
/// repaired into U+FFFD.
@Suite struct NotTextTests {
    /// A harness with octocat/Hello-World and octocat/tools (id 9) tracked, and one todo.
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld, Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        _ = try store.addTodo(repositoryID: 9, text: "ship it", at: Fixture.t1)
        return harness
    }

    /// Writes `bytes` to a file of the harness's folder.
    func write(_ harness: CLIHarness, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = harness.directory.path + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    static let latin1 = Array("2023-11-14 ship it +tools\n(A) call Jos".utf8) + [0xE9] + Array(" +tools\n".utf8)
    static let iconv = "convert it to UTF-8, e.g. with 'iconv -f latin1 -t utf-8"

    @Test func aLatin1TodoTxtFileIsRefusedNamingItsLine() throws {
        let harness = try harness()
        let before = try harness.openStore().snapshot()
        let file = try write(harness, "todo.txt", Self.latin1)
        let imported = harness.run("import", file)
        #expect(imported.code == 1 && imported.stdout.isEmpty)
        #expect(imported.errorLines == ["doogit: error: \(file) line 2 is not UTF-8 text (byte 0xE9 at column 13); \(Self.iconv) \(file) > converted.txt', and give that"])
        #expect(try harness.openStore().snapshot() == before, "nothing was imported")
    }

    @Test(arguments: ["todotxt", "taskwarrior", "doogit"])
    func everyFormatOnStandardInputIsRefusedNamingItsLine(format: String) throws {
        let harness = try harness()
        let before = try harness.openStore().snapshot()
        let exported = harness.run("export", "--format", format).stdout
        // A byte that is not UTF-8 in the last todo's text, as a Latin-1 editor would write "é".
        var bytes = Array(exported.utf8)
        let at = try #require(bytes.indices.last { bytes[$0] == UInt8(ascii: "t") && bytes[$0 - 1] == UInt8(ascii: "i") })
        bytes[at] = 0xE9
        let line = bytes[..<at].filter { $0 == 0x0A }.count + 1
        harness.standardInputBytes = bytes
        let imported = harness.run("import", "-", "--from", format)
        #expect(imported.code == 1)
        #expect(imported.errorLines.first?.hasPrefix("doogit: error: standard input line \(line) is not UTF-8 text (byte 0xE9 at column ") == true,
                "\(imported.stderr)")
        #expect(imported.stderr.hasSuffix("; convert it to UTF-8 on its way in, e.g. through 'iconv -f latin1 -t utf-8'\n"))
        #expect(try harness.openStore().snapshot() == before)
    }

    /// A binary file (it has NUL bytes) is no todo.txt: nothing of it is imported.
    @Test func aBinaryFileIsRefused() throws {
        let harness = try harness()
        let before = try harness.openStore().snapshot()
        let file = try write(harness, "doogit.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])
        let imported = harness.run("import", file)
        #expect(imported.code == 1)
        #expect(imported.errorLines == ["doogit: error: \(file) line 1 is not UTF-8 text (byte 0x89 at column 1); \(Self.iconv) \(file) > converted.txt', and give that"])
        let nul = try write(harness, "nul.txt", Array("first +tools\nsecond\u{0} +tools\n".utf8))
        let refused = harness.run("import", nul)
        #expect(refused.errorLines == ["doogit: error: \(nul) line 2 is not UTF-8 text (a NUL byte at column 7); a NUL byte is binary data, not text: give a text file"])
        #expect(try harness.openStore().snapshot() == before)
    }

    @Test func aNoteFileOrTodosOnStandardInputThatAreNotTextChangeNothing() throws {
        let harness = try harness()
        let before = try harness.openStore().snapshot()
        let note = try write(harness, "note.txt", Array("first\nJos".utf8) + [0xE9])
        let edited = harness.run("todo", "edit", "1", "--note-file", note)
        #expect(edited.code == 1 && edited.errorLines.first?.hasPrefix("doogit: error: \(note) line 2 is not UTF-8 text (byte 0xE9 at column 4); ") == true,
                "\(edited.stderr)")
        #expect(harness.run("todo", "add", "-R", "tools", "new", "--note-file", note).code == 1)
        harness.standardInputBytes = Array("fine\ncaf".utf8) + [0xE9] + Array("\n".utf8)
        let added = harness.run("todo", "add", "-R", "tools", "-")
        #expect(added.code == 1 && added.errorLines.first?.hasPrefix("doogit: error: standard input line 2 is not UTF-8 text (byte 0xE9 at column 4); ") == true,
                "\(added.stderr)")
        #expect(harness.run("todo", "edit", "1", "--note-file", "-").code == 1)
        #expect(harness.run("todo", "promote", "1", "--body-file", note).code == 1)
        #expect(try harness.openStore().snapshot() == before)
        #expect(harness.transport.requests.isEmpty, "nothing reached GitHub")
    }

    @Test func anArgumentThatIsNotUTF8IsAUsageErrorNamingIt() throws {
        let harness = try harness()
        let before = try harness.openStore().snapshot()
        let output = CapturingSink(), errors = CapturingSink()
        let console = Console(output: output, errors: errors, outputIsTerminal: false, errorsIsTerminal: false, width: nil)
        let arguments = [Array("todo".utf8), Array("add".utf8), Array("-R".utf8), Array("tools".utf8), Array("caf".utf8) + [0xE9]]
        let code = Doogit.run(commandLine: arguments, context: harness.context(console: console))
        #expect(code == 2 && output.text.isEmpty)
        #expect(errors.text == "doogit: error: argument 5 'caf\\xE9' is not UTF-8 text (byte 0xE9 at column 4); give it in UTF-8 (is the terminal's locale UTF-8?). Run 'doogit help'.\n")
        let nul = harness.run("todo", "add", "-R", "tools", "a\u{0}b")
        #expect(nul.code == 2 && nul.errorLines == ["doogit: error: argument 5 'a\\x00b' is not UTF-8 text (a NUL byte at column 2); leave it out. Run 'doogit help'."])
        #expect(try harness.openStore().snapshot() == before)
        let fine = Doogit.run(commandLine: arguments.dropLast() + [Array("café".utf8)], context: harness.context(console: console))
        #expect(fine == 0 && output.text == "Added 2 to octocat/tools\n")
    }

    /// Each reader refuses bytes that are not text by itself too, naming the line.
    @Test func theReadersRefuseBytesThatAreNotText() throws {
        #expect(throws: ImportFormatError(place: "line 2", reason: "not UTF-8 text (byte 0xE9 at column 13)")) {
            try TodoTxtImport.read(Self.latin1)
        }
        let task = #"{"uuid":"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c00","description":"caf"#
        #expect(throws: ImportFormatError(place: "line 2", reason: "not UTF-8 text (byte 0xE9 at column 66)")) {
            try TaskwarriorImport.read(Array("[\n\(task)".utf8) + [0xE9] + Array("\"}\n]\n".utf8))
        }
    }
}
