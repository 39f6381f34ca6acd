import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing

/// Databases holding data, brought to the latest version: every row, link and setting kept in the
/// shape each migration gives it, and no row left pointing nowhere.
@Suite("Migrations of a database with data")
struct MigrationDataTests {
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
            // Schema 10 itself (schema 19 forgets the files too, for a reason of its own).
            try Migrator.migrate(database, to: Array(Migrations.all.prefix(10)))
            let files = try database.query("SELECT path, is_folder, mode, content FROM remote_files") { row throws(StoreError) in
                "\(try row.string(0)) \(try row.int64(1)) \(row.optionalString(2) ?? "-") \(row.optionalString(3) ?? "-")"
            }
            #expect(files == [#"repositories.jsonl 0 - {"format":"doogit","version":"3.0"}"#], "the root and the folders are gone")
            let remote = try database.query("SELECT head_commit, ref_etag, repository_public FROM remote") { row throws(StoreError) in
                "\(row.optionalString(0) ?? "-") \(row.optionalString(1) ?? "-") \(try row.int64(2))"
            }
            #expect(remote == ["c0ffee0000000000000000000000000000000000 - 0"])
        }
        let store = try Store.open(path: path)
        #expect(try store.remoteEntries().isEmpty, "schema 19: read whole once")
        let settings = try #require(try store.remoteSettings())
        #expect(settings.headCommit == nil && settings.refETag == nil && !settings.repositoryPublic)
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
