import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// The details of a todo (due date, priority, tags, note) through `doogit import` and `doogit
/// export`, in-process: Taskwarrior's fields, todo.txt's forms, and both round trips. (The due
/// date in zones far from UTC is in the end-to-end TransferDetailsTests, where TZ is the child's.)
@Suite struct ImportDetailsTests {
    /// A harness with octocat/Hello-World and octocat/tools tracked.
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([Fixture.helloWorld,
                                                  Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        return harness
    }

    func todos(_ harness: CLIHarness) throws -> [String: TodoRecord] {
        Dictionary(uniqueKeysWithValues: try harness.openStore().sections().flatMap(\.todos).map { ($0.text, $0) })
    }

    /// `todo list --json` without what another database numbers its own way: IDs, and UUIDs
    /// when `uuids` is false (todo.txt has none).
    func list(_ harness: CLIHarness, uuids: Bool = true) throws -> JSONValue {
        func strip(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array(let values): return .array(values.map(strip))
            case .object(let members):
                return .object(members.filter { $0.key != "id" && (uuids || $0.key != "uuid") }.map { JSONMember($0.key, strip($0.value)) })
            default: return value
            }
        }
        return strip(try JSONParser.parse(harness.run("todo", "list", "--json").stdout))
    }

    static func day(_ text: String) throws -> CalendarDate { try #require(CalendarDate(text: text)) }

    @Test func taskwarriorKeepsPriorityTagsDueAndAnnotations() throws {
        let harness = try harness()
        // Taskwarrior writes `due:2026-12-24` as that day's local midnight, in UTC.
        let due = TaskwarriorImport.text(try #require(try Self.day("2026-12-24").localStart))
        let file = try harness.writeFile("tasks.json", """
            [
            {"uuid":"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01","description":"Ship it","status":"pending","project":"tools","priority":"H","tags":["release","ci"],"due":"\(due)","annotations":[{"entry":"20231110T091500Z","description":"first"},{"entry":"20231111T091500Z","description":"second\\nand third"}]},
            {"uuid":"7a1d3c2b-6e5f-4a8b-b9c0-2d3e4f5a6b02","description":"Plain","status":"completed","end":"20231112T164000Z","project":"tools","priority":"L","tags":[]}
            ]

            """)
        let imported = harness.run("import", file)
        #expect(imported.code == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        let todos = try todos(harness)
        let shipped = try #require(todos["Ship it"])
        #expect(shipped.priority == .high && shipped.tags == ["ci", "release"] && shipped.due?.text == "2026-12-24")
        #expect(shipped.note == "first\nsecond\nand third")
        let plain = try #require(todos["Plain"])
        #expect(plain.priority == .low && plain.tags.isEmpty && plain.due == nil && plain.note == nil && plain.done)
        // The details are changes of this machine, stamped, and travel as registers.
        let entry = try #require(try harness.openStore().replica.read().replica.todos[shipped.uuid])
        #expect(entry.details.priority.value == .high && entry.details.priority.stamp != .zero)
        #expect(entry.details.tags.tags == ["ci", "release"] && entry.details.note.stamp != .zero)
    }

    @Test(arguments: [
        (#""tags":["fine","two words"]"#, "line 2: 'two words' is not a tag"),
        (#""tags":"release""#, "line 2: \"tags\" is not a list"),
        (#""priority":"X""#, "line 2: \"priority\" is not H, M or L: X"),
        (#""due":"tomorrow""#, "line 2: \"due\" is not a date: tomorrow"),
        (#""annotations":[{"entry":"20231110T091500Z"}]"#, "line 2: an annotation has no \"description\""),
    ])
    func aBadTaskwarriorDetailIsRefusedNamingItsLine(field: String, message: String) throws {
        let harness = try harness()
        let file = try harness.writeFile("bad.json", """
            [
            {"uuid":"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01","description":"x","status":"pending","project":"tools",\(field)}
            ]

            """)
        let before = try harness.openStore().snapshot()
        let refused = harness.run("import", file)
        #expect(refused.code == 1 && refused.stderr.contains(message) && refused.stderr.contains("nothing was imported"),
                "\(refused.stderr)")
        #expect(try harness.openStore().snapshot() == before)
    }

    @Test func todoTxtPrioritiesDueDatesAndContextsAreDetails() throws {
        let harness = try harness()
        let file = try harness.writeFile("todo.txt", """
            (A) 2023-11-10 Write the notes @laptop due:2023-11-20 +tools
            (B) Plan the milestone @work @home key:value +tools
            (C) Sweep due:soon +tools
            (D) Dust the shelves +tools
            x 2023-11-12 2023-11-11 Fix the CI pri:B +tools
            x (E) 2023-11-13 2023-11-01 Old thing +tools
            Email a@example.com about (A) due:2023-02-30 +tools
            (Z) Last +tools

            """)
        let imported = harness.run("import", file)
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 8 todos from \(file)\n")
        #expect(imported.errorLines == ["doogit: warning: \(file): priorities past (C) imported as L, the lowest doogit has: (D) on line 4; (E) on line 6; (Z) on line 8"])
        let todos = try todos(harness)
        #expect(Set(todos.keys) == ["Write the notes", "Plan the milestone key:value", "Sweep due:soon", "Dust the shelves",
                                    "Fix the CI", "Old thing", "Email a@example.com about (A) due:2023-02-30", "Last"])
        let notes = try #require(todos["Write the notes"])
        #expect(notes.priority == .high && notes.due?.text == "2023-11-20" && notes.tags == ["laptop"])
        #expect(notes.createdAt.rfc3339 == "2023-11-10T00:00:00.000Z")
        #expect(todos["Plan the milestone key:value"]?.priority == .medium)
        #expect(todos["Plan the milestone key:value"]?.tags == ["home", "work"])
        #expect(todos["Sweep due:soon"]?.priority == .low && todos["Sweep due:soon"]?.due == nil)
        #expect(todos["Dust the shelves"]?.priority == .low && todos["Last"]?.priority == .low)
        let fixed = try #require(todos["Fix the CI"])
        #expect(fixed.done && fixed.priority == .medium && fixed.doneAt?.rfc3339 == "2023-11-12T00:00:00.000Z")
        let old = try #require(todos["Old thing"])
        #expect(old.done && old.priority == .low && old.doneAt?.rfc3339 == "2023-11-13T00:00:00.000Z"
                && old.createdAt.rfc3339 == "2023-11-01T00:00:00.000Z")
        let email = try #require(todos["Email a@example.com about (A) due:2023-02-30"])
        #expect(email.priority == nil && email.due == nil && email.tags.isEmpty)
        // Nothing new, no warning.
        let again = harness.run("import", file)
        #expect(again.code == 0 && again.stderr.isEmpty && again.stdout.hasSuffix("(8 already here)\n"))
    }

    @Test func theWarningNamesAFewLinesOfEachLetter() {
        let todos = (1...5).map { ForeignTodo(uuid: "", text: "t", doneAt: nil, done: false, createdAt: nil, project: nil,
                                              place: "line \($0)", otherPriority: $0 == 5 ? "Q" : "D") }
        #expect(TodoTxtImport.warning(todos, in: "f") == "warning: f: priorities past (C) imported as L, the lowest doogit has: (D) on line 1, line 2, line 3 and 1 more; (Q) on line 5")
        #expect(TodoTxtImport.warning([], in: "f") == nil)
    }

    /// The same todos in both databases: texts, done, dates, priority, due and tags.
    @Test func aTodoTxtExportImportsBackWithItsDetails() throws {
        let source = try harness()
        let midnight = Timestamp(secondsSinceEpoch: 1_699_920_000)  // 2023-11-14T00:00:00Z: todo.txt keeps days
        let details = [
            DetailsEdit(due: .some(try Self.day("2026-12-24")), priority: .some(.high), addTags: ["release", "ci"]),
            DetailsEdit(priority: .some(.medium), addTags: ["a@b"]),
            DetailsEdit(due: .some(try Self.day("2027-01-02")), priority: .some(.low)),
            DetailsEdit(priority: .some(.high), addTags: ["done"]),
            DetailsEdit(),
        ]
        let texts = ["ship it", "(A) starts like a priority", "x starts like done", "finished", "due:tomorrow stays text"]
        let states = zip(texts, details).enumerated().map { index, pair in
            NewTodo(uuid: UUIDv4.make(), repositoryID: index % 2 == 0 ? 9 : Fixture.helloWorld.id, text: pair.0,
                    doneAt: pair.0 == "finished" ? midnight : nil, createdAt: midnight, details: pair.1)
        }
        #expect(try source.openStore().addTodos(states, at: Fixture.t1) == 5)
        let exported = source.run("export", "--format", "todotxt")
        let uuids = states.map(\.uuid)
        #expect(exported.stdout == """
            (B) 2023-11-14 (A) starts like a priority @a@b +octocat/Hello-World uuid:\(uuids[1])
            x 2023-11-14 2023-11-14 finished @done pri:A +octocat/Hello-World uuid:\(uuids[3])
            (A) 2023-11-14 ship it due:2026-12-24 @ci @release +octocat/tools uuid:\(uuids[0])
            (C) 2023-11-14 x starts like done due:2027-01-02 +octocat/tools uuid:\(uuids[2])
            2023-11-14 due:tomorrow stays text +octocat/tools uuid:\(uuids[4])

            """)
        let target = try harness()
        let file = try target.writeFile("todo.txt", exported.stdout)
        let imported = target.run("import", file)
        #expect(imported.code == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(try list(target) == list(source), "UUIDs included")
    }

    @Test func aTaskwarriorExportImportsBackWithItsDetailsAndUUIDs() throws {
        let source = try harness()
        let store = try source.openStore()
        let first = try store.addTodo(repositoryID: 9, text: "ship \"it\"", details: DetailsEdit(
            due: .some(try Self.day("2026-12-24")), priority: .some(.high), addTags: ["release", "ci"], note: .some("line one\nline two")),
                                      at: Fixture.t1)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "plain", at: Fixture.t2)
        let done = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "finished", details: DetailsEdit(priority: .some(.low)),
                                     at: Fixture.t2)
        _ = try store.setDone([done.id], done: true, at: Fixture.t3)
        let removed = try store.addTodo(repositoryID: 9, text: "removed", at: Fixture.t2)
        _ = try store.removeTodos([removed.id], at: Fixture.t3)
        let exported = source.run("export", "--format", "taskwarrior")
        #expect(exported.code == 0)
        let due = TaskwarriorImport.text(try #require(try Self.day("2026-12-24").localStart))
        #expect(exported.stdout == """
            [
            {"uuid":"\(try #require(try store.sections().flatMap(\.todos).first { $0.text == "plain" }).uuid)","description":"plain","status":"pending","entry":"20231114T221520Z","modified":"20231114T221520Z","project":"octocat/Hello-World"},
            {"uuid":"\(done.uuid)","description":"finished","status":"completed","entry":"20231114T221520Z","end":"20231114T231320Z","modified":"20231114T231320Z","project":"octocat/Hello-World","priority":"L"},
            {"uuid":"\(first.uuid)","description":"ship \\"it\\"","status":"pending","entry":"20231114T221420Z","modified":"20231114T221420Z","project":"octocat/tools","due":"\(due)","priority":"H","tags":["ci","release"],"annotations":[{"entry":"20231114T221419Z","description":"line one"},{"entry":"20231114T221420Z","description":"line two"}]}
            ]

            """)
        let target = try harness()
        let file = try target.writeFile("tasks.json", exported.stdout)
        let imported = target.run("import", file)
        #expect(imported.code == 0 && imported.stdout == "Imported 3 todos from \(file)\n", "\(imported.stderr)")
        #expect(try list(target) == list(source))
        #expect(try list(source) != list(CLIHarness()), "the list is not empty")
        #expect(try harness().run("export", "--format", "taskwarrior").stdout == "[\n]\n", "nothing to export")
    }
}
