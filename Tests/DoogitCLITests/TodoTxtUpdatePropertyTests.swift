import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The rule of a todo.txt line that comes back, for any todos (texts with words that read as
/// todo.txt's fields among them) and any changes made here since the export: importing the file
/// makes the todos what the file says, so their export reads as the file does; an export
/// imported back as it is changes nothing.
@Suite struct TodoTxtUpdatePropertyTests {
    static let words = ["fix", "the", "build", "@home", "due:2024-02-03", "+extra", "x", "(B)", "2023-01-02", "pri:C",
                        "uuid:nope", "key:value", "café", "😀", "+tools"]
    static let tags = ["ci", "Release", "home", "docs"]
    static let dues = ["2024-02-03", "2026-12-24", "2031-05-06"]

    static func text(_ random: inout SplitMix64) -> String {
        // A plain first word: a text that is nothing but fields reads back empty, which import refuses.
        (["plain"] + (0..<Int.random(in: 0...4, using: &random)).map { _ in words.randomElement(using: &random) ?? "x" })
            .joined(separator: " ")
    }

    static func details(_ random: inout SplitMix64) -> DetailsEdit {
        DetailsEdit(due: .some(Bool.random(using: &random) ? nil : dues.compactMap(CalendarDate.init(text:)).randomElement(using: &random)),
                    priority: .some([nil, .high, .medium, .low].randomElement(using: &random) ?? nil),
                    addTags: tags.filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
    }

    /// What a todo.txt file says of each todo, as the import reads it.
    static func said(_ file: String) throws -> [String] {
        try TodoTxtImport.read(Array(file.utf8)) { $0 == "octocat/tools" }.map { todo in
            let tags = Set(todo.details.addTags.map(TagSet.key)).sorted().joined(separator: ",")
            let priority = todo.details.priority.flatMap { $0 }?.rawValue ?? "-"
            let due = todo.details.due.flatMap { $0 }?.text ?? "-"
            return [todo.uuid, todo.done ? "done \(todo.doneAt?.rfc3339 ?? "")" : "open", todo.text, priority, due, tags,
                    todo.project ?? "-"].joined(separator: " | ")
        }.sorted()
    }

    @Test func importingTheFileMakesTheExportSayWhatTheFileSays() throws {
        var random = SplitMix64(seed: 0x70D0)
        for round in 0..<40 {
            let harness = CLIHarness()
            let store = try harness.openStore()
            try store.saveRepositories([Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
            var ids: [Int64] = []
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                let todo = try store.addTodo(repositoryID: 9, text: Self.text(&random), details: Self.details(&random), at: Fixture.t1)
                if Bool.random(using: &random) { _ = try store.setDone([todo.id], done: true, at: Fixture.t1) }
                ids.append(todo.id)
            }
            let file = harness.run("export", "--format", "todotxt").stdout
            let path = try harness.writeFile("todo.txt", file)
            harness.now = Fixture.t2
            let back = harness.run("--json", "import", path)
            #expect(back.stdout == #"{"added":0,"updated":0,"unchanged":\#(ids.count)}"# + "\n", "round \(round): \(file)")

            // Changes here after the export, of any field todo.txt carries.
            let later = Fixture.t3
            for id in ids where Bool.random(using: &random) {
                let before = try store.todo(id: id)
                var details = Self.details(&random)
                details.addTags = []
                details.removeTags = before.tags.filter { _ in Bool.random(using: &random) }
                details.addTags = Self.tags.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
                // A done line without a priority keeps the todo's (todo.sh's `do` drops it): no
                // priority is given to such a todo here, which the file could not take back.
                if before.done && before.priority == nil { details.priority = nil }
                _ = try store.editTodo(id: id, text: Bool.random(using: &random) ? Self.text(&random) : nil, details: details, at: later)
                if Bool.random(using: &random) { _ = try store.setDone([id], done: !before.done, at: later) }
            }
            let changed = harness.run("export", "--format", "todotxt").stdout
            harness.now = Timestamp(millisecondsSinceEpoch: later.millisecondsSinceEpoch + 60_000)
            let imported = harness.run("import", path)
            #expect(imported.code == 0, "round \(round): \(imported.stderr)")
            let now = try Self.said(harness.run("export", "--format", "todotxt").stdout), then = try Self.said(file)
            #expect(now == then, "round \(round): \(zip(now, then).filter { $0 != $1 })\nFILE\n\(file)\nCHANGED\n\(changed)\nAFTER\n\(harness.run("export", "--format", "todotxt").stdout)")
        }
    }
}
