import DoogitStore
import DoogitSupport
import Testing

@Suite("Todos: restore, clear, move, grep")
struct RestoreMoveTests {
    private func makeStore() throws -> (Store, [TodoRecord]) {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        let todos = try [
            store.addTodo(repositoryID: 1, text: "Feed the cat", at: moment(1)),
            store.addTodo(repositoryID: 1, text: "brush the cat", at: moment(2)),
            store.addTodo(repositoryID: 2, text: "walk the dog", at: moment(3)),
        ]
        _ = try store.setDone([todos[1].id], done: true, at: moment(4))
        return (store, todos)
    }

    @Test("a removed todo comes back with its ID, UUID, text, state and times, and its tombstone goes")
    func restoreBringsBackEverything() throws {
        let (store, todos) = try makeStore()
        let before = try store.allTodos()
        _ = try store.removeTodos([todos[1].id, todos[0].id], at: moment(5))
        #expect(try store.restorableTodoIDs().sorted() == [todos[0].id, todos[1].id])
        let restored = try store.restoreTodos([todos[0].id, todos[1].id], at: moment(6))
        #expect(restored.map(\.id) == [todos[0].id, todos[1].id])
        let after = try store.allTodos()
        for (old, new) in zip(before, after) {
            #expect(new.id == old.id && new.uuid == old.uuid && new.text == old.text && new.done == old.done)
            #expect(new.createdAt == old.createdAt && new.doneAt == old.doneAt)
        }
        #expect(try store.tombstones().isEmpty)
        #expect(try store.restorableTodoIDs().isEmpty)
    }

    @Test("restore checks every ID first: one that is not a removed todo changes nothing")
    func restoreIsAllOrNothing() throws {
        let (store, todos) = try makeStore()
        _ = try store.removeTodos([todos[0].id], at: moment(5))
        let before = try store.snapshot()
        #expect(throws: StoreError.notRestorable([todos[2].id, 99])) {
            try store.restoreTodos([todos[0].id, todos[2].id, 99], at: moment(6))
        }
        #expect(try store.snapshot() == before)
    }

    @Test("todos removed with their repository cannot come back into nothing")
    func restoreNeedsTheRepository() throws {
        let (store, todos) = try makeStore()
        try store.removeRepositories(ids: [2], force: true, at: moment(5))
        let fullName = try #require(try store.removedSections().first { !$0.repository.tracked }?.repository.fullName)
        #expect(throws: StoreError.repositoryNotTracked(ids: [todos[2].id], fullName: fullName)) {
            try store.restoreTodos([todos[2].id], at: moment(6))
        }
        #expect(try store.restorableTodoIDs().isEmpty)
        // Tracked again, its removed todos come back.
        try store.saveRepository(repository(2, fullName))
        _ = try store.restoreTodos([todos[2].id], at: moment(7))
        #expect(try store.sections().flatMap(\.todos).contains { $0.id == todos[2].id })
    }

    @Test("clear removes done todos of one repository or of all, restorably")
    func clearDone() throws {
        let (store, todos) = try makeStore()
        _ = try store.setDone([todos[2].id], done: true, at: moment(5))
        #expect(try store.clearDone(repositoryID: 2, at: moment(6)).map(\.id) == [todos[2].id])
        #expect(try store.allTodos().map(\.id) == [todos[0].id, todos[1].id])
        #expect(try store.clearDone(repositoryID: nil, at: moment(7)).map(\.id) == [todos[1].id])
        #expect(try store.allTodos().map(\.id) == [todos[0].id])
        #expect(try store.restoreTodos([todos[1].id, todos[2].id], at: moment(8)).allSatisfy(\.done))
    }

    @Test("move puts todos at the end of another repository, keeping IDs and UUIDs; all checked first")
    func move() throws {
        let (store, todos) = try makeStore()
        let moved = try store.moveTodos([todos[0].id], toRepository: 2, at: moment(5))
        #expect(moved.map(\.id) == [todos[0].id] && moved[0].uuid == todos[0].uuid)
        #expect(moved[0].repositoryID == 2 && moved[0].repositoryFullName == "octo/dog" && moved[0].position == 2)
        #expect(moved[0].updatedAt == moment(5))
        let before = try store.snapshot()
        #expect(throws: StoreError.unknownTodos([42])) { try store.moveTodos([todos[1].id, 42], toRepository: 2, at: moment(6)) }
        #expect(throws: StoreError.unknownRepository("id:9")) { try store.moveTodos([todos[1].id], toRepository: 9, at: moment(6)) }
        #expect(try store.snapshot() == before)
    }

    @Test("sections of several repositories, matching text case-insensitively, Unicode included")
    func grepAndSeveralRepositories() throws {
        let (store, _) = try makeStore()
        _ = try store.addTodo(repositoryID: 2, text: "ÉCRIRE la doc", at: moment(6))
        let cats = try store.sections(matching: "THE CAT")
        #expect(cats.map(\.repository.fullName) == ["octo/cat"])
        #expect(cats.flatMap(\.todos).map(\.text) == ["Feed the cat", "brush the cat"])
        #expect(try store.sections(matching: "écrire").flatMap(\.todos).map(\.text) == ["ÉCRIRE la doc"])
        #expect(try store.sections(repositoryIDs: [1, 2]).count == 2)
        #expect(try store.sections(repositoryIDs: [2], matching: "cat").isEmpty)
    }
}
