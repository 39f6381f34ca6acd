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

    /// Rows as a database at `version` holds them, written with that version's own schema.
    private func seed(_ database: Database, version: Int) throws {
        try database.execute("""
            INSERT INTO repositories (id, owner, name, full_name, description, html_url, private, archived, gone,
                                      added_at, synced_at)
            VALUES (1, 'octo', 'cat', 'octo/cat', 'meow', 'https://github.com/octo/cat', 0, 0, 0,
                    '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'),
                   (2, 'octo', 'dog', 'octo/dog', NULL, 'https://github.com/octo/dog', 1, 1, 1,
                    '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
            INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at)
            VALUES ('00000000-0000-4000-8000-000000000001', 1, 'open one', 0, 1, '2026-01-03T00:00:00.000Z',
                    '2026-01-03T00:00:00.000Z', NULL),
                   ('00000000-0000-4000-8000-000000000002', 1, 'done one', 1, 2, '2026-01-03T00:00:00.000Z',
                    '2026-01-04T00:00:00.000Z', '2026-01-04T00:00:00.000Z'),
                   ('00000000-0000-4000-8000-000000000003', 2, 'in a gone repository', 0, 1,
                    '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z', NULL);
            INSERT INTO todo_tombstones (uuid, repository_id, removed_at)
            VALUES ('00000000-0000-4000-8000-000000000009', 1, '2026-01-05T00:00:00.000Z');
            """)
        if version >= 2 {
            try database.execute("""
                INSERT INTO listing_pages (url, etag, next_url, repositories, fetched_at)
                VALUES ('https://api.github.com/user/repos', '"e"', NULL, '[]', '2026-01-05T00:00:00.000Z')
                """)
        }
        if version >= 4 {
            try database.execute("""
                INSERT INTO todo_tombstones (uuid, repository_id, removed_at, todo_id, text, done, position, created_at,
                                             updated_at, done_at)
                VALUES ('00000000-0000-4000-8000-00000000000a', 1, '2026-01-06T00:00:00.000Z', 10, 'removed, linked', 0, 3,
                        '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z', NULL)
                """)
        }
        if version >= 5 && version < 7 {
            // Issues: a linked todo and a link kept by a removed todo, with what sync last saw of them.
            try database.execute("""
                UPDATE todos SET issue_number = 12, issue_url = 'https://github.com/octo/cat/issues/12', issue_state = 'closed',
                    issue_title = 'Done one', issue_synced_text = 'done one', issue_synced_done = 1,
                    issue_synced_at = '2026-01-04T00:00:00Z'
                WHERE uuid = '00000000-0000-4000-8000-000000000002';
                UPDATE todo_tombstones SET issue_number = 13, issue_url = 'https://github.com/octo/cat/issues/13',
                    issue_state = 'open', issue_title = 'Removed', issue_synced_text = 'removed, linked', issue_synced_done = 0
                WHERE uuid = '00000000-0000-4000-8000-00000000000a';
                """)
        }
        if version >= 7 {
            // The same, with the issue as seen kept apart from the link, and a commit's trailer recorded.
            try database.execute("""
                UPDATE todos SET issue_number = 12, issue_url = 'https://github.com/octo/cat/issues/12', seen_number = 12,
                    seen_state = 'closed', seen_title = 'Done one', seen_url = 'https://github.com/octo/cat/issues/12',
                    seen_updated_at = '2026-01-04T00:00:00.000Z', seen_clock = '2026-01-04T00:00:00.000Z/0000/aaaaaaaaaaaa'
                WHERE uuid = '00000000-0000-4000-8000-000000000002';
                UPDATE todo_tombstones SET issue_number = 13, issue_url = 'https://github.com/octo/cat/issues/13',
                    issue_clock = '2026-01-06T00:00:00.000Z/0000/aaaaaaaaaaaa', seen_number = 13, seen_state = 'open',
                    seen_title = 'Removed', seen_url = 'https://github.com/octo/cat/issues/13',
                    seen_clock = '2026-01-06T00:00:00.000Z/0000/aaaaaaaaaaaa'
                WHERE uuid = '00000000-0000-4000-8000-00000000000a';
                INSERT INTO todo_commits (todo_uuid, sha) VALUES ('00000000-0000-4000-8000-000000000002', '6dcb09b5b57875f3');
                """)
        }
        if version >= 5 {
            // Settings, issues known and being created.
            try database.execute("""
                UPDATE repositories SET push_issues = 1, import_issues = 'assigned', scan_commits = 0 WHERE id = 1;
                INSERT INTO known_issues (repository_id, issue_number, seen_at) VALUES (1, 12, '2026-01-04T00:00:00.000Z');
                INSERT INTO pending_issues (todo_uuid, repository_id, title, body, labels, marker, state, created_at)
                VALUES ('00000000-0000-4000-8000-000000000001', 1, 'open one', 'b', '[]', 'm', 'unknown',
                        '2026-01-05T00:00:00.000Z');
                """)
        }
        if version >= 6 {
            // The remote: stamps on everything, a repository stopped elsewhere, the file as last read.
            try database.execute("""
                UPDATE todos SET issue_clock = '2026-01-04T00:00:00.000Z/0000/aaaaaaaaaaaa' WHERE issue_number IS NOT NULL;
                UPDATE repositories SET settings_clock = '2026-01-04T00:00:00.000Z/0000/aaaaaaaaaaaa' WHERE id = 1;
                INSERT INTO untracked_repositories (id, full_name, html_url, name_clock, tracked_clock, push_issues,
                                                    settings_clock)
                VALUES (3, 'octo/owl', 'https://github.com/octo/owl', '2026-01-01T00:00:00.000Z/0000/aaaaaaaaaaaa',
                        '2026-01-05T00:00:00.000Z/0000/aaaaaaaaaaaa', 1, '2026-01-05T00:00:00.000Z/0000/aaaaaaaaaaaa');
                INSERT INTO remote (id, repository_id, full_name, branch, path, content, added_at)
                VALUES (1, 99, 'octo/doogit-data', 'main', 'todos.jsonl', '{"format":"doogit","version":"1.0"}',
                        '2026-01-05T00:00:00.000Z');
                """)
        }
        if version >= 8 {
            // The remote as files, known as an older doogit knew them: folders named as if every
            // file were 100644, and the root named by its commit.
            try database.execute("""
                UPDATE remote SET head_commit = 'c0ffee0000000000000000000000000000000000', ref_etag = 'W/"e"' WHERE id = 1;
                INSERT INTO remote_files (path, parent, sha, is_folder, content) VALUES
                    ('', NULL, 'c0ffee0000000000000000000000000000000000', 1, NULL),
                    ('todos', '', '1111111111111111111111111111111111111111', 1, NULL),
                    ('repositories.jsonl', '', '2222222222222222222222222222222222222222', 0, '{"format":"doogit","version":"3.0"}');
                """)
        }
    }

    @Test("tags kept as one set become tags of their own, at the set's stamp, one per name without case")
    func tagsBecomeASet() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        let uuid = "00000000-0000-4000-8000-000000000001"
        let stamp = "2026-01-04T00:00:00.000Z/0000/aaaaaaaaaaaa"
        do {
            let database = try Database(path: path)
            try Migrator.migrate(database, to: Array(Migrations.all.prefix(10)))
            try seed(database, version: 10)
            try database.execute("""
                UPDATE todos SET tags_clock = '\(stamp)' WHERE uuid = '\(uuid)';
                INSERT INTO todo_tags (todo_uuid, tag) VALUES ('\(uuid)', 'ci'), ('\(uuid)', 'BUG'), ('\(uuid)', 'bug');
                """)
        }
        let store = try Store.open(path: path)
        let tags = try #require(try store.replica.read().replica.todos[uuid]?.details.tags)
        let at = try #require(HybridTimestamp(text: stamp))
        #expect(tags.tags == ["BUG", "ci"], "two spellings of one tag were two tags: one is kept")
        #expect(tags.states.values.allSatisfy { $0.isOn && $0.stamp == at })
        #expect(try store.todo(id: 1).tags == ["BUG", "ci"])
    }

    @Test("the remote's folders known before modes were are forgotten, its files kept, so the next sync lists it again")
    func remoteFoldersAreListedAgainWithTheirModes() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        do {
            let database = try Database(path: path)
            try Migrator.migrate(database, to: Array(Migrations.all.prefix(9)))
            try seed(database, version: 9)
        }
        let store = try Store.open(path: path)
        let entries = try store.remoteEntries()
        #expect(entries.keys.sorted() == ["repositories.jsonl"], "the root and the folders are gone")
        #expect(entries["repositories.jsonl"]?.mode == .file && entries["repositories.jsonl"]?.isFolder == false)
        #expect(try store.remoteContent("repositories.jsonl") == Array(#"{"format":"doogit","version":"3.0"}"#.utf8))
        let settings = try #require(try store.remoteSettings())
        #expect(settings.headCommit == "c0ffee0000000000000000000000000000000000" && settings.refETag == nil)
        #expect(!settings.repositoryPublic)
    }

    @Test("a database with data, at every older version, upgrades to the latest keeping every row, links and settings")
    func upgradeKeepsData() throws {
        // The latest version too: its seed is the one the next migration will upgrade.
        for version in 1...Migrations.latestVersion {
            let directory = try ScratchDirectory()
            let path = directory.file("doogit.db")
            do {
                let database = try Database(path: path)
                try Migrator.migrate(database, to: Array(Migrations.all.prefix(version)))
                try seed(database, version: version)
            }
            let store = try Store.open(path: path)
            #expect(try Migrator.currentVersion(of: store.database) == Migrations.latestVersion, "from \(version)")
            #expect(try store.repositories().map(\.fullName) == ["octo/cat", "octo/dog"], "from \(version)")
            #expect(try store.repositories().map(\.gone) == [false, true], "from \(version)")
            let todos = try store.allTodos()
            #expect(todos.map(\.text) == ["open one", "done one", "in a gone repository"], "from \(version)")
            #expect(todos.map(\.done) == [false, true, false], "from \(version)")
            #expect(try store.tombstones().count == (version >= 4 ? 2 : 1), "from \(version)")
            if version >= 2 { #expect(try store.cachedPage(url: "https://api.github.com/user/repos") != nil) }
            // Links and settings are kept, and from a version without stamps they get some, so they
            // reach the other machines; settings nobody changed get none, so they never win there.
            let replica = try store.replica.read().replica
            let linked = replica.todos["00000000-0000-4000-8000-000000000002"]?.issue
            let removedLink = replica.todos["00000000-0000-4000-8000-00000000000a"]?.issue
            let settings = replica.repositories[1]?.settings
            if version >= 5 {
                #expect(todos[1].issue == IssueLink(number: 12, url: "https://github.com/octo/cat/issues/12", state: .closed))
                #expect(linked?.value == LinkedIssue(number: 12, repository: 1, url: "https://github.com/octo/cat/issues/12"),
                        "from \(version)")
                #expect(linked?.stamp != .zero && settings?.stamp != .zero, "from \(version)")
                #expect(removedLink?.value?.number == 13, "from \(version)")
                #expect(settings?.value == SharedSettings(pushIssues: true, importIssues: "assigned", scanCommits: false))
                #expect(try store.repository(id: 1)?.settings == RepositorySettings(pushIssues: true, importIssues: .assigned,
                                                                                     scanCommits: false))
                #expect(try store.knownIssueNumbers(repositoryID: 1) == [12] && store.pendingIssues().count == 1)
                let seen = try #require(try store.linkedTodos(repositoryID: 1).first?.entry.observation)
                #expect(seen.title == "Done one" && seen.state == "closed" && seen.updatedAt == Timestamp(rfc3339: "2026-01-04T00:00:00Z"),
                        "from \(version): what sync saw of the issue is kept, as seen under the link")
                #expect(replica.todos["00000000-0000-4000-8000-00000000000a"]?.observation?.title == "Removed", "from \(version)")
            } else {
                #expect(linked == Register(nil, at: .zero) && settings?.stamp == .zero, "from \(version)")
            }
            #expect(replica.repositories[2]?.settings.stamp == .zero, "from \(version): defaults are not stamped")
            if version >= 6 {
                #expect(linked?.stamp.text == "2026-01-04T00:00:00.000Z/0000/aaaaaaaaaaaa")
                #expect(replica.repositories[3]?.tracked.value == false && replica.repositories[3]?.settings.value.pushIssues == true)
                #expect(try store.remoteSettings()?.fullName == "octo/doogit-data")
            }
        }
    }

    @Test("a migration that rebuilds a table others point at does not cascade-delete their rows")
    func rebuildingMigrationKeepsChildren() throws {
        let database = try Database(path: ":memory:")
        try Migrator.migrate(database, to: Array(Migrations.all.prefix(1)))
        try seed(database, version: 1)
        let rebuild = Migration(version: 2, name: "m0002_rebuild", sql: """
            CREATE TABLE repositories_new (
                id INTEGER PRIMARY KEY, owner TEXT, name TEXT, full_name TEXT, description TEXT, html_url TEXT,
                private INTEGER, archived INTEGER, gone INTEGER, pushed_at TEXT, remote_updated_at TEXT, etag TEXT,
                added_at TEXT, synced_at TEXT);
            INSERT INTO repositories_new SELECT * FROM repositories;
            DROP TABLE repositories;
            ALTER TABLE repositories_new RENAME TO repositories;
            """)
        try Migrator.migrate(database, to: [Migrations.all[0], rebuild])
        #expect(try database.scalarInt("SELECT count(*) FROM todos") == 3)
        #expect(try database.scalarInt("PRAGMA foreign_keys") == 1)
    }

    @Test("a migration that would leave rows pointing nowhere is rolled back")
    func danglingRowsRollBack() throws {
        let database = try Database(path: ":memory:")
        try Migrator.migrate(database, to: Array(Migrations.all.prefix(1)))
        try seed(database, version: 1)
        let losing = Migration(version: 2, name: "m0002_losing", sql: "DELETE FROM repositories WHERE id = 1;")
        #expect(throws: StoreError.foreignKeyViolation(table: "todos")) {
            try Migrator.migrate(database, to: [Migrations.all[0], losing])
        }
        #expect(try Migrator.currentVersion(of: database) == 1)
        #expect(try database.scalarInt("SELECT count(*) FROM repositories") == 2)
        #expect(try database.scalarInt("PRAGMA foreign_keys") == 1)
    }
}
