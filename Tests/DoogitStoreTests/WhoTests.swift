@testable import DoogitStore
import DoogitMerge
import DoogitSupport
import Testing

/// Who added a todo, who finished it and whom it is assigned to: kept, stamped as fields of
/// their own, read back, and picked by `--mine` and `next`.
@Suite("Who")
struct WhoTests {
    private func store() throws -> Store {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat")])
        return store
    }

    @Test("a todo keeps its author; done keeps who finished it, with the done state's stamp; reopening clears it")
    func authorAndFinisher() throws {
        let store = try store()
        let added = try store.addTodo(repositoryID: 1, text: "ship it", author: "octocat", at: moment(1))
        #expect(added.author == "octocat" && added.finishedBy == nil && added.assignee == nil && added.owner == "octocat")
        let done = try store.setDone([added.id], done: true, by: "hubot", at: moment(2))[0]
        #expect(done.finishedBy == "hubot")
        let stamps = try #require(try store.database.query(
            "SELECT done_clock, finished_by_clock, author_clock, text_clock FROM todos WHERE id = ?", [.integer(added.id)]) { row throws(StoreError) in
            (try row.string(0), try row.string(1), try row.string(2), try row.string(3))
        }.first)
        #expect(stamps.0 == stamps.1, "who finished it settles with the done state")
        #expect(stamps.2 == stamps.3, "the author is stamped with the todo's making")
        // Done again by someone else: nothing changes (it is done already).
        #expect(try store.setDone([added.id], done: true, by: "mona", at: moment(3))[0].finishedBy == "hubot")
        let reopened = try store.setDone([added.id], done: false, by: "mona", at: moment(4))[0]
        #expect(reopened.finishedBy == nil && !reopened.done)
        let entry = try #require(try store.replica.read(repositories: [1], uuids: [added.uuid]).todos[added.uuid])
        #expect(entry.details.author == Register("octocat", at: entry.text.stamp))
        #expect(entry.details.finishedBy.value == nil && entry.details.finishedBy.stamp == entry.done.stamp)
    }

    @Test("who finished a todo shows only while it is done by that change: done or reopened otherwise, nobody known")
    func finisherFollowsTheDoneState() throws {
        let store = try store()
        let todo = try store.addTodo(repositoryID: 1, text: "ship it", at: moment(1))
        _ = try store.setDone([todo.id], done: true, by: "hubot", at: moment(2))
        // Reopened and done again by a path that knows no finisher (an issue, the board, a commit).
        try store.database.execute("UPDATE todos SET done = 0, done_at = NULL, done_clock = '2099-01-01T00:00:00.000Z/0000/aaaaaaaaaaaa'")
        #expect(try store.requireTodos([todo.id])[0].finishedBy == nil)
        try store.database.execute("""
            UPDATE todos SET done = 1, done_at = '2099-01-02T00:00:00.000Z', done_clock = '2099-01-02T00:00:00.000Z/0000/aaaaaaaaaaaa'
            """)
        #expect(try store.requireTodos([todo.id])[0].finishedBy == nil, "done again, but not by hubot's change")
        _ = try store.setDone([todo.id], done: false, at: moment(3))
        _ = try store.setDone([todo.id], done: true, by: "mona", at: moment(4))
        #expect(try store.requireTodos([todo.id])[0].finishedBy == "mona")
        _ = try store.removeTodos([todo.id], at: moment(5))
        #expect(try store.removedSections().flatMap(\.todos).first?.finishedBy == "mona", "a removed todo keeps it")
    }

    @Test("a login that is no GitHub login is refused by the store itself, whoever writes it")
    func loginsAreChecked() throws {
        let store = try store()
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: moment(1))
        let before = try store.snapshot()
        for bad in ["a b", "-x", "", "evil\u{1B}[2J", String(repeating: "a", count: 101)] {
            #expect(throws: (any Error).self, "\(bad.debugDescription)") { try store.assign([todo.id], to: bad, at: moment(2)) }
            #expect(throws: (any Error).self) { try store.addTodo(repositoryID: 1, text: "u", author: bad, at: moment(2)) }
        }
        #expect(try store.snapshot() == before)
        #expect(try store.assign([todo.id], to: "user_corp-1", at: moment(3))[0].assignee == "user_corp-1")
    }

    @Test("an assignment is a field of its own: stamped, waiting to be sent, cleared by nil")
    func assignment() throws {
        let store = try store()
        let todo = try store.addTodo(repositoryID: 1, text: "review", at: moment(1))
        #expect(todo.author == nil)
        try settleRemote(store)
        let assigned = try store.assign([todo.id], to: "hubot", at: moment(2))[0]
        #expect(assigned.assignee == "hubot" && assigned.owner == "hubot")
        #expect(try waitingTodos(store) == [todo.uuid])
        let entry = try #require(try store.replica.read(repositories: [1], uuids: [todo.uuid]).todos[todo.uuid])
        #expect(entry.details.assignee.value == "hubot" && entry.details.assignee.stamp > entry.text.stamp)
        try settleRemote(store)
        #expect(try store.assign([todo.id], to: "hubot", at: moment(3))[0].assignee == "hubot")
        #expect(try waitingTodos(store).isEmpty, "the same assignee again changes nothing")
        #expect(try store.assign([todo.id], to: nil, at: moment(4))[0].assignee == nil)
        #expect(throws: StoreError.unknownTodos([99])) { try store.assign([todo.id, 99], to: "x", at: moment(5)) }
    }

    @Test("--mine: assigned to me, or assigned to nobody and added by me or by nobody known; logins without case")
    func mine() throws {
        let store = try store()
        let mineAdded = try store.addTodo(repositoryID: 1, text: "mine, added", author: "OctoCat", at: moment(1))
        let unknown = try store.addTodo(repositoryID: 1, text: "added before authors", at: moment(2))
        let theirs = try store.addTodo(repositoryID: 1, text: "theirs", author: "hubot", at: moment(3))
        let given = try store.addTodo(repositoryID: 1, text: "given to me", author: "hubot", at: moment(4))
        let away = try store.addTodo(repositoryID: 1, text: "given away", author: "octocat", at: moment(5))
        _ = try store.assign([given.id], to: "octocat", at: moment(6))
        _ = try store.assign([away.id], to: "hubot", at: moment(7))
        let filter = DetailsFilter(mine: "octocat")
        let shown = try store.sections(details: filter).flatMap(\.todos).map(\.id)
        #expect(Set(shown) == [mineAdded.id, unknown.id, given.id])
        #expect(!shown.contains(theirs.id))
        // `next` ranks mine first whatever the urgency of the others.
        _ = try store.editDetails(id: theirs.id, DetailsEdit(priority: .some(.high)), at: moment(8))
        let today = try #require(CalendarDate.local(at: moment(9)))
        let ranked = try store.nextTodos(limit: 10, me: "octocat", today: today, now: moment(9)).map(\.todo.id)
        #expect(ranked.count == 5 && Set(ranked.prefix(3)) == [mineAdded.id, unknown.id, given.id], "\(ranked)")
        #expect(try store.nextTodos(limit: 10, today: today, now: moment(9)).first?.todo.id == theirs.id, "without a login, by urgency")
    }

    @Test("the token's login is kept per API origin with the token's fingerprint; one that is no login is not")
    func logins() throws {
        let store = try store()
        let github = "https://api.github.com", (first, second) = (Store.tokenFingerprint("ghp_one"), Store.tokenFingerprint("ghp_two"))
        #expect(first.count == 16 && first != second && !first.contains("one"))
        #expect(try store.login(origin: github) == nil)
        #expect(try !store.loginIsCurrent(origin: github, tokenFingerprint: first))
        try store.recordLogin("octocat", origin: github, tokenFingerprint: first, at: moment(1))
        try store.recordLogin("hubot", origin: "http://127.0.0.1:8080", tokenFingerprint: nil, at: moment(1))
        try store.recordLogin("evil\u{1B}[2J", origin: github, tokenFingerprint: second, at: moment(2))
        #expect(try store.login(origin: github) == "octocat")
        #expect(try store.loginIsCurrent(origin: github, tokenFingerprint: first))
        #expect(try !store.loginIsCurrent(origin: github, tokenFingerprint: second), "another token: its user is asked again")
        #expect(try store.login(origin: "http://127.0.0.1:8080") == "hubot")
        try store.recordLogin("mona", origin: github, tokenFingerprint: second, at: moment(3))
        #expect(try store.login(origin: github) == "mona" && store.loginIsCurrent(origin: github, tokenFingerprint: second))
        try store.forgetLogin(origin: github)
        #expect(try store.login(origin: github) == nil)
    }
}

