@testable import DoogitStore
import DoogitMerge
import DoogitSupport
import Testing

/// What the store keeps of shared todos: the shares and their branches as last read, the looks
/// for others' shared branches, and the privacy of a todo.
@Suite("Shares")
struct ShareStoreTests {
    private func store() throws -> Store {
        let store = try memoryStore()
        var app = repository(1, "octo/app")
        app.pushedAt = "2026-01-01T00:00:00Z"
        try store.saveRepositories([app, repository(2, "octo/site")])
        return store
    }

    @Test("a share keeps its branch as last read; sharing again reads it whole; what was read outlives an unshare")
    func sharesAndTheirBranches() throws {
        let store = try store()
        #expect(try store.shares().isEmpty)
        try store.addShare(repositoryID: 1, publicAllowed: false, at: moment(1))
        let entry = RemoteEntry(path: "todos/1/1.jsonl", sha: "abc", mode: .file, content: Array("line\n".utf8),
                                removals: RemoteRemovals(firstSince: 2, lastSince: 3, oldest: moment(2)))
        try store.recordShare(1, set: [entry, RemoteEntry(path: "", sha: "root", mode: .tree)], removed: [], head: "c1",
                              refETag: "\"e\"")
        var share = try #require(try store.share(of: 1))
        #expect(share.fullName == "octo/app" && share.branch == Store.sharedBranch && share.headCommit == "c1"
                && share.refETag == "\"e\"" && !share.publicAllowed && share.canPush == nil)
        #expect(try store.shareEntries(1)["todos/1/1.jsonl"]?.removals?.lastSince == 3)
        #expect(try store.shareContent(1, "todos/1/1.jsonl") == Array("line\n".utf8))
        #expect(try store.shareContent(2, "todos/1/1.jsonl") == nil, "one share's files are not another's")
        try store.recordShareRepository(1, etag: "\"r\"", isPublic: true, canPush: false)
        try store.recordShareUnreadable(1, at: moment(3))
        try store.recordShareUnreadable(1, at: moment(4))
        share = try #require(try store.share(of: 1))
        #expect(share.isPublic && share.canPush == false && share.unreadableSince == moment(3), "unreadable since the first time")
        #expect(share.repositoryETag == nil, "the next read is whole")
        // Shared again: the branch is read whole, a refused write tried again; its files as last read stay.
        try store.addShare(repositoryID: 1, publicAllowed: true, at: moment(5))
        share = try #require(try store.share(of: 1))
        #expect(share.publicAllowed && share.headCommit == nil && share.repositoryETag == nil && share.canPush == nil
                && share.addedAt == moment(1))
        #expect(try Set(store.shareEntries(1).keys) == ["todos/1/1.jsonl"], "the files stay, the folders go")
        #expect(try store.repositorySummaries().map(\.shared) == [true, false])
        // Unshared: the files as last read stay for a share again; the repository untracked, they go.
        #expect(try store.removeShare(repositoryID: 1))
        #expect(try !store.removeShare(repositoryID: 1))
        #expect(try store.shareContent(1, "todos/1/1.jsonl") == Array("line\n".utf8))
        try store.database.execute("DELETE FROM repositories WHERE id = 1")
        #expect(try store.count("SELECT count(*) FROM share_files") == 0)
    }

    @Test("a repository is looked at for a shared branch once pushed to since its last look, and a branch found is said once")
    func looksForSharedBranches() throws {
        let store = try store()
        #expect(try store.shareCandidates(limit: 10).isEmpty, "tracked just now: looked at as it is")
        try store.database.execute("UPDATE repositories SET pushed_at = '2026-02-01T00:00:00Z' WHERE id = 1")
        let candidates = try store.shareCandidates(limit: 10)
        #expect(candidates.map(\.id) == [1])
        #expect(try !store.recordShareCheck(1, pushedAt: "2026-02-01T00:00:00Z", found: false, etag: "\"x\""))
        #expect(try store.shareCandidates(limit: 10).isEmpty)
        try store.database.execute("UPDATE repositories SET pushed_at = '2026-03-01T00:00:00Z' WHERE id = 1")
        #expect(try store.shareCandidates(limit: 10).first?.etag == "\"x\"", "asked conditionally")
        #expect(try store.recordShareCheck(1, pushedAt: "2026-03-01T00:00:00Z", found: true, etag: "\"y\""))
        try store.database.execute("UPDATE repositories SET pushed_at = '2026-04-01T00:00:00Z' WHERE id = 1")
        #expect(try !store.recordShareCheck(1, pushedAt: "2026-04-01T00:00:00Z", found: nil, etag: nil), "said once")
        #expect(try store.shareCandidates(limit: 10).isEmpty)
        // A repository shared from here is not looked at.
        try store.database.execute("UPDATE repositories SET pushed_at = '2026-05-01T00:00:00Z' WHERE id = 1")
        try store.addShare(repositoryID: 1, publicAllowed: false, at: moment(1))
        #expect(try store.shareCandidates(limit: 10).isEmpty)
    }

    @Test("a todo kept private is a register with its own stamp, noted for the remote like any change")
    func keptPrivate() throws {
        let store = try store()
        let todo = try store.addTodo(repositoryID: 1, text: "a gift", details: DetailsEdit(keptPrivate: true), at: moment(1))
        #expect(try store.isKeptPrivate(todo.id))
        let entry = try #require(try store.replica.read(repositories: [1], uuids: []).todos[todo.uuid])
        #expect(entry.details.keptPrivate.value && entry.details.keptPrivate.stamp != .zero)
        try settleRemote(store)
        _ = try store.editTodo(id: todo.id, text: nil, details: DetailsEdit(keptPrivate: true), at: moment(2))
        #expect(try waitingTodos(store).isEmpty, "already private: nothing changes")
        _ = try store.editTodo(id: todo.id, text: nil, details: DetailsEdit(keptPrivate: false), at: moment(3))
        #expect(try !store.isKeptPrivate(todo.id) && waitingTodos(store) == [todo.uuid])
        let shared = try #require(try store.replica.read(repositories: [1], uuids: []).todos[todo.uuid])
        #expect(shared.details.keptPrivate.stamp > entry.details.keptPrivate.stamp)
    }
}

