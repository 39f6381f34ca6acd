import DoogitMerge
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

    private func stamp(_ seconds: Int64) -> HybridTimestamp {
        HybridTimestamp(wall: moment(seconds).millisecondsSinceEpoch, counter: 0, machine: "bbbbbbbbbbbb")
    }

    /// A todo as another machine has it, every field written at `seconds`.
    private func change(_ uuid: String, repository: Int64 = 1, text: String, done: Bool = false, at seconds: Int64,
                        preferredID: Int64? = nil, held: TodoEntry? = nil) -> TodoChange {
        TodoChange(entry: TodoEntry(uuid: uuid, repository: repository, text: text, doneAt: done ? moment(seconds) : nil,
                                    createdAt: moment(0), stamp: stamp(seconds)),
                   held: held, preferredID: preferredID)
    }

    private func entry(_ store: Store, _ uuid: String) throws -> TodoEntry {
        try #require(try store.replica.read().replica.todos[uuid])
    }

    @Test("inserts new todos, updates known UUIDs, removes with a tombstone, in one go")
    func insertUpdateRemove() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        let local = try store.addTodo(repositoryID: 1, text: "local", at: moment(1))
        let held = try entry(store, local.uuid)
        var edited = held
        edited.text.set("edited elsewhere", at: stamp(6))
        edited.done.set(DoneState(doneAt: moment(6)), at: stamp(6))
        let applied = try store.replica.apply(ReplicaChanges(todos: [
            change(uuidA, repository: 2, text: "from elsewhere", at: 5), TodoChange(entry: edited, held: held),
        ]), at: moment(7))
        #expect(applied == { var a = AppliedChanges(); a.inserted = 1; a.updated = 1; return a }())
        let todos = try store.allTodos()
        #expect(todos.map(\.text) == ["edited elsewhere", "from elsewhere"])
        #expect(todos[0].id == local.id && todos[0].done && todos[0].doneAt == moment(6))
        #expect(todos[1].repositoryID == 2 && todos[1].uuid == uuidA)

        let before = try entry(store, uuidA)
        var removed = before
        removed.removed.set(true, at: stamp(8))
        #expect(try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: removed, held: before)]), at: moment(8)).removed == 1)
        #expect(try store.tombstones().map(\.uuid) == [uuidA])
        #expect(try entry(store, uuidA) == removed, "a removal keeps its values and stamps")
    }

    @Test("applying the same change twice changes nothing the second time")
    func idempotent() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let changes = ReplicaChanges(todos: [change(uuidA, text: "one", at: 1), change(uuidB, text: "two", done: true, at: 2)])
        #expect(try store.replica.apply(changes, at: moment(3)).inserted == 2)
        let before = try store.snapshot()
        #expect(try store.replica.apply(changes, at: moment(4)) == AppliedChanges())
        #expect(try store.snapshot() == before)
    }

    @Test("a preferred local ID is kept when free, and replaced by the next one when taken")
    func preferredIDs() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let taken = try store.addTodo(repositoryID: 1, text: "here first", at: moment(1))
        try store.replica.apply(ReplicaChanges(todos: [change(uuidA, text: "wants 40", at: 2, preferredID: 40),
                                                       change(uuidB, text: "wants a taken one", at: 2, preferredID: taken.id)]),
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
            try store.replica.apply(ReplicaChanges(todos: [change(uuidA, text: "fine", at: 1),
                                                           change(uuidB, repository: 99, text: "orphan", at: 1)]),
                                    at: moment(2))
        }
        #expect(try store.snapshot() == before)
    }

    @Test("a todo restored and moved elsewhere clears its tombstone and comes last there, by when it arrived")
    func tombstoneAndMove() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: moment(1))
        _ = try store.addTodo(repositoryID: 2, text: "first in dog", at: moment(1))
        _ = try store.removeTodos([todo.id], at: moment(2))
        let held = try entry(store, todo.uuid)
        var back = held
        back.removed.set(false, at: stamp(3))
        back.repository.set(2, at: stamp(3))
        try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: back, held: held)]), at: moment(4))
        #expect(try store.tombstones().isEmpty)
        let moved = try #require(try store.allTodos().first { $0.uuid == todo.uuid })
        #expect(moved.repositoryID == 2 && moved.position == 2 && moved.id == todo.id)
    }
}
