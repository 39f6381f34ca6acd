import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Files from and for other programs as text: a byte-order mark is read as if there were none,
/// no export carries a control character, and what is beyond doogit's limits (a note too long, a
/// due date outside the years 1970 to 9999) neither comes in nor goes out.
@Suite struct ImportExportTextTests: ImportSuite {
    // MARK: Byte-order marks

    @Test func aTodoTxtFileWithAByteOrderMarkKeepsItsFirstLinesPriority() throws {
        let harness = try harness()
        let file = try harness.writeFile("todo.txt", "\u{FEFF}(A) 2023-11-10 first +tools\n(B) second +tools\n")
        let imported = harness.run("import", file)
        #expect(imported.code == 0, "\(imported.stderr)")
        let todos = try harness.openStore().sections().flatMap(\.todos)
        #expect(todos.map(\.text).sorted() == ["first", "second"])
        #expect(todos.first { $0.text == "first" }?.priority == .high)
        // Standard input alike.
        let other = try self.harness()
        other.standardInput = "\u{FEFF}(B) 2023-11-10 third +tools\n"
        #expect(other.run("import", "-").code == 0)
        #expect(try other.openStore().sections().flatMap(\.todos).map { "\($0.text) \($0.priority?.rawValue ?? "-")" } == ["third M"])
    }

    static let task = #"[{"uuid":"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01","description":"Ship it","status":"pending","project":"tools"}]"#

    @Test(arguments: ["utf-8", "utf-16le", "utf-16be"])
    func aTaskwarriorFileWithAByteOrderMarkIsTakenForTaskwarrior(encoding: String) throws {
        let harness = try harness()
        let text = "\u{FEFF}" + Self.task + "\n"
        let bytes: [UInt8]
        switch encoding {
        case "utf-8": bytes = Array(text.utf8)
        case "utf-16le": bytes = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        default: bytes = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        let file = harness.directory.path + "/tasks.json"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(ImportFormat.detect(ByteOrderMark.utf8(bytes)) == .taskwarrior)
        let imported = harness.run("import", file)
        #expect(imported.code == 0, "\(imported.stderr)")
        let todos = try harness.openStore().sections().flatMap(\.todos)
        #expect(todos.map(\.uuid) == ["5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01"] && todos.map(\.text) == ["Ship it"])
    }

    @Test func aDoogitFileWithAByteOrderMarkIsTakenForDoogits() throws {
        let source = try harness()
        _ = try source.openStore().addTodo(repositoryID: 9, text: "ship it", at: Fixture.t1)
        let file = try source.writeFile("export.jsonl", "\u{FEFF}" + source.run("export").stdout)
        let target = CLIHarness()
        let imported = target.run("import", file)
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(try target.openStore().sections().flatMap(\.todos).map(\.text) == ["ship it"])
    }

    // MARK: Control characters

    /// Everything another program shows of an export: no control character, raw or escaped.
    @Test(arguments: ["todotxt", "taskwarrior"])
    func noExportCarriesAControlCharacter(format: String) throws {
        let harness = try harness()
        let store = try harness.openStore()
        let todo = try store.addTodo(repositoryID: 9, text: "Ship \u{1B}]0;pwned\u{07}it\u{9B}31m \u{202E}now", details: DetailsEdit(
            addTags: ["a\u{202E}b", "c\u{9F}"], note: .some("bell\u{07} \u{1B}[2Jclear\r\nline\ttwo\u{0B}three")), at: Fixture.t1)
        let exported = harness.run("export", "--format", format).stdout
        #expect(!exported.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(exported.debugDescription)")
        #expect(!exported.contains("\\u00") && !exported.contains("\\t") && !exported.contains("\\r") && !exported.contains("\\n"))
        if format == "taskwarrior" {
            let task = try #require(try JSONParser.parse(exported).arrayValue?.first)
            #expect(try task.string("description") == "Ship it now")
            #expect(try task.array("tags") == [.string("ab"), .string("c")])
            #expect(try task.array("annotations").map { try $0.string("description") } == ["bell clear", "line two", "three"])
        } else {
            #expect(exported == "2023-11-14 Ship it now @ab @c +octocat/tools uuid:\(todo.uuid)\n")
        }
    }

    // MARK: What another program's file brings

    @Test func aTaskwarriorNoteLongerThanTheLimitIsABadTask() throws {
        let harness = try harness()
        let line = String(repeating: "n", count: 6000)
        let file = try harness.writeFile("tasks.json", """
            {"uuid":"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01","description":"x","project":"tools","annotations":[{"description":"\(line)"},{"description":"\(line)"}]}

            """)
        let refused = harness.run("import", file)
        #expect(refused.code == 1 && refused.errorLines == ["doogit: error: \(file), line 1: the annotations, the todo's note, are longer than 10000 characters; nothing was imported"])
    }

    @Test func aDueDateOutsideTheYears1970To9999NeitherComesInNorGoesOut() throws {
        let harness = try harness()
        let tasks = try harness.writeFile("tasks.json", """
            {"uuid":"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01","description":"x","project":"tools","due":"00010101T000000Z"}

            """)
        let refused = harness.run("import", tasks)
        #expect(refused.code == 1 && refused.errorLines == ["doogit: error: \(tasks), line 1: \"due\" is not a date of the years 1970 to 9999; nothing was imported"])
        let lines = try harness.writeFile("todo.txt", "call due:0001-01-01 +tools\nwrite due:1970-01-01 +tools\n")
        #expect(harness.run("import", lines).code == 0)
        let todos = try harness.openStore().sections().flatMap(\.todos)
        #expect(todos.map { "\($0.text) \($0.due?.text ?? "-")" }.sorted() == ["call due:0001-01-01 -", "write 1970-01-01"])

        // One in the database already (an older doogit took it) is not written for another program.
        let store = try harness.openStore()
        let old = try store.addTodo(repositoryID: 9, text: "ancient", details: DetailsEdit(due: .some(try Self.day("0001-01-01"))),
                                    at: Fixture.t1)
        #expect(!harness.run("export", "--format", "taskwarrior").stdout.contains(#""due":"0"#))
        #expect(harness.run("export", "--format", "todotxt").stdout.contains("ancient +octocat/tools uuid:\(old.uuid)"))
    }
}

extension JSONValue {
    var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}
