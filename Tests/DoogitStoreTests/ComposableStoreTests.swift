import DoogitStore
import DoogitSupport
import Testing

private struct Abort: Error {}

@Suite("Store: several changes in one transaction")
struct TransactionTests {
    @Test("operations inside store.transaction commit together")
    func commitTogether() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let ids = try store.transaction {
            let a = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
            let b = try store.addTodo(repositoryID: 1, text: "b", at: moment(1))
            _ = try store.setDone([a.id], done: true, at: moment(2))
            return [a.id, b.id]
        }
        #expect(try store.allTodos().map(\.id) == ids)
        #expect(try store.allTodos().map(\.done) == [true, false])
    }

    @Test("a failure anywhere inside rolls every operation back, including ones that succeeded")
    func rollBackTogether() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        _ = try store.addTodo(repositoryID: 1, text: "kept", at: moment(1))
        let before = try store.snapshot()
        #expect(throws: Abort.self) {
            try store.transaction {
                let added = try store.addTodo(repositoryID: 1, text: "gone", at: moment(2))
                _ = try store.editTodo(id: added.id, text: "edited", at: moment(3))
                try store.saveRepository(repository(2, "octo/dog"))
                throw Abort()
            }
        }
        #expect(try store.snapshot() == before)
    }

    @Test("an operation refused inside an outer transaction undoes only itself when the caller goes on")
    func innerRefusalIsASavepoint() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        try store.transaction {
            _ = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
            #expect(throws: StoreError.unknownTodos([99])) { try store.setDone([99], done: true, at: moment(2)) }
            _ = try store.addTodo(repositoryID: 1, text: "b", at: moment(3))
        }
        #expect(try store.allTodos().map(\.text) == ["a", "b"])
        #expect(!store.database.isInTransaction)
    }
}

@Suite("Store: apply by UUID")
struct ApplyTests {
    private let uuidA = "0b0e5d4e-1111-4a4a-8a8a-000000000001"
    private let uuidB = "0b0e5d4e-2222-4a4a-8a8a-000000000002"

    private func state(_ uuid: String, repository: Int64 = 1, text: String, done: Bool = false, at seconds: Int64,
                       preferredID: Int64? = nil) -> TodoState {
        TodoState(uuid: uuid, repositoryID: repository, text: text, done: done, createdAt: moment(0),
                  updatedAt: moment(seconds), doneAt: done ? moment(seconds) : nil, preferredID: preferredID)
    }

    @Test("inserts new todos and repositories, updates known UUIDs, removes with a tombstone, in one go")
    func insertUpdateRemove() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let local = try store.addTodo(repositoryID: 1, text: "local", at: moment(1))
        let applied = try store.apply(StoreChanges(
            repositories: [repository(2, "octo/dog")],
            todos: [state(uuidA, repository: 2, text: "from elsewhere", at: 5),
                    state(local.uuid, text: "edited elsewhere", done: true, at: 6)],
            removedTodos: []), at: moment(7))
        #expect(applied == { var a = AppliedChanges(); a.inserted = 1; a.updated = 1; return a }())
        let todos = try store.allTodos()
        #expect(todos.map(\.text) == ["edited elsewhere", "from elsewhere"])
        #expect(todos[0].id == local.id && todos[0].done && todos[0].doneAt == moment(6))
        #expect(todos[1].repositoryID == 2 && todos[1].uuid == uuidA)

        let removal = try store.apply(StoreChanges(removedTodos: [uuidA, "no-such-uuid"]), at: moment(8))
        #expect(removal.removed == 1)
        #expect(try store.tombstones().map(\.uuid) == [uuidA])
    }

    @Test("applying the same state twice changes nothing the second time")
    func idempotent() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let changes = StoreChanges(todos: [state(uuidA, text: "one", at: 1), state(uuidB, text: "two", done: true, at: 2)])
        #expect(try store.apply(changes, at: moment(3)).inserted == 2)
        let before = try store.snapshot()
        #expect(try store.apply(changes, at: moment(4)) == AppliedChanges())
        #expect(try store.snapshot() == before)
    }

    @Test("a preferred local ID is kept when free, and replaced by the next one when taken")
    func preferredIDs() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let taken = try store.addTodo(repositoryID: 1, text: "here first", at: moment(1))
        try store.apply(StoreChanges(todos: [state(uuidA, text: "wants 40", at: 2, preferredID: 40),
                                             state(uuidB, text: "wants a taken one", at: 2, preferredID: taken.id)]),
                        at: moment(3))
        let byUUID = Dictionary(uniqueKeysWithValues: try store.allTodos().map { ($0.uuid, $0.id) })
        #expect(byUUID[uuidA] == 40)
        #expect(byUUID[uuidB] == 41)
    }

    @Test("all or nothing: a todo of an unknown repository rolls the whole batch back")
    func allOrNothing() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let before = try store.snapshot()
        #expect(throws: StoreError.self) {
            try store.apply(StoreChanges(repositories: [repository(2, "octo/dog")],
                                         todos: [state(uuidA, text: "fine", at: 1), state(uuidB, repository: 99, text: "orphan", at: 1)]),
                            at: moment(2))
        }
        #expect(try store.snapshot() == before)
    }

    @Test("a todo brought back clears its tombstone; moving to another repository goes to its end")
    func tombstoneAndMove() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: moment(1))
        _ = try store.addTodo(repositoryID: 2, text: "first in dog", at: moment(1))
        _ = try store.removeTodos([todo.id], at: moment(2))
        try store.apply(StoreChanges(todos: [state(todo.uuid, repository: 2, text: "t", at: 3)]), at: moment(4))
        #expect(try store.tombstones().isEmpty)
        let moved = try #require(try store.allTodos().first { $0.uuid == todo.uuid })
        #expect(moved.repositoryID == 2 && moved.position == 2)
    }
}
