import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// What comes back to todos that are here already: a todo.txt line the export wrote, changed in
/// todo.txt, updates each field it says otherwise (stamped when imported); a Taskwarrior task
/// modified in the second of the change here is the later one. In-process; the real `todo-txt`
/// is in the end-to-end TodoTxtEndToEndTests.
@Suite struct ImportUpdateTests {
    /// A harness with octocat/Hello-World and octocat/tools (id 9) tracked.
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([Fixture.helloWorld,
                                                  Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        return harness
    }

    func todo(_ harness: CLIHarness, _ id: Int64) throws -> TodoRecord { try harness.openStore().todo(id: id) }

    static func day(_ text: String) throws -> CalendarDate { try #require(CalendarDate(text: text)) }

    static func at(_ milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: Fixture.t1.millisecondsSinceEpoch + milliseconds)
    }

    func counts(_ result: RunResult) throws -> [Int64] {
        let value = try JSONParser.parse(result.stdout)
        return try ["added", "updated", "unchanged"].map { try value.int64($0) }
    }

    /// The export's lines, each changed by `edit` (given the line and its todo's text).
    func exported(_ harness: CLIHarness, edit: (String) -> String) throws -> String {
        let lines = harness.run("export", "--format", "todotxt").stdout.split(separator: "\n").map { edit(String($0)) }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aTodoTxtLineSaidOtherwiseUpdatesEachFieldItSaysOtherwise() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let ship = try store.addTodo(repositoryID: 9, text: "ship it", details: DetailsEdit(
            due: .some(try Self.day("2026-12-24")), priority: .some(.low), addTags: ["ci", "old"], note: .some("kept")), at: Fixture.t1)
        let plain = try store.addTodo(repositoryID: 9, text: "plain", at: Fixture.t1)
        let finished = try store.addTodo(repositoryID: 9, text: "finished", details: DetailsEdit(priority: .some(.high)), at: Fixture.t1)
        _ = try store.setDone([finished.id], done: true, at: Fixture.t1)
        let marked = try store.addTodo(repositoryID: 9, text: "marked in todo.sh", details: DetailsEdit(priority: .some(.medium)),
                                       at: Fixture.t1)
        let same = try store.addTodo(repositoryID: 9, text: "same @word", at: Fixture.t1)
        let file = try harness.writeFile("todo.txt", try exported(harness) { line in
            if line.contains(ship.uuid) {
                return "(A) 2023-11-14 ship it now due:2027-01-05 @CI @release +octocat/tools uuid:\(ship.uuid)"
            }
            if line.contains(plain.uuid) { return "x 2023-11-15 " + line }
            // Taken back by hand: the completion mark off, todo.txt's pri:A left.
            if line.contains(finished.uuid) { return line.replacingOccurrences(of: "x 2023-11-14 ", with: "") }
            // As todo.sh's `do` writes it: the (B) dropped.
            if line.contains(marked.uuid) { return "x 2023-11-16 " + line.replacingOccurrences(of: "(B) ", with: "") }
            return line
        })
        harness.now = Timestamp(millisecondsSinceEpoch: Fixture.t1.millisecondsSinceEpoch + 3 * 86_400_000)
        let imported = harness.run("--json", "import", file)
        #expect(imported.code == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(try counts(imported) == [0, 4, 1])

        let shipped = try todo(harness, ship.id)
        #expect(shipped.text == "ship it now" && shipped.priority == .high && shipped.due?.text == "2027-01-05" && !shipped.done)
        #expect(shipped.tags.sorted() == ["ci", "release"] && shipped.note == "kept", "tags one by one; the note has no place")
        let done = try todo(harness, plain.id)
        #expect(done.done && done.doneAt == Timestamp(rfc3339: "2023-11-15T00:00:00Z") && done.text == "plain")
        let reopened = try todo(harness, finished.id)
        #expect(!reopened.done && reopened.priority == .high && reopened.text == "finished")
        let markedDone = try todo(harness, marked.id)
        #expect(markedDone.done && markedDone.priority == .medium, "a done line without a priority keeps the todo's")
        #expect(try todo(harness, same.id).text == "same @word", "a word read as a field on both sides is no change")
        // Each change is this machine's, stamped when imported: it travels and wins over older ones.
        let entry = try #require(try store.entry(uuid: ship.uuid)?.entry)
        for stamp in [entry.text.stamp, entry.details.priority.stamp, entry.details.due.stamp] {
            #expect(stamp.wall == harness.now.millisecondsSinceEpoch)
        }
        #expect(try counts(harness.run("--json", "import", file)) == [0, 0, 5], "what came is here: nothing changes twice")
    }

    @Test func aTodoTxtExportImportedBackChangesNothingAndALineWithoutAFieldClearsIt() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let todo = try store.addTodo(repositoryID: 9, text: "ship it", details: DetailsEdit(
            due: .some(try Self.day("2026-12-24")), priority: .some(.medium), addTags: ["ci"]), at: Fixture.t1)
        let before = try store.snapshot()
        let back = try harness.writeFile("back.txt", try exported(harness) { $0 })
        #expect(try counts(harness.run("--json", "import", back)) == [0, 0, 1])
        #expect(try store.snapshot() == before)
        let bare = try harness.writeFile("bare.txt", "2023-11-14 ship it +octocat/tools uuid:\(todo.uuid)\n")
        #expect(try counts(harness.run("--json", "import", bare)) == [0, 1, 0])
        let after = try self.todo(harness, todo.id)
        #expect(after.due == nil && after.priority == nil && after.tags.isEmpty && after.repositoryID == 9)
        let elsewhere = try harness.writeFile("moved.txt", "2023-11-14 ship it +Hello-World uuid:\(todo.uuid)\n")
        #expect(try counts(harness.run("--json", "import", elsewhere)) == [0, 0, 1])
        #expect(try self.todo(harness, todo.id).repositoryID == 9, "the repository stays: todo move moves it")
    }

    /// Taskwarrior keeps seconds: a task modified at 12:00:05 after a change here at 12:00:05.300
    /// is not older, and its values that differ come; one modified in an earlier second is.
    @Test func aTaskModifiedInTheSecondOfTheChangeHereIsTheLaterOne() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let todo = try store.addTodo(repositoryID: 9, text: "ship it", details: DetailsEdit(priority: .some(.low)), at: Self.at(300))
        func task(modified: Timestamp, priority: String) throws -> String {
            try harness.writeFile("task-\(priority).json", """
                {"uuid":"\(todo.uuid)","description":"ship it","status":"pending","modified":"\(TaskwarriorImport.text(modified))","project":"tools","priority":"\(priority)"}

                """)
        }
        harness.now = Self.at(60_000)
        let earlier = harness.run("--json", "import", try task(modified: Self.at(-1000), priority: "M"))
        #expect(try counts(earlier) == [0, 0, 1] && self.todo(harness, todo.id).priority == .low)
        let sameSecond = harness.run("--json", "import", try task(modified: Self.at(0), priority: "H"))
        #expect(try counts(sameSecond) == [0, 1, 0], "\(sameSecond.stderr)")
        #expect(try self.todo(harness, todo.id).priority == .high)
    }
}
