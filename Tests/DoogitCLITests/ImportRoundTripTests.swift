import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Exports that come back: imported where they came from they add nothing, a Taskwarrior task
/// changed since brings its changes, and a todo.txt line without a UUID is recognised by its
/// content. In-process; the real `task` and `todo-txt` are in the end-to-end TransferDetailsTests
/// and TodoTxtEndToEndTests.
@Suite struct ImportRoundTripTests: ImportSuite {
    // MARK: Taskwarrior's changes

    @Test func aTaskChangedAfterTheTodoBringsEveryFieldThatDiffersAndAFieldChangedHereLaterStays() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let ship = try store.addTodo(repositoryID: 9, text: "ship it", details: DetailsEdit(
            due: .some(try Self.day("2026-12-24")), priority: .some(.low), addTags: ["ci", "old"], note: .some("first")), at: Fixture.t1)
        let kept = try store.addTodo(repositoryID: 9, text: "kept", details: DetailsEdit(priority: .some(.low)), at: Fixture.t1)
        let same = try store.addTodo(repositoryID: 9, text: "same", at: Fixture.t1)
        // Edited here an hour after the task changed in Taskwarrior: this text stays.
        _ = try store.editTodo(id: kept.id, text: "kept as edited here", at: Self.later(7200))
        let modified = TaskwarriorImport.text(Self.later(3600))
        let due = TaskwarriorImport.text(try #require(try Self.day("2027-01-05").localStart))
        let file = try harness.writeFile("tasks.json", """
            [
            {"uuid":"\(ship.uuid)","description":"ship it now","status":"completed","entry":"20231114T221420Z","end":"\(modified)","modified":"\(modified)","project":"octocat/tools","priority":"H","tags":["ci","release"],"due":"\(due)","annotations":[{"entry":"20231114T221420Z","description":"first"},{"entry":"\(modified)","description":"second"}]},
            {"uuid":"\(kept.uuid)","description":"kept in Taskwarrior","status":"pending","entry":"20231114T221420Z","modified":"\(modified)","project":"octocat/tools","priority":"M"},
            {"uuid":"\(same.uuid)","description":"same","status":"pending","entry":"20231114T221420Z","modified":"\(modified)","project":"octocat/tools"}
            ]

            """)
        harness.now = Self.later(10_800)
        let imported = harness.run("--json", "import", file)
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(try counts(imported) == [0, 2, 1])

        let shipped = try todo(harness, ship.id)
        #expect(shipped.text == "ship it now" && shipped.done && shipped.doneAt == Self.later(3600))
        #expect(shipped.priority == .high && shipped.tags == ["ci", "release"] && shipped.due?.text == "2027-01-05")
        #expect(shipped.note == "first\nsecond")
        let edited = try todo(harness, kept.id)
        #expect(edited.text == "kept as edited here", "changed here after the task: this machine's text stays")
        #expect(edited.priority == .medium && !edited.done, "the priority changed in Taskwarrior only")
        #expect(try todo(harness, same.id).text == "same")
        // Each change is this machine's, stamped when imported: it travels and wins over older ones.
        let entry = try #require(try store.entry(uuid: ship.uuid)?.entry)
        let tagStamps = entry.details.tags.states.values.filter { $0.stamp.wall >= Self.later(10_800).millisecondsSinceEpoch }
        #expect(!tagStamps.isEmpty, "the tags changed in Taskwarrior, each stamped")
        for stamp in [entry.text.stamp, entry.done.stamp, entry.details.priority.stamp, entry.details.due.stamp,
                      entry.details.note.stamp] + tagStamps.map(\.stamp) {
            #expect(stamp.wall == Self.later(10_800).millisecondsSinceEpoch)
        }

        let again = harness.run("--json", "import", file)
        #expect(try counts(again) == [0, 0, 3], "what came is here: nothing changes twice")
        let said = harness.run("import", file)
        #expect(said.stdout == "Imported 0 todos from \(file) (3 already here)\n")
    }

