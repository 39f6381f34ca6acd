import DoogitStore
import DoogitSupport
import Testing

/// A store with one repository (id 1) and a way to insert todo rows by hand.
private struct Fixture {
    let store: Store
    private(set) var counter = 0

    init() throws {
        store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
    }

    mutating func insertTodo(uuid: String? = nil, repositoryID: Int64 = 1, text: String = "a todo", done: Int64 = 0,
                             doneAt: String? = nil) throws {
        counter += 1
        let uuid = uuid ?? String(format36: counter)
        try store.database.run("""
            INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at)
            VALUES (?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ?)
            """, .text(uuid), .integer(repositoryID), .text(text), .integer(done), .integer(Int64(counter)),
            .optional(doneAt))
    }

    /// The extended SQLite code an insert fails with, or nil when it succeeds.
    mutating func insertFails(uuid: String? = nil, repositoryID: Int64 = 1, text: String = "a todo", done: Int64 = 0,
                              doneAt: String? = nil) -> Int32? {
        sqliteCode { try insertTodo(uuid: uuid, repositoryID: repositoryID, text: text, done: done, doneAt: doneAt) }
    }
}

extension String {
    /// A 36-character UUID-shaped text made from a number, unique per number.
    init(format36 number: Int) {
        let digits = String(number)
        self = "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }
}

@Suite("Schema constraints")
struct SchemaConstraintTests {
    @Test("blank todo text is refused by a CHECK", arguments: ["", " ", "    "])
    func blankText(text: String) throws {
        var fixture = try Fixture()
        #expect(fixture.insertFails(text: text) == SQLiteCode.constraintCheck)
        #expect(try fixture.store.count("SELECT count(*) FROM todos") == 0)
    }

    @Test("text with content around spaces is accepted", arguments: ["x", " x ", "a b"])
    func nonBlankText(text: String) throws {
        var fixture = try Fixture()
        #expect(fixture.insertFails(text: text) == nil)
        #expect(try fixture.store.count("SELECT count(*) FROM todos") == 1)
    }

    @Test("done and done_at must agree", arguments: [
        (Int64(1), String?.none, SQLiteCode.constraintCheck),
        (0, "2026-01-01T00:00:00.000Z", SQLiteCode.constraintCheck),
        (2, "2026-01-01T00:00:00.000Z", SQLiteCode.constraintCheck),
        (-1, nil, SQLiteCode.constraintCheck),
        (1, "2026-01-01T00:00:00.000Z", nil),
        (0, nil, nil),
    ] as [(Int64, String?, Int32?)])
    func doneAndDoneAt(done: Int64, doneAt: String?, expected: Int32?) throws {
        var fixture = try Fixture()
        #expect(fixture.insertFails(done: done, doneAt: doneAt) == expected)
    }

    @Test("updates cannot break the done/done_at rule or blank the text")
    func updatesChecked() throws {
        var fixture = try Fixture()
        try fixture.insertTodo()
        let store = fixture.store
        let before = try store.snapshot()
        #expect(sqliteCode { try store.database.run("UPDATE todos SET done = 1") } == SQLiteCode.constraintCheck)
        #expect(sqliteCode { try store.database.run("UPDATE todos SET done_at = '2026-01-02T00:00:00.000Z'") }
                == SQLiteCode.constraintCheck)
        #expect(sqliteCode { try store.database.run("UPDATE todos SET text = '   '") } == SQLiteCode.constraintCheck)
        #expect(try store.snapshot() == before)
        #expect(sqliteCode {
            try store.database.run("UPDATE todos SET done = 1, done_at = '2026-01-02T00:00:00.000Z'")
        } == nil)
    }

    @Test("a uuid must be 36 characters and unique")
    func uuidRules() throws {
        var fixture = try Fixture()
        #expect(fixture.insertFails(uuid: "short") == SQLiteCode.constraintCheck)
        #expect(fixture.insertFails(uuid: String(format36: 1) + "x") == SQLiteCode.constraintCheck)
        #expect(fixture.insertFails(uuid: String(format36: 500)) == nil)
        #expect(fixture.insertFails(uuid: String(format36: 500)) == SQLiteCode.constraintUnique)
    }

    @Test("a todo must belong to a tracked repository")
    func foreignKey() throws {
        var fixture = try Fixture()
        #expect(fixture.insertFails(repositoryID: 999) == SQLiteCode.constraintForeignKey)
        #expect(try fixture.store.count("SELECT count(*) FROM todos") == 0)
    }

    @Test("deleting a repository row deletes its todos (ON DELETE CASCADE)")
    func cascade() throws {
        var fixture = try Fixture()
        try fixture.store.saveRepository(repository(2, "octo/dog"))
        try fixture.insertTodo()
        try fixture.insertTodo(repositoryID: 2)
        try fixture.store.database.run("DELETE FROM repositories WHERE id = 1")
        #expect(try fixture.store.count("SELECT count(*) FROM todos") == 1)
        #expect(try fixture.store.count("SELECT repository_id FROM todos") == 2)
    }

    @Test("repository rows need a non-empty owner, name and full name, and 0/1 flags", arguments: [
        "INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at) VALUES (5, '', 'n', 'o/n', 'u', 'a', 's')",
        "INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at) VALUES (5, 'o', '', 'o/n', 'u', 'a', 's')",
        "INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at) VALUES (5, 'o', 'n', '', 'u', 'a', 's')",
        "INSERT INTO repositories (id, owner, name, full_name, html_url, private, added_at, synced_at) VALUES (5, 'o', 'n', 'o/n', 'u', 2, 'a', 's')",
        "INSERT INTO repositories (id, owner, name, full_name, html_url, archived, added_at, synced_at) VALUES (5, 'o', 'n', 'o/n', 'u', 2, 'a', 's')",
        "INSERT INTO repositories (id, owner, name, full_name, html_url, gone, added_at, synced_at) VALUES (5, 'o', 'n', 'o/n', 'u', -1, 'a', 's')",
    ])
    func repositoryChecks(sql: String) throws {
        let store = try memoryStore()
        #expect(sqliteCode { try store.database.run(sql) } == SQLiteCode.constraintCheck)
        #expect(try store.count("SELECT count(*) FROM repositories") == 0)
    }

    @Test("required columns are NOT NULL")
    func notNull() throws {
        let store = try memoryStore()
        #expect(sqliteCode {
            try store.database.run("""
                INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at)
                VALUES (5, 'o', 'n', 'o/n', NULL, 'a', 's')
                """)
        } == SQLiteCode.constraintNotNull)
    }

    @Test("the Store API cannot write blank text either")
    func storeBlankText() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        #expect(sqliteCode { _ = try store.addTodo(repositoryID: 1, text: "   ", at: moment(1)) } == SQLiteCode.constraintCheck)
        #expect(try store.count("SELECT count(*) FROM todos") == 0)
        let todo = try store.addTodo(repositoryID: 1, text: "real", at: moment(1))
        let before = try store.snapshot()
        #expect(sqliteCode { _ = try store.editTodo(id: todo.id, text: "", at: moment(2)) } == SQLiteCode.constraintCheck)
        #expect(try store.snapshot() == before)
    }
}
