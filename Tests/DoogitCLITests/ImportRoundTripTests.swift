import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Files as other programs and systems write them: with a byte-order mark, they read as without.
@Suite struct ImportRoundTripTests {
    /// A harness with octocat/Hello-World and octocat/tools (id 9) tracked.
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([Fixture.helloWorld,
                                                  Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        return harness
    }

    func todo(_ harness: CLIHarness, _ id: Int64) throws -> TodoRecord { try harness.openStore().todo(id: id) }

    static func day(_ text: String) throws -> CalendarDate { try #require(CalendarDate(text: text)) }

    /// A moment `seconds` after Fixture.t1.
    static func later(_ seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: Fixture.t1.millisecondsSinceEpoch + seconds * 1000)
    }

    func counts(_ result: RunResult) throws -> [Int64] {
        let value = try JSONParser.parse(result.stdout)
        return try ["added", "updated", "unchanged"].map { try value.int64($0) }
    }

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
}
