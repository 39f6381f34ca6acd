import DoogitStore
import DoogitSupport
import Foundation
import Testing

private struct Boom: Error, Equatable {}

@Suite("Database")
struct DatabaseTests {
    @Test("a new file database is migrated, in WAL mode, with foreign keys on")
    func newFileDatabase() throws {
        let directory = try ScratchDirectory()
        let store = try Store.open(path: directory.file("doogit.db"))
        #expect(try store.database.scalarInt("PRAGMA user_version") == Int64(Migrations.latestVersion))
        #expect(try Migrator.currentVersion(of: store.database) == Migrations.latestVersion)
        #expect(try store.database.scalarString("PRAGMA journal_mode") == "wal")
        #expect(try store.database.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try store.database.scalarInt("PRAGMA synchronous") == 1)  // NORMAL
        #expect(try store.database.scalarInt("PRAGMA busy_timeout") == Int64(Database.busyTimeoutMilliseconds))
        #expect(store.database.path == directory.file("doogit.db"))
    }

    @Test("the settings apply to every connection, not only the first")
    func secondConnection() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        let store = try Store.open(path: path)
        let other = try Database(path: path)
        #expect(try other.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try other.scalarString("PRAGMA journal_mode") == "wal")
        #expect(try other.scalarInt("PRAGMA user_version") == Int64(Migrations.latestVersion))
        _ = store
    }

    @Test("a file is read through a memory map, except one opened as immutable, which takes no locks")
    func memoryMappedReads() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        let store = try Store.open(path: path)
        #expect(try store.database.scalarInt("PRAGMA mmap_size") ?? 0 > 0)
        #expect(try Database(path: path, access: .readOnly).scalarInt("PRAGMA mmap_size") ?? 0 > 0)
        #expect(try Database(path: path, access: .immutable).scalarInt("PRAGMA mmap_size") == 0)
        // What another connection writes is seen through a map made before it.
        let reader = try Database(path: path, access: .readOnly)
        #expect(try reader.scalarInt("SELECT count(*) FROM repositories") == 0)
        try store.saveRepository(repository(1, "octo/cat"))
        try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try reader.scalarInt("SELECT count(*) FROM repositories") == 1)
    }

    @Test("an in-memory database is migrated with foreign keys on")
    func memoryDatabase() throws {
        let store = try memoryStore()
        #expect(try store.database.scalarInt("PRAGMA user_version") == Int64(Migrations.latestVersion))
        #expect(try store.database.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try store.database.scalarString("PRAGMA journal_mode") == "memory")
    }

    @Test("the schema has the tables and indexes of the first migration")
    func schema() throws {
        let store = try memoryStore()
        let tables = Set(try store.database.query("SELECT name FROM sqlite_master WHERE type = 'table'") {
            row throws(StoreError) in try row.string(0)
        })
        #expect(tables.isSuperset(of: ["repositories", "sqlite_sequence", "todo_tombstones", "todos"]))
        let indexes = Set(try store.database.query("SELECT name FROM sqlite_master WHERE type = 'index'") {
            row throws(StoreError) in try row.string(0)
        })
        #expect(indexes.isSuperset(of: ["repositories_full_name", "repositories_name", "todos_repository"]))
        let todoColumns = try store.database.query("SELECT name FROM pragma_table_info('todos') ORDER BY cid") {
            row throws(StoreError) in try row.string(0)
        }
        #expect(Array(todoColumns.prefix(9)) == ["id", "uuid", "repository_id", "text", "done", "position", "created_at",
                                                 "updated_at", "done_at"])
    }

    @Test("a transaction whose body throws rolls back everything it wrote")
    func rollback() throws {
        let store = try memoryStore()
        let before = try store.snapshot()
        #expect(throws: Boom()) {
            try store.database.transaction { () throws in
                try store.database.run("""
                    INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at)
                    VALUES (1, 'o', 'n', 'o/n', 'u', 'a', 's')
                    """)
                try store.database.run("""
                    INSERT INTO todos (uuid, repository_id, text, position, created_at, updated_at)
                    VALUES ('00000000-0000-4000-8000-000000000000', 1, 'x', 1, 'c', 'u')
                    """)
                try store.database.run("""
                    INSERT INTO todo_tombstones (uuid, repository_id, removed_at) VALUES ('t', 1, 'r')
                    """)
                #expect(try store.count("SELECT count(*) FROM todos") == 1)
                throw Boom()
            }
        }
        #expect(try store.snapshot() == before)
        #expect(try store.count("SELECT count(*) FROM repositories") == 0)
        // The connection is out of the transaction: another one can begin and commit.
        let value = try store.database.transaction { () throws(StoreError) -> Int in
            try store.database.run("""
                INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at)
                VALUES (2, 'o', 'n', 'o/n', 'u', 'a', 's')
                """)
        }
        #expect(value == 1)
        #expect(try store.count("SELECT count(*) FROM repositories") == 1)
    }

    @Test("a transaction that fails on a constraint rolls back its earlier statements")
    func rollbackOnSQLiteError() throws {
        let store = try memoryStore()
        let before = try store.snapshot()
        let code = sqliteCode {
            try store.database.transaction { () throws(StoreError) in
                try store.database.run("""
                    INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at)
                    VALUES (1, 'o', 'n', 'o/n', 'u', 'a', 's')
                    """)
                try store.database.run("""
                    INSERT INTO todos (uuid, repository_id, text, position, created_at, updated_at)
                    VALUES ('00000000-0000-4000-8000-000000000000', 1, '   ', 1, 'c', 'u')
                    """)
            }
        }
        #expect(code == SQLiteCode.constraintCheck)
        #expect(try store.snapshot() == before)
    }

    @Test("committed writes are visible to another connection; uncommitted ones are not")
    func isolation() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        let store = try Store.open(path: path)
        let reader = try Database(path: path)
        var seenDuringTransaction: Int64?
        try store.database.transaction { () throws(StoreError) in
            try store.database.run("""
                INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at)
                VALUES (1, 'o', 'n', 'o/n', 'u', 'a', 's')
                """)
            seenDuringTransaction = try reader.scalarInt("SELECT count(*) FROM repositories")
        }
        #expect(seenDuringTransaction == 0)
        #expect(try reader.scalarInt("SELECT count(*) FROM repositories") == 1)
    }

    @Test("SQL errors carry the extended code, the message and the statement")
    func sqlErrors() throws {
        let store = try memoryStore()
        do {
            try store.database.run("SELECT * FROM no_such_table")
            Issue.record("no error")
        } catch {
            guard case .sqlite(let code, let message, let sql) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(code == SQLiteCode.error)
            #expect(message.contains("no_such_table"))
            #expect(sql == "SELECT * FROM no_such_table")
            #expect(error.sqlitePrimaryCode == SQLiteCode.error)
        }
        #expect(StoreError.unknownTodos([1]).sqlitePrimaryCode == nil)
        #expect(StoreError.sqlite(code: SQLiteCode.constraintCheck, message: "", sql: nil).sqlitePrimaryCode
                == SQLiteCode.constraint)
    }

    @Test("bound values are never read as SQL")
    func boundValues() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "o/n"))
        let hostile = "x'); DROP TABLE todos; --"
        let todo = try store.addTodo(repositoryID: 1, text: hostile, at: moment(1))
        #expect(todo.text == hostile)
        #expect(try store.count("SELECT count(*) FROM todos") == 1)
    }

    @Test("a NULL where a value is required is an error, not a trap")
    func unexpectedNull() throws {
        let store = try memoryStore()
        #expect(throws: StoreError.unexpectedNull(column: "missing")) {
            _ = try store.database.query("SELECT NULL AS missing") { row throws(StoreError) in try row.int64(0) }
        }
        #expect(throws: StoreError.unexpectedNull(column: "missing")) {
            _ = try store.database.query("SELECT NULL AS missing") { row throws(StoreError) in try row.string(0) }
        }
        #expect(try store.database.scalarInt("SELECT NULL") == nil)
        #expect(try store.database.scalarString("SELECT NULL") == nil)
    }

    @Test("bound text and integers come back unchanged")
    func textRoundTrip() throws {
        let store = try memoryStore()
        for text in ["plain", "héllo 中文 😀", "e\u{301}", "\u{202E}rtl", "tab\tnew\nline", "'quoted' \"double\""] {
            #expect(try store.database.scalarString("SELECT ?", .text(text)) == text)
        }
        #expect(try store.database.scalarInt("SELECT ?", .integer(Int64.min)) == Int64.min)
        #expect(try store.database.scalarInt("SELECT ?", .bool(true)) == 1)
        #expect(try store.database.scalarString("SELECT ?", .optional(nil)) == nil)
    }
}
