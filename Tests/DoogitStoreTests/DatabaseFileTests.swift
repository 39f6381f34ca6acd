@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing

private func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// What goes wrong with the database file itself becomes a case that names the cause.
@Suite("Database file failures")
struct DatabaseFileTests {
    @Test("another program's SQLite file is refused and left byte for byte as it was")
    func foreignDatabaseIsUntouched() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("other.sqlite")
        do {
            let other = try Database(path: path)
            try other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine')")
        }
        let before = try bytes(path)
        #expect(throws: StoreError.foreignDatabase) { try Store.open(path: path) }
        #expect(throws: StoreError.foreignDatabase) { try Store.open(path: path, readOnlyFallback: true) }
        #expect(try bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a file claimed by another application id is refused even when it is empty")
    func otherApplicationID() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("other.sqlite")
        do { try Database(path: path).execute("PRAGMA application_id = 42; PRAGMA user_version = 3") }
        let before = try bytes(path)
        #expect(throws: StoreError.foreignDatabase) { try Store.open(path: path) }
        #expect(try bytes(path) == before)
    }

    @Test("a new database is marked as doogit's; an older doogit database without the mark is upgraded and marked")
    func applicationIDIsSet() throws {
        let scratch = try ScratchDirectory()
        let fresh = try Store.open(path: scratch.file("new.sqlite"))
        #expect(try fresh.count("PRAGMA application_id") == Store.applicationID)

        let path = scratch.file("old.sqlite")
        do {
            let old = try Database(path: path)
            try Migrator.migrate(old, to: Array(Migrations.all.prefix(2)))
            #expect(try old.scalarInt("PRAGMA application_id") == 0)
        }
        let upgraded = try Store.open(path: path)
        #expect(try upgraded.count("PRAGMA application_id") == Store.applicationID)
    }

    @Test("a folder given as the database is named as a folder")
    func folderAsDatabase() throws {
        let scratch = try ScratchDirectory()
        #expect(throws: StoreError.isDirectory(path: scratch.path)) { try Store.open(path: scratch.path) }
    }

    @Test("a file that is not SQLite, and a damaged one, are told apart")
    func notADatabaseAndCorrupt() throws {
        let scratch = try ScratchDirectory()
        let text = scratch.file("notes.txt")
        try Data(String(repeating: "just some text\n", count: 400).utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: StoreError.notADatabase) { try Store.open(path: text) }

        let damaged = scratch.file("damaged.sqlite")
        do {
            let store = try Store.open(path: damaged)
            try store.saveRepository(repository(1, "octo/cat"))
            try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
        var content = try bytes(damaged)
        for index in 100..<content.count { content[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
        try Data(content).write(to: URL(fileURLWithPath: damaged))
        #expect(throws: StoreError.corrupt) {
            let store = try Store.open(path: damaged)
            _ = try store.repositories()
        }
    }

    @Test("a full disk is diskFull, and the failed change leaves nothing behind")
    func diskFull() throws {
        let scratch = try ScratchDirectory()
        let store = try Store.open(path: scratch.file("full.sqlite"))
        try store.saveRepository(repository(1, "octo/cat"))
        let pages = try store.count("PRAGMA page_count")
        try store.database.execute("PRAGMA max_page_count = \(pages + 1)")
        let before = try store.snapshot()
        #expect(throws: StoreError.diskFull) {
            try store.transaction {
                for index in 0..<2000 { _ = try store.addTodo(repositoryID: 1, text: String(repeating: "x", count: 500) + "\(index)", at: moment(1)) }
            }
        }
        #expect(try store.snapshot() == before)
    }

    @Test("an I/O error caused by a full disk is reported as a full disk")
    func ioErrorOfAFullDisk() {
        #expect(StoreError.classify(code: 10 | (3 << 8), message: "disk I/O error", systemErrno: ENOSPC, sql: nil, path: "/x") == .diskFull)
        #expect(StoreError.classify(code: 10 | (3 << 8), message: "disk I/O error", systemErrno: EIO, sql: nil, path: "/x")
            == .ioError(reason: String(cString: strerror(EIO))))
    }

    @Test("a statement given the wrong number of values is refused, not run")
    func bindCountIsChecked() throws {
        let store = try memoryStore()
        #expect(throws: StoreError.bindMismatch(expected: 2, given: 1, sql: "SELECT ? + ?")) {
            _ = try store.database.query("SELECT ? + ?", [.integer(1)]) { row throws(StoreError) in try row.int64(0) }
        }
        #expect(throws: StoreError.bindMismatch(expected: 0, given: 1, sql: "SELECT 1")) {
            _ = try store.database.query("SELECT 1", [.integer(1)]) { row throws(StoreError) in try row.int64(0) }
        }
    }

    @Test("rows are read by column name; an unknown name is an error, not a trap")
    func rowsByName() throws {
        let store = try memoryStore()
        let values = try store.database.query("SELECT 7 AS seven, 'x' AS letter, NULL AS absent") { row throws(StoreError) in
            (try row.int64("seven"), try row.string("letter"), try row.optionalString("absent"), try row.isNull("absent"))
        }
        #expect(values.count == 1 && values[0].0 == 7 && values[0].1 == "x" && values[0].2 == nil && values[0].3)
        #expect(throws: StoreError.unknownColumn("eight")) {
            _ = try store.database.query("SELECT 7 AS seven") { row throws(StoreError) in try row.int64("eight") }
        }
    }

    @Test("a file URI escapes the characters URIs reserve")
    func fileURI() {
        #expect(Database.fileURI("/tmp/a b/x?y#z%.db", immutable: true) == "file:/tmp/a%20b/x%3Fy%23z%25.db?immutable=1")
        #expect(Database.fileURI("/tmp/x.db", immutable: false) == "file:/tmp/x.db?mode=ro")
    }
}
