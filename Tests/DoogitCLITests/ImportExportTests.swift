import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// `doogit export` and `doogit import`, in-process: doogit's own format round trip, Taskwarrior
/// and todo.txt files, and the refusals that leave the database as it was.
@Suite struct ImportExportTests {
    static let importFixtures = Fixtures.directory + "/../import"

    /// A harness with octocat/Hello-World and octocat/tools tracked.
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld, Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        return harness
    }

    func fixture(_ name: String) -> String { Self.importFixtures + "/" + name }

    func todos(_ harness: CLIHarness) throws -> [TodoRecord] {
        try harness.openStore().sections().flatMap(\.todos)
    }

    @Test func taskwarriorsExportImportsWithItsUUIDsAndStates() throws {
        let harness = try harness()
        let refused = harness.run("import", fixture("taskwarrior-export.json"))
        #expect(refused.code == 1)
        #expect(refused.errorLines == ["doogit: error: \(fixture("taskwarrior-export.json")), line 5: the todo has no project; nothing was imported; choose the repository for such todos with --repo REPO"])
        #expect(try todos(harness).isEmpty)

        let imported = harness.run("import", fixture("taskwarrior-export.json"), "--repo", "tools")
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 3 todos from \(fixture("taskwarrior-export.json"))\n")
        let byUUID = Dictionary(uniqueKeysWithValues: try todos(harness).map { ($0.uuid, $0) })
        let notes = try #require(byUUID["5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01"])
        #expect(notes.text == "Write the release notes" && !notes.done && notes.repositoryFullName == "octocat/Hello-World")
        #expect(notes.createdAt.rfc3339 == "2023-11-10T09:15:00.000Z")
        let ci = try #require(byUUID["7a1d3c2b-6e5f-4a8b-b9c0-2d3e4f5a6b02"])
        #expect(ci.done && ci.doneAt?.rfc3339 == "2023-11-12T16:40:00.000Z" && ci.repositoryFullName == "octocat/Hello-World")
        #expect(byUUID["0c9b8a7d-6e5f-4d3c-8b2a-1f0e9d8c7b03"] == nil, "deleted tasks are skipped")
        #expect(byUUID["2e4d6c8b-0a1f-4e3d-9c5b-7a6f8e0d2c04"]?.repositoryFullName == "octocat/tools")

        let again = harness.run("import", fixture("taskwarrior-export.json"), "--repo", "tools", "--json")
        #expect(again.code == 0)
        #expect(try JSONParser.parse(again.stdout) == JSONParser.parse(#"{"added":0,"updated":0,"unchanged":3}"#))
        #expect(try todos(harness).count == 3)
    }

    /// The creation and completion dates are the todo's times; priorities, contexts and due dates
    /// are details (ImportDetailsTests has more); other `key:value` words stay in the text.
    @Test func aTodoTxtFileKeepsItsDatesAsTimesAndItsFieldsAsDetails() throws {
        let harness = try harness()
        let before = try harness.openStore().snapshot()
        let refused = harness.run("import", fixture("todo.txt"), "--repo", "tools", "--from", "todotxt")
        #expect(refused.code == 0, "--repo takes the todo of a project that names no tracked repository too")
        #expect(try harness.openStore().snapshot() != before)
        let texts = try todos(harness).map { "\($0.repositoryFullName): \($0.text)\($0.done ? " [done \($0.doneAt?.rfc3339.prefix(10) ?? "")]" : "")" }
        #expect(Set(texts) == [
            "octocat/Hello-World: Write the release notes",
            "octocat/Hello-World: Fix the flaky CI job [done 2023-11-12]",
            "octocat/tools: Call the bank",
            "octocat/tools: Plan the next milestone",
        ])
        let written = try todos(harness).first { $0.text.contains("release notes") }
        #expect(written?.createdAt.rfc3339 == "2023-11-10T00:00:00.000Z")
        #expect(written?.priority == .high && written?.tags == ["laptop"])
        let call = try todos(harness).first { $0.text == "Call the bank" }
        #expect(call?.due?.text == "2023-11-20" && call?.tags == ["phone"] && call?.priority == nil)
        #expect(harness.run("import", fixture("todo.txt"), "--repo", "tools").stdout
            == "Imported 0 todos from \(fixture("todo.txt")) (4 already here)\n")
    }

    @Test func aProjectNamingNoTrackedRepositoryOrSeveralIsNamedAndNothingIsImported() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let before = try store.snapshot()
        let noProject = harness.run("import", fixture("todo.txt"))
        #expect(noProject.code == 1)
        #expect(noProject.errorLines == ["doogit: error: \(fixture("todo.txt")), line 3: the todo has no project; nothing was imported; choose the repository for such todos with --repo REPO"])
        let spoon = try harness.writeFile("spoon.txt", "fine +Hello-World\n(B) Plan the next milestone +Spoon-Knife\n")
        let unknown = harness.run("import", spoon)
        #expect(unknown.code == 1)
        #expect(unknown.errorLines == ["doogit: error: project 'Spoon-Knife' (\(spoon), line 2) names no tracked repository; nothing was imported; track it with 'doogit repo add Spoon-Knife', or put such todos in one with --repo REPO"])
        #expect(try store.snapshot() == before)

        try store.saveRepositories([Fixture.repository(id: 20, owner: "a", name: "widgets", description: nil),
                                    Fixture.repository(id: 21, owner: "b", name: "widgets", description: nil)])
        let file = try harness.writeFile("widgets.txt", "tune the widgets +widgets\n")
        let ambiguous = harness.run("import", file)
        #expect(ambiguous.code == 1)
        #expect(ambiguous.stderr.contains("project 'widgets' (\(file), line 1) names several tracked repositories (a/widgets, b/widgets)"))
        #expect(ambiguous.stderr.contains("name one as OWNER/NAME in the file, or put such todos in one with --repo REPO"))
        #expect(harness.run("import", file, "-R", "a/widgets").code == 0)
    }

    @Test(arguments: [
        ("[\n{\"uuid\":\"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01\",\"description\":\"ok\",\"status\":\"pending\"},\n{\"uuid\": broken\n]\n", "line 3: not a Taskwarrior task"),
        ("[\n{\"uuid\":\"not-a-uuid\",\"description\":\"x\",\"status\":\"pending\"}\n]\n", "line 2: no valid \"uuid\""),
        ("[{\"uuid\":\"5f0c8a5e-3b8e-4d7a-9a2c-1f4e6d2b7c01\",\"status\":\"pending\"}]\n", "task 1: no \"description\""),
        ("fine +Hello-World\nx 2023-11-12\n", "line 2: the todo text is empty"),
        ("{\"format\":\"doogit\",\"version\":\"1.0\"}\n{\"type\":\"todo\"}\n", "line 2: \"uuid\" is missing"),
        ("{\"format\":\"doogit\",\"version\":\"5.1\"}\n", "was written by a newer doogit (format 5.1)"),
    ])
    func aBadFileIsRefusedNamingItsFirstBadLine(text: String, message: String) throws {
        let harness = try harness()
        let file = try harness.writeFile("bad", text)
        let before = try harness.openStore().snapshot()
        let result = harness.run("import", file, "--repo", "tools")
        let refused = result.code == 2 ? harness.run("import", file) : result
        #expect(refused.code == 1, "\(refused.stderr)")
        #expect(refused.errorLines.count == 1)
        #expect(refused.stderr.contains(message), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was imported"))
        #expect(try harness.openStore().snapshot() == before)
    }

    @Test func exportThenImportIntoAnEmptyDatabaseGivesTheSameListIDsIncluded() throws {
        let source = try harness()
        let store = try source.openStore()
        for text in ["one", "two", "three", "four"] { _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: text, at: Fixture.t1) }
        _ = try store.addTodo(repositoryID: 9, text: "tools todo", at: Fixture.t2)
        _ = try store.setDone([2], done: true, at: Fixture.t2)
        // Links (one kept by the removed todo) and settings travel too.
        func issue(_ number: Int64, _ state: IssueState = .open) -> IssueSnapshot {
            IssueSnapshot(number: number, url: "https://github.com/octocat/Hello-World/issues/\(number)", title: "Issue \(number)",
                          state: state, updatedAt: "2023-11-14T22:13:20Z")
        }
        _ = try store.linkIssue(todoID: 1, to: issue(11), at: Fixture.t2)
        _ = try store.linkIssue(todoID: 4, to: issue(12, .closed), at: Fixture.t2)
        try store.setSettings(repositoryIDs: [9], pushIssues: true, importIssues: .assigned, scanCommits: false, at: Fixture.t2)
        _ = try store.removeTodos([1], at: Fixture.t3)
        _ = try store.moveTodos([3], toRepository: 9, at: Fixture.t3)
        let exported = source.run("export")
        #expect(exported.code == 0)
        #expect(!exported.stdout.isEmpty && exported.stdout.hasPrefix(#"{"format":"doogit","version":"4.2"}"#),
                "the files' format, 4.2")
        #expect(exported.stdout.contains(#""localID":1"#), "the removed todo travels too, with its ID")

        let target = CLIHarness()
        let file = try target.writeFile("export.jsonl", exported.stdout)
        let imported = target.run("import", file)
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 4 todos from \(file)\n")
        #expect(target.run("todo", "list", "--json").stdout == source.run("todo", "list", "--json").stdout)
        #expect(target.run("repo", "list").stdout == source.run("repo", "list").stdout)
        #expect(exported.stdout.contains(#""issue":{"number":12,"url":"https://github.com/octocat/Hello-World/issues/12","repository":1296269},"issueSeen":{"number":12,"state":"closed","#))
        #expect(exported.stdout.contains(#""settings":{"pushIssues":true,"importIssues":"assigned","scanCommits":false}"#))
        let (sourceStore, targetStore) = (try source.openStore(), try target.openStore())
        #expect(try targetStore.sections().flatMap(\.todos).map(\.issue) == sourceStore.sections().flatMap(\.todos).map(\.issue))
        #expect(try targetStore.linkedTodos(repositoryID: Fixture.helloWorld.id).map { $0.entry.issue.value?.number } == [12])
        #expect(try targetStore.repositories().map(\.settings) == sourceStore.repositories().map(\.settings))
        #expect(try targetStore.repository(id: 9)?.settings == RepositorySettings(pushIssues: true, importIssues: .assigned,
                                                                                   scanCommits: false))
        let (sourceReplica, targetReplica) = (try sourceStore.replica.read().replica, try targetStore.replica.read().replica)
        #expect(targetReplica.todos.mapValues(\.issue) == sourceReplica.todos.mapValues(\.issue), "links and their stamps")
        #expect(targetReplica.todos.mapValues(\.seen) == sourceReplica.todos.mapValues(\.seen), "and the issues as seen")
        #expect(targetReplica.repositories.mapValues(\.settings) == sourceReplica.repositories.mapValues(\.settings))
        #expect(try targetStore.knownIssueNumbers(repositoryID: Fixture.helloWorld.id) == [11, 12])
        #expect(target.run("import", file).stdout == "Imported 0 todos from \(file) (5 already here)\n")
        #expect(target.run("todo", "list", "--json").stdout == source.run("todo", "list", "--json").stdout)
        // The removed todo can be brought back with its ID there too, and its link.
        _ = try target.openStore().restoreTodos([1], at: Fixture.t3)
        #expect(try target.openStore().sections().flatMap(\.todos).contains { $0.id == 1 && $0.text == "one" && $0.issue?.number == 11 })
        // A new todo there does not take the ID of the removed one.
        #expect(try target.openStore().addTodo(repositoryID: 9, text: "new", at: Fixture.t3).id == 6)
    }

    @Test func exportWritesAFileOrTodoTxt() throws {
        let harness = try harness()
        let store = try harness.openStore()
        let ship = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "(A) ship it @work", at: Fixture.t1)
        let done = try store.addTodo(repositoryID: 9, text: "sharpen the tools", at: Fixture.t1)
        _ = try store.setDone([done.id], done: true, at: Fixture.t2)
        #expect(harness.run("export", "--format", "todotxt").stdout == """
            2023-11-14 (A) ship it @work +octocat/Hello-World uuid:\(ship.uuid)
            x 2023-11-14 2023-11-14 sharpen the tools +octocat/tools uuid:\(done.uuid)

            """)
        let written = harness.run("export", "-o", "out.jsonl")
        #expect(written.code == 0 && written.stdout.isEmpty)
        let path = harness.directory.path + "/out.jsonl"
        #expect(try String(contentsOfFile: path, encoding: .utf8) == harness.run("export").stdout)
        #expect(try permissions(path) == 0o600)
        // The todo.txt export reads back as the same todos, but for a word of a text that todo.txt
        // reads as a field: "@work" is a context, so it comes back as a tag.
        let other = try self.harness()
        let file = try other.writeFile("todo.txt", harness.run("export", "--format", "todotxt").stdout)
        #expect(other.run("import", file).code == 0)
        #expect(try todos(other).map(\.text).sorted() == ["(A) ship it", "sharpen the tools"])
        #expect(try todos(other).map(\.tags).sorted { $0.count < $1.count } == [[], ["work"]])
    }

    /// `issue:OWNER/NAME#N` links a todo only to an issue of its own repository: the last such
    /// word (the export writes it after the text); any other stays in the text, whole.
    @Test func aTodoTxtIssueWordLinksOnlyToItsOwnRepository() throws {
        let harness = try harness()
        let file = try harness.writeFile("links.txt", """
            see issue:octocat/Hello-World#3 first issue:octocat/Hello-World#7 +octocat/Hello-World
            ask issue:someone/else#4 +octocat/Hello-World

            """)
        #expect(harness.run("import", file).code == 0)
        let imported = try todos(harness).sorted { $0.text < $1.text }
        #expect(imported.map(\.text) == ["ask issue:someone/else#4", "see issue:octocat/Hello-World#3 first"])
        #expect(imported.map { $0.issue?.number } == [nil, 7])
    }

    @Test func formatsAreToldApartAndWrongOptionsAreUsageErrors() throws {
        #expect(ImportFormat.detect(Array(#"{"format":"doogit","version":"1.0"}"#.utf8)) == .doogit)
        #expect(ImportFormat.detect(Array("\n [\n{}".utf8)) == .taskwarrior)
        #expect(ImportFormat.detect(Array(#"{"uuid":"x"}"#.utf8)) == .taskwarrior)
        #expect(ImportFormat.detect(Array("(A) call mom".utf8)) == .todotxt)
        let harness = try harness()
        expectUsageError(harness.run("import", "x", "--from", "csv"), topic: "import")
        expectUsageError(harness.run("export", "--format", "csv"), topic: "export")
        let file = try harness.writeFile("empty.jsonl", #"{"format":"doogit","version":"1.0"}"# + "\n")
        expectUsageError(harness.run("import", file, "--repo", "tools"), topic: "import")
        let missing = harness.run("import", "no-such-file")
        #expect(missing.code == 1 && missing.stderr.contains("cannot read no-such-file: No such file or directory"))
        #expect(TodoTxtImport.nameBasedUUID("a") == TodoTxtImport.nameBasedUUID("a"))
        #expect(UUIDv4.isValid(TodoTxtImport.nameBasedUUID("a")) && TodoTxtImport.nameBasedUUID("a") != TodoTxtImport.nameBasedUUID("b"))
    }
}

private func permissions(_ path: String) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
}

extension Store {
    /// Every row of every table, for telling that a refused command changed nothing.
    func snapshot() throws -> [String] {
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            row throws(StoreError) in try row.string(0)
        }
        var lines: [String] = []
        for table in tables {
            let columns = Int32(try database.scalarInt("SELECT count(*) FROM pragma_table_info(?)", .text(table)) ?? 0)
            lines += try database.query("SELECT * FROM \"\(table)\" ORDER BY 1") { row in
                table + ": " + (0..<columns).map { row.optionalString($0) ?? "NULL" }.joined(separator: "|")
            }
        }
        return lines
    }
}