@Suite("Who: the schema that adds it")
struct WhoMigrationTests {
    @Test("a store of schema 18 keeps its todos, has nobody on them, and notes a change of who for the remote")
    func fromSchema18() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        do {
            let database = try Database(path: path)
            try Migrator.migrate(database, to: Array(Migrations.all.prefix(18)))
            try database.execute("""
                INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at) VALUES
                    (1, 'o', 'a', 'o/a', 'https://github.com/o/a', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
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
        // What a doogit of 4.0 read of who is in the remote's files alone: they are read whole once.
        #expect(try store.count("SELECT count(*) FROM remote_files") == 0)
        let remote = try #require(try store.remoteSettings())
        #expect(remote.headCommit == nil && remote.refETag == nil && remote.exchanged)
        let todo = try #require(try store.allTodos().first)
        #expect(todo.text == "before" && todo.author == nil && todo.finishedBy == nil && todo.assignee == nil)
        try settleRemote(store)
        _ = try store.assign([todo.id], to: "octocat", at: moment(1))
        #expect(try waitingTodos(store) == [todo.uuid])
        try settleRemote(store)
        // Another program writing the column is noted as well (the trigger, not the command).
        try store.database.execute("UPDATE todos SET assignee = 'hubot'")
        #expect(try waitingTodos(store) == [todo.uuid])
    }
}
