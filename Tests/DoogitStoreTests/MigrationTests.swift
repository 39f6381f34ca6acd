import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing

/// The package's `migrations` folder, found from this file's place in the tree.
private let migrationsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // DoogitStoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("migrations")

/// The schema as SQLite records it.
private func schema(_ database: Database) throws -> [String] {
    try database.query("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name") {
        row throws(StoreError) in try row.string(0)
    }
}

private func fileBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Where two byte arrays first differ (nil when equal), without printing whole files on failure.
private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
    if let index = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
        return "byte \(index): \(a[index]) -> \(b[index])"
    }
    return a.count == b.count ? nil : "size \(a.count) -> \(b.count)"
}

@Suite("Migrations and Migrator")
struct MigrationTests {
    @Test("the embedded list matches migrations/*.sql: names in order and identical SQL")
    func embeddedListMatchesFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: migrationsFolder.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        try #require(!files.isEmpty, "no .sql files in \(migrationsFolder.path)")
        #expect(Migrations.all.map(\.name) == files.map { String($0.dropLast(4)) })
        #expect(Migrations.all.map(\.version) == Array(1...files.count))
        #expect(Migrations.latestVersion == files.count)
        for (migration, file) in zip(Migrations.all, files) {
            let onDisk = try fileBytes(migrationsFolder.appendingPathComponent(file).path)
            #expect(Array(migration.sql.utf8) == onDisk, "\(migration.name) differs from \(file)")
            let expectedPrefix = "m" + String(repeating: "0", count: max(0, 4 - String(migration.version).count))
                + String(migration.version) + "_"
            #expect(migration.name.hasPrefix(expectedPrefix), "\(migration.name) should start with \(expectedPrefix)")
        }
    }

    @Test("a fresh database is at version 0 until migrated")
    func freshDatabase() throws {
        let database = try Database(path: ":memory:")
        #expect(try Migrator.currentVersion(of: database) == 0)
        try Migrator.migrate(database)
        #expect(try Migrator.currentVersion(of: database) == Migrations.latestVersion)
    }

    @Test("migrating twice is a no-op")
    func migrateTwice() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        let store = try Store.open(path: path)
        try store.saveRepository(repository(1, "octo/cat"))
        _ = try store.addTodo(repositoryID: 1, text: "keep me", at: moment(1))
        let schemaBefore = try schema(store.database)
        let before = try store.snapshot()
        try Migrator.migrate(store.database)
        try Migrator.migrate(store.database)
        _ = try Store(database: store.database)
        #expect(try schema(store.database) == schemaBefore)
        #expect(try store.snapshot() == before)
        #expect(try Migrator.currentVersion(of: store.database) == Migrations.latestVersion)
    }

    @Test("opening an existing database keeps its data")
    func reopen() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        var before: [String] = []
        do {
            let store = try Store.open(path: path)
            try store.saveRepository(repository(1, "octo/cat"))
            _ = try store.addTodo(repositoryID: 1, text: "survives", at: moment(1))
            before = try store.snapshot()
        }
        let reopened = try Store.open(path: path)
        #expect(try reopened.snapshot() == before)
        #expect(try reopened.allTodos().map(\.text) == ["survives"])
    }

    @Test("a database from a newer doogit is refused and left byte for byte unchanged")
    func newerSchemaRefused() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        let newer = Migrations.latestVersion + 1
        do {
            let database = try Database(path: path)
            try database.execute("CREATE TABLE from_the_future (x TEXT); INSERT INTO from_the_future VALUES ('hello')")
            try database.execute("PRAGMA user_version = \(newer)")
        }
        let bytesBefore = try fileBytes(path)
        #expect(!bytesBefore.isEmpty)

        #expect(throws: StoreError.newerSchema(found: newer, known: Migrations.latestVersion)) {
            try Store.open(path: path)
        }
        let difference = firstDifference(bytesBefore, try fileBytes(path))
        #expect(difference == nil)

        // Also through the Migrator directly, on an open connection.
        do {
            let database = try Database(path: path)
            #expect(throws: StoreError.newerSchema(found: newer, known: Migrations.latestVersion)) {
                try Migrator.migrate(database)
            }
            #expect(try Migrator.currentVersion(of: database) == newer)
            #expect(try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'todos'") == 0)
            #expect(try database.scalarString("SELECT x FROM from_the_future") == "hello")
        }
        let differenceAfterMigrator = firstDifference(bytesBefore, try fileBytes(path))
        #expect(differenceAfterMigrator == nil)
    }

    @Test("a newer database in rollback-journal mode is refused and left byte for byte unchanged too")
    func newerSchemaRollbackJournalRefused() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        let newer = Migrations.latestVersion + 1
        do {
            let database = try Database(path: path)
            try database.execute("CREATE TABLE from_the_future (x TEXT); INSERT INTO from_the_future VALUES ('hello')")
            try database.execute("PRAGMA user_version = \(newer)")
            #expect(try database.scalarString("PRAGMA journal_mode = DELETE") == "delete")
        }
        let bytesBefore = try fileBytes(path)
        try #require(bytesBefore.count > 19 && bytesBefore[18] == 1 && bytesBefore[19] == 1, "not a rollback-journal file")

        #expect(throws: StoreError.newerSchema(found: newer, known: Migrations.latestVersion)) {
            try Store.open(path: path)
        }
        // Bytes 18 and 19 of the header are 1 for a rollback journal and 2 for WAL.
        let difference = firstDifference(bytesBefore, try fileBytes(path))
        #expect(difference == nil)
    }

    @Test("only the migrations above the current version run, each with its version")
    func incremental() throws {
        let first = Migration(version: 1, name: "m0001_a", sql: "CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1);")
        let second = Migration(version: 2, name: "m0002_b", sql: "CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (2);")
        let database = try Database(path: ":memory:")
        try Migrator.migrate(database, to: [first])
        #expect(try Migrator.currentVersion(of: database) == 1)
        try Migrator.migrate(database, to: [first, second])
        #expect(try Migrator.currentVersion(of: database) == 2)
        // The first migration did not run again: its row is there once.
        #expect(try database.scalarInt("SELECT count(*) FROM a WHERE x = 1") == 1)
        #expect(try database.scalarInt("SELECT count(*) FROM a") == 2)
        try Migrator.migrate(database, to: [first, second])
        #expect(try database.scalarInt("SELECT count(*) FROM a") == 2)
        #expect(throws: StoreError.newerSchema(found: 2, known: 1)) { try Migrator.migrate(database, to: [first]) }
    }

    @Test("a failing migration leaves the database at the previous version with nothing half-applied")
    func failingMigration() throws {
        let first = Migration(version: 1, name: "m0001_a", sql: "CREATE TABLE a (x INTEGER);")
        let broken = Migration(version: 2, name: "m0002_broken",
                               sql: "CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (1); THIS IS NOT SQL;")
        let database = try Database(path: ":memory:")
        try Migrator.migrate(database, to: [first])
        let before = try schema(database)
        let code = sqliteCode { try Migrator.migrate(database, to: [first, broken]) }
        #expect(code == SQLiteCode.error)
        #expect(try Migrator.currentVersion(of: database) == 1)
        #expect(try schema(database) == before)
        #expect(try database.scalarInt("SELECT count(*) FROM a") == 0)
        // And it can be migrated once the step is fixed.
        let fixed = Migration(version: 2, name: "m0002_fixed", sql: "CREATE TABLE b (y INTEGER);")
        try Migrator.migrate(database, to: [first, fixed])
        #expect(try Migrator.currentVersion(of: database) == 2)
    }

    @Test("a database at an older version is brought to the latest")
    func fromOlderVersion() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        do {
            let database = try Database(path: path)
            #expect(try Migrator.currentVersion(of: database) == 0)
        }
        let store = try Store.open(path: path)
        #expect(try Migrator.currentVersion(of: store.database) == Migrations.latestVersion)
        #expect(try store.count("SELECT count(*) FROM sqlite_master WHERE name = 'todos'") == 1)
    }
}