@Suite("Shares: the schema that adds them")
struct ShareMigrationTests {
    @Test("a store of schema 19 has no share, counts its repositories as looked at, its todos as shared, and reads the remote whole once")
    func fromSchema19() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        do {
            let database = try Database(path: path)
            try Migrator.migrate(database, to: Array(Migrations.all.prefix(19)))
            try database.execute("""
                INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at, pushed_at) VALUES
                    (1, 'o', 'a', 'o/a', 'https://github.com/o/a', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z',
                     '2026-01-01T00:00:00Z');
                INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at)
                VALUES ('00000000-0000-4000-8000-000000000001', 1, 'before', 0, 1, '2026-01-01T00:00:00.000Z',
                        '2026-01-01T00:00:00.000Z');
                INSERT INTO remote (id, repository_id, full_name, branch, path, added_at, head_commit, ref_etag, exchanged)
                VALUES (1, 9, 'o/todos', 'main', 'todos.jsonl', '2026-01-01T00:00:00.000Z', 'abc', '"e"', 1);
                INSERT INTO remote_files (path, parent, sha, is_folder, mode, content)
                VALUES ('todos/1/1.jsonl', 'todos/1', 'def', 0, '100644', '{"format":"doogit","version":"4.1"}');
                """)
        }
        let store = try Store.open(path: path)
        #expect(try store.shares().isEmpty && store.shareCandidates(limit: 10).isEmpty)
        #expect(try store.count("SELECT count(*) FROM remote_files") == 0)
        let todo = try #require(try store.allTodos().first)
        #expect(try !store.isKeptPrivate(todo.id))
        try settleRemote(store)
        // Another program writing the column is noted for the remote as well (the trigger).
        try store.database.execute("UPDATE todos SET kept_private = 1")
        #expect(try waitingTodos(store) == [todo.uuid])
    }
}
