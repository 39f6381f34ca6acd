import DoogitStore
import DoogitSupport
import Testing

@Suite("Repositories: save")
struct SaveRepositoryTests {
    @Test("every field round-trips")
    func roundTrip() throws {
        let store = try memoryStore()
        let record = RepositoryRecord(
            id: 1_296_269, owner: "octocat", name: "Hello-World", fullName: "octocat/Hello-World",
            description: "My first repository on GitHub! 😀", url: "https://github.com/octocat/Hello-World",
            isPrivate: true, archived: true, gone: true, pushedAt: "2011-01-26T19:06:43Z",
            remoteUpdatedAt: "2011-01-26T19:14:43Z", etag: "W/\"abc\"", addedAt: moment(1), syncedAt: moment(2))
        try store.saveRepository(record)
        #expect(try store.repository(id: 1_296_269) == record)
        let bare = repository(Int64.max, "o/n")
        try store.saveRepository(bare)
        #expect(try store.repository(id: Int64.max) == bare)
        #expect(try store.repository(id: 42) == nil)
    }

    @Test("saving again updates the fields but keeps the first addedAt")
    func upsertKeepsAddedAt() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(7, "octo/cat", addedAt: moment(1), description: "first"))
        var update = repository(7, "octo/cat", addedAt: moment(50), description: nil)
        update.syncedAt = moment(60)
        update.archived = true
        update.etag = "\"e2\""
        update.pushedAt = "2026-01-01T00:00:00Z"
        try store.saveRepository(update)
        var expected = update
        expected.addedAt = moment(1)
        #expect(try store.repository(id: 7) == expected)
        #expect(try store.count("SELECT count(*) FROM repositories") == 1)
    }

    @Test("a rename (same id, new full name) keeps the repository's todos")
    func renameKeepsTodos() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(10, "octo/old", addedAt: moment(1)))
        let a = try store.addTodo(repositoryID: 10, text: "a", at: moment(2))
        let b = try store.addTodo(repositoryID: 10, text: "b", at: moment(2))
        _ = try store.setDone([b.id], done: true, at: moment(3))
        try store.saveRepository(repository(10, "NewOwner/new-name", addedAt: moment(9)))

        let todos = try store.allTodos()
        #expect(todos.map(\.id) == [a.id, b.id])
        #expect(todos.map(\.uuid) == [a.uuid, b.uuid])
        #expect(todos.allSatisfy { $0.repositoryID == 10 && $0.repositoryFullName == "NewOwner/new-name" })
        #expect(todos[1].done)
        let record = try #require(try store.repository(id: 10))
        #expect(record.fullName == "NewOwner/new-name")
        #expect(record.owner == "NewOwner")
        #expect(record.name == "new-name")
        #expect(record.addedAt == moment(1))
        #expect(try store.findRepository(owner: "newowner", name: "NEW-NAME").id == 10)
        // The old name still reaches it: old checkouts and scripts keep using it.
        #expect(try store.findRepository(owner: "octo", name: "old").id == 10)
        #expect(try store.tombstones().isEmpty)
    }

    @Test("saveRepositories is all or none")
    func saveManyAtomic() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat", description: "before"))
        let before = try store.snapshot()
        var broken = repository(3, "x/y")
        broken.owner = ""  // refused by a CHECK
        let code = sqliteCode {
            try store.saveRepositories([repository(1, "octo/cat", description: "after"), repository(2, "octo/dog"), broken])
        }
        #expect(code == SQLiteCode.constraintCheck)
        #expect(try store.snapshot() == before)
        try store.saveRepositories([repository(2, "octo/dog"), repository(3, "x/y")])
        #expect(try store.count("SELECT count(*) FROM repositories") == 3)
    }
}

@Suite("Repositories: find")
struct FindRepositoryTests {
    private func makeStore() throws -> Store {
        let store = try memoryStore()
        try store.saveRepositories([
            repository(1, "octocat/Hello-World"), repository(2, "alice/app"), repository(3, "Bob/app"),
            repository(4, "carol/unique"), repository(5, "dave/under_score"),
        ])
        return store
    }

    @Test("by OWNER/NAME, case-insensitively", arguments: [
        ("octocat", "Hello-World"), ("OCTOCAT", "HELLO-WORLD"), ("OctoCat", "hello-world"),
    ])
    func byFullName(owner: String, name: String) throws {
        #expect(try makeStore().findRepository(owner: owner, name: name).id == 1)
    }

    @Test("by bare name, case-insensitively, when only one repository has it", arguments: ["unique", "UNIQUE", "Unique"])
    func byBareName(name: String) throws {
        #expect(try makeStore().findRepository(owner: nil, name: name).id == 4)
    }

    @Test("an owner with a name that is ambiguous alone is not ambiguous")
    func ownerDisambiguates() throws {
        let store = try makeStore()
        #expect(try store.findRepository(owner: "alice", name: "app").id == 2)
        #expect(try store.findRepository(owner: "BOB", name: "APP").id == 3)
    }