    @Test func aTaskNotChangedSinceTheTodoChangesNothing() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let todo = try store.addTodo(repositoryID: 9, text: "ship it", details: DetailsEdit(priority: .some(.low)), at: Fixture.t1)
        // Changed here after the task was last modified: every field of the task is older.
        _ = try store.editTodo(id: todo.id, text: nil, details: DetailsEdit(priority: .some(.high)), at: Self.later(60))
        _ = try store.setDone([todo.id], done: true, at: Self.later(60))
        _ = try store.setDone([todo.id], done: false, at: Self.later(90))
        let file = try harness.writeFile("tasks.json", """
            {"uuid":"\(todo.uuid)","description":"ship it","status":"completed","modified":"\(TaskwarriorImport.text(Self.later(30)))","project":"tools","priority":"L"}

            """)
        let imported = harness.run("--json", "import", file)
        #expect(try counts(imported) == [0, 0, 1])
        let after = try self.todo(harness, todo.id)
        #expect(after.priority == .high && !after.done)
    }

    /// A todo's text as it came from GitHub, with an escape sequence, is written cleaned; a task
    /// changed since whose description is that cleaned text leaves the text as it was.
    @Test func aDifferenceThatIsOnlyTheExportsCleaningIsNoChange() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let raw = "Ship \u{1B}]0;pwned\u{07}it"
        let todo = try store.addTodo(repositoryID: 9, text: raw, details: DetailsEdit(note: .some("one\u{1B}[31m\r\ntwo")),
                                     at: Fixture.t1)
        let exported = harness.run("export", "--format", "taskwarrior")
        #expect(exported.stdout.contains(#""description":"Ship it""#) && exported.stdout.contains(#""description":"one"},"#),
                "\(exported.stdout)")
        let changed = exported.stdout
            .replacingOccurrences(of: #""status":"pending""#, with: #""status":"completed""#)
            .replacingOccurrences(of: TaskwarriorImport.text(Fixture.t1) + "\",\"project", with: TaskwarriorImport.text(Self.later(60)) + "\",\"project")
        #expect(changed.contains(TaskwarriorImport.text(Self.later(60))))
        let file = try harness.writeFile("tasks.json", changed)
        harness.now = Self.later(120)
        let imported = harness.run("--json", "import", file)
        #expect(try counts(imported) == [0, 1, 0])
        let after = try self.todo(harness, todo.id)
        #expect(after.done && after.text == raw && after.note == "one\u{1B}[31m\r\ntwo", "only the state changed")
    }

    // MARK: Exports imported back

    @Test(arguments: ["doogit", "todotxt", "taskwarrior"])
    func anExportImportedBackWhereItCameFromAddsNothing(format: String) throws {
        let harness = try harness()
        let store = try harness.openStore()
        _ = try store.addTodo(repositoryID: 9, text: "ship it", details: DetailsEdit(
            due: .some(try Self.day("2026-12-24")), priority: .some(.high), addTags: ["ci"], note: .some("a\nb")), at: Fixture.t1)
        _ = try store.addTodo(repositoryID: 9, text: "title \u{1B}[2Jfrom GitHub", at: Fixture.t1)
        let done = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "finished", at: Fixture.t1)
        _ = try store.setDone([done.id], done: true, at: Fixture.t2)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "twice", at: Fixture.t1)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "twice", at: Fixture.t1)
        let before = try store.snapshot()
        let file = harness.directory.path + "/export"
        #expect(harness.run("export", "--format", format, "-o", file).code == 0)
        harness.now = Self.later(600)
        let imported = harness.run("--json", "import", file)
        #expect(imported.code == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(try counts(imported) == [0, 0, 5])
        #expect(try store.snapshot() == before)
    }

    // MARK: todo.txt lines without a UUID

    @Test func aTodoTxtLineWithoutAUUIDIsRecognisedByRepositoryTextAndCreationDay() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let bank = try store.addTodo(repositoryID: 9, text: "call the bank", at: Fixture.t0)  // made 2023-11-14 (UTC)
        let file = try harness.writeFile("todo.txt", """
            x 2023-11-15 2023-11-14 call  the bank @phone +octocat/tools
            2023-11-14 call the bank +tools
            2023-11-15 call the bank +tools
            2023-11-14 call the bank +Hello-World
            call the bank +tools

            """)
        let imported = harness.run("--json", "import", file)
        #expect(imported.code == 0)
        #expect(try counts(imported) == [4, 0, 1], "one line for the one todo here; a second line alike is a second todo")
        #expect(imported.errorLines == ["doogit: \(file): skipped 1 line without a uuid: word that is a todo here already (the same repository, text and creation date): line 1"])
        let after = try todo(harness, bank.id)
        #expect(!after.done && after.tags.isEmpty, "a recognised line changes nothing")
        #expect(try store.sections().flatMap(\.todos).count == 5)
        // The lines added have their UUIDs: the same file again adds nothing.
        #expect(try counts(harness.run("--json", "import", file)) == [0, 0, 5])
    }

    @Test func theNoteNamesAFewOfTheLinesSkipped() {
        #expect(ForeignImport.recognisedNote([], in: "f") == nil)
        #expect(ForeignImport.recognisedNote((1...5).map { "line \($0)" }, in: "f")
                == "f: skipped 5 lines without a uuid: word that are todos here already (the same repository, text and creation date): line 1, line 2, line 3 and 2 more")
    }

    @Test func theTodoTxtExportWritesEachUUIDAndItsImportKeepsIt() throws {
        let source = try harness()
        let todo = try source.openStore().addTodo(repositoryID: 9, text: "ship it", at: Fixture.t1)
        let exported = source.run("export", "--format", "todotxt").stdout
        #expect(exported == "2023-11-14 ship it +octocat/tools uuid:\(todo.uuid)\n")
        let target = try harness()
        let file = try target.writeFile("todo.txt", exported.replacingOccurrences(of: todo.uuid, with: todo.uuid.uppercased()))
        #expect(target.run("import", file).code == 0)
        let imported = try #require(try target.openStore().sections().flatMap(\.todos).first)
        #expect(imported.uuid == todo.uuid && imported.text == "ship it")
        // A word uuid: that is no UUID stays in the text.
        let other = try target.writeFile("other.txt", "keep uuid:nope +tools\n")
        #expect(target.run("import", other).code == 0)
        #expect(try target.openStore().sections().flatMap(\.todos).contains { $0.text == "keep uuid:nope" })
    }
}