    @Test("an ambiguous bare name names every candidate")
    func ambiguous() throws {
        let store = try makeStore()
        let candidates = [RepositoryMatch(id: 2, fullName: "alice/app", gone: false),
                          RepositoryMatch(id: 3, fullName: "Bob/app", gone: false)]
        #expect(throws: StoreError.ambiguousRepository("app", candidates: candidates)) {
            try store.findRepository(owner: nil, name: "app")
        }
        #expect(throws: StoreError.ambiguousRepository("APP", candidates: candidates)) {
            try store.findRepository(owner: nil, name: "APP")
        }
    }

    @Test("unknown names are unknownRepository")
    func unknown() throws {
        let store = try makeStore()
        #expect(throws: StoreError.unknownRepository("nobody/nothing")) { try store.findRepository(owner: "nobody", name: "nothing") }
        #expect(throws: StoreError.unknownRepository("nothing")) { try store.findRepository(owner: nil, name: "nothing") }
        #expect(throws: StoreError.unknownRepository("alice/unique")) { try store.findRepository(owner: "alice", name: "unique") }
        // Names are matched exactly, never as patterns.
        #expect(throws: StoreError.unknownRepository("%")) { try store.findRepository(owner: nil, name: "%") }
        #expect(throws: StoreError.unknownRepository("under%")) { try store.findRepository(owner: nil, name: "under%") }
        #expect(throws: StoreError.unknownRepository("dave/under_scor_")) {
            try store.findRepository(owner: "dave", name: "under_scor_")
        }
    }

    @Test("a live repository wins over a gone one holding the same name")
    func liveOverGone() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/app", gone: true))
        try store.saveRepository(repository(2, "OCTO/app"))
        #expect(try store.findRepository(owner: "octo", name: "app").id == 2)
    }
}

@Suite("Repositories: remove")
struct RemoveRepositoryTests {
    /// octo/cat (1) with two open todos and one done; octo/dog (2) with one done; octo/eel (3) empty.
    private func makeStore() throws -> (Store, [TodoRecord]) {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog"), repository(3, "octo/eel")])
        let todos = try [
            store.addTodo(repositoryID: 1, text: "open 1", at: moment(1)),
            store.addTodo(repositoryID: 1, text: "open 2", at: moment(1)),
            store.addTodo(repositoryID: 1, text: "done 1", at: moment(1)),
            store.addTodo(repositoryID: 2, text: "done 2", at: moment(1)),
        ]
        _ = try store.setDone([todos[2].id, todos[3].id], done: true, at: moment(2))
        return (store, todos)
    }

    @Test("refused while the repository has open todos, changing nothing")
    func refusedWithOpenTodos() throws {
        let (store, _) = try makeStore()
        let before = try store.snapshot()
        #expect(throws: StoreError.repositoryHasTodos(fullName: "octo/cat", open: 2, done: 1)) {
            try store.removeRepositories(ids: [1], force: false, at: moment(3))
        }
        #expect(try store.snapshot() == before)
    }

    @Test("all or nothing: a later refusal keeps the earlier repositories too")
    func refusalRollsBackEarlierOnes() throws {
        let (store, _) = try makeStore()
        let before = try store.snapshot()
        #expect(throws: StoreError.repositoryHasTodos(fullName: "octo/dog", open: 0, done: 1)) {
            try store.removeRepositories(ids: [3, 2, 1], force: false, at: moment(3))
        }
        #expect(try store.snapshot() == before)
        #expect(try store.tombstones().isEmpty)
    }

    @Test("with force, the todos go too and leave tombstones")
    func force() throws {
        let (store, todos) = try makeStore()
        let removed = try store.removeRepositories(ids: [1], force: true, at: moment(3))
        #expect(removed == 3)
        #expect(try store.repository(id: 1) == nil)
        #expect(try store.allTodos().map(\.id) == [todos[3].id])
        let expected = todos[0..<3].map { Tombstone(uuid: $0.uuid, repositoryID: 1, removedAt: moment(3).rfc3339) }
        #expect(try store.tombstones() == expected.sorted { $0.uuid < $1.uuid })
        #expect(throws: StoreError.unknownRepository("cat")) { try store.findRepository(owner: nil, name: "cat") }
    }

    @Test("without force, a repository with only done todos is refused: done history is not deleted unasked")
    func onlyDoneTodos() throws {
        let (store, _) = try makeStore()
        let before = try store.snapshot()
        #expect(throws: StoreError.repositoryHasTodos(fullName: "octo/dog", open: 0, done: 1)) {
            try store.removeRepositories(ids: [2], force: false, at: moment(4))
        }
        #expect(try store.snapshot() == before)
    }

    @Test("without force, a repository without todos is removed")
    func emptyRepository() throws {
        let (store, todos) = try makeStore()
        #expect(try store.removeRepositories(ids: [3], force: false, at: moment(4)) == 0)
        #expect(try store.repository(id: 3) == nil)
        #expect(try store.allTodos().count == todos.count)
    }

    @Test("with force, done history goes with the repository and leaves tombstones")
    func forceRemovesDoneHistory() throws {
        let (store, todos) = try makeStore()
        #expect(try store.removeRepositories(ids: [2], force: true, at: moment(4)) == 1)
        #expect(try store.tombstones() == [Tombstone(uuid: todos[3].uuid, repositoryID: 2, removedAt: moment(4).rfc3339)])
    }

    @Test("an unknown id is unknownRepository and nothing changes")
    func unknownID() throws {
        let (store, _) = try makeStore()
        let before = try store.snapshot()
        #expect(throws: StoreError.unknownRepository("id:12345")) {
            try store.removeRepositories(ids: [3, 12345], force: true, at: moment(3))
        }
        #expect(try store.snapshot() == before)
    }

    @Test("re-adding a removed repository starts it empty")
    func reAdd() throws {
        let (store, _) = try makeStore()
        try store.removeRepositories(ids: [1], force: true, at: moment(3))
        try store.saveRepository(repository(1, "octo/cat", addedAt: moment(5)))
        #expect(try store.repository(id: 1)?.addedAt == moment(5))
        #expect(try store.sections(repositoryIDs: [1]).isEmpty)
        #expect(try store.addTodo(repositoryID: 1, text: "fresh", at: moment(6)).position == 1)
    }
}
