import DoogitStore
import DoogitSupport
import Testing

/// A store with two repositories: 1 "octo/cat" and 2 "octo/dog".
private func twoRepositories() throws -> Store {
    let store = try memoryStore()
    try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
    return store
}

@Suite("Todos: add")
struct AddTodoTests {
    @Test("a new todo has a valid UUID, createdAt == updatedAt, is open and is last in its repository")
    func add() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "Write the tests", at: moment(5))
        #expect(UUIDv4.isValid(todo.uuid))
        #expect(Array(todo.uuid)[14] == "4")
        #expect(todo.createdAt == moment(5))
        #expect(todo.updatedAt == todo.createdAt)
        #expect(todo.doneAt == nil)
        #expect(!todo.done)
        #expect(todo.text == "Write the tests")
        #expect(todo.repositoryID == 1)
        #expect(todo.repositoryFullName == "octo/cat")
        #expect(todo.position == 1)
        #expect(todo.id > 0)
        #expect(try store.allTodos() == [todo])
    }

    @Test("millisecond timestamps are stored exactly")
    func timestampPrecision() throws {
        let store = try twoRepositories()
        let at = Timestamp(millisecondsSinceEpoch: 1_795_987_395_007)
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: at)
        #expect(todo.createdAt == at)
        #expect(try store.database.scalarString("SELECT created_at FROM todos") == "2026-11-29T21:23:15.007Z")
    }

    @Test("positions increase per repository, independently")
    func positions() throws {
        let store = try twoRepositories()
        let cat = try (1...4).map { try store.addTodo(repositoryID: 1, text: "cat \($0)", at: moment(Int64($0))) }
        let dog = try (1...3).map { try store.addTodo(repositoryID: 2, text: "dog \($0)", at: moment(Int64($0))) }
        #expect(cat.map(\.position) == [1, 2, 3, 4])
        #expect(dog.map(\.position) == [1, 2, 3])
        // Removing one does not make a later todo reuse a position still held.
        _ = try store.removeTodos([cat[1].id], at: moment(10))
        let next = try store.addTodo(repositoryID: 1, text: "cat 5", at: moment(11))
        #expect(next.position > cat[3].position)
    }

    @Test("every todo gets its own UUID")
    func uniqueUUIDs() throws {
        let store = try twoRepositories()
        let uuids = try (0..<200).map { try store.addTodo(repositoryID: 1, text: "t\($0)", at: moment(1)).uuid }
        #expect(Set(uuids).count == 200)
    }

    @Test("todo ids are never reused after deletion (AUTOINCREMENT)")
    func idsNotReused() throws {
        let store = try twoRepositories()
        let first = try store.addTodo(repositoryID: 1, text: "one", at: moment(1))
        let second = try store.addTodo(repositoryID: 1, text: "two", at: moment(1))
        let third = try store.addTodo(repositoryID: 2, text: "three", at: moment(1))
        #expect([first.id, second.id, third.id] == [first.id, first.id + 1, first.id + 2])
        // Remove the newest: a plain rowid table would hand its id out again.
        _ = try store.removeTodos([third.id], at: moment(2))
        let fourth = try store.addTodo(repositoryID: 1, text: "four", at: moment(3))
        #expect(fourth.id > third.id)
        // Remove everything, including through a repository: still no reuse.
        _ = try store.removeTodos([first.id, second.id, fourth.id], at: moment(4))
        let fifth = try store.addTodo(repositoryID: 2, text: "five", at: moment(5))
        #expect(fifth.id > fourth.id)
        try store.removeRepositories(ids: [2], force: true, at: moment(6))
        let sixth = try store.addTodo(repositoryID: 1, text: "six", at: moment(7))
        #expect(sixth.id > fifth.id)
    }

    @Test("adding to an unknown repository fails and writes nothing")
    func unknownRepository() throws {
        let store = try twoRepositories()
        let before = try store.snapshot()
        #expect(sqliteCode { _ = try store.addTodo(repositoryID: 404, text: "lost", at: moment(1)) }
                == SQLiteCode.constraintForeignKey)
        #expect(try store.snapshot() == before)
    }

    @Test("text is stored as given", arguments: ["héllo 中文 😀", "e\u{301}", "  padded  ", "'quotes' \"and\" \\", "a\nb"])
    func textVerbatim(text: String) throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: text, at: moment(1))
        #expect(todo.text.unicodeScalars.elementsEqual(text.unicodeScalars))
        #expect(try store.allTodos().first?.text == text)
    }
}

@Suite("Todos: done and undo")
struct SetDoneTests {
    @Test("done sets doneAt and updatedAt; done again changes nothing")
    func doneIdempotent() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: moment(1))
        let done = try store.setDone([todo.id], done: true, at: moment(2))
        #expect(done.count == 1)
        #expect(done[0].done)
        #expect(done[0].doneAt == moment(2))
        #expect(done[0].updatedAt == moment(2))
        #expect(done[0].createdAt == moment(1))
        let snapshot = try store.snapshot()
        let again = try store.setDone([todo.id], done: true, at: moment(3))
        #expect(again == done)
        #expect(try store.snapshot() == snapshot)
    }

    @Test("undo clears doneAt; undo again changes nothing")
    func undoIdempotent() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: moment(1))
        _ = try store.setDone([todo.id], done: true, at: moment(2))
        let undone = try store.setDone([todo.id], done: false, at: moment(3))
        #expect(undone.count == 1)
        #expect(!undone[0].done)
        #expect(undone[0].doneAt == nil)
        #expect(undone[0].updatedAt == moment(3))
        let snapshot = try store.snapshot()
        #expect(try store.setDone([todo.id], done: false, at: moment(4)) == undone)
        #expect(try store.snapshot() == snapshot)
        #expect(try store.database.scalarString("SELECT done_at FROM todos") == nil)
    }

    @Test("undo of an open todo changes nothing")
    func undoOpen() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: moment(1))
        #expect(try store.setDone([todo.id], done: false, at: moment(9)) == [todo])
    }

    @Test("several ids at once, returned in the order given; mixed states are fine")
    func several() throws {
        let store = try twoRepositories()
        let a = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
        let b = try store.addTodo(repositoryID: 2, text: "b", at: moment(1))
        let c = try store.addTodo(repositoryID: 1, text: "c", at: moment(1))
        _ = try store.setDone([b.id], done: true, at: moment(2))
        let result = try store.setDone([c.id, b.id, a.id], done: true, at: moment(3))
        #expect(result.map(\.id) == [c.id, b.id, a.id])
        #expect(result.allSatisfy { $0.done })
        #expect(result.map(\.doneAt) == [moment(3), moment(2), moment(3)])
    }

    @Test("one unknown id among valid ones: unknownTodos([thatId]) and nothing changes")
    func unknownAmongValid() throws {
        let store = try twoRepositories()
        let a = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
        let b = try store.addTodo(repositoryID: 2, text: "b", at: moment(1))
        let missing = b.id + 100
        let before = try store.snapshot()
        #expect(throws: StoreError.unknownTodos([missing])) {
            try store.setDone([a.id, missing, b.id], done: true, at: moment(2))
        }
        #expect(try store.snapshot() == before)
        #expect(try store.allTodos().allSatisfy { !$0.done })
    }

    @Test("every unknown id is named, in the order given")
    func severalUnknown() throws {
        let store = try twoRepositories()
        let a = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
        _ = try store.setDone([a.id], done: true, at: moment(2))
        let before = try store.snapshot()
        #expect(throws: StoreError.unknownTodos([900, 0, -3])) {
            try store.setDone([900, a.id, 0, -3], done: false, at: moment(3))
        }
        #expect(try store.snapshot() == before)
    }
}

@Suite("Todos: edit")
struct EditTodoTests {
    @Test("edit changes the text and updatedAt only")
    func edit() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "old", at: moment(1))
        let edited = try store.editTodo(id: todo.id, text: "new text", at: moment(2))
        var expected = todo
        expected.text = "new text"
        expected.updatedAt = moment(2)
        #expect(edited == expected)
        #expect(try store.allTodos() == [expected])
    }

    @Test("editing a done todo keeps it done")
    func editDone() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "old", at: moment(1))
        _ = try store.setDone([todo.id], done: true, at: moment(2))
        let edited = try store.editTodo(id: todo.id, text: "new", at: moment(3))
        #expect(edited.done)
        #expect(edited.doneAt == moment(2))
        #expect(edited.updatedAt == moment(3))
    }

    @Test("editing to the same text changes nothing")
    func sameText() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "same", at: moment(1))
        let before = try store.snapshot()
        #expect(try store.editTodo(id: todo.id, text: "same", at: moment(2)) == todo)
        #expect(try store.snapshot() == before)
    }

    @Test("editing an unknown todo is unknownTodos and changes nothing")
    func unknown() throws {
        let store = try twoRepositories()
        let todo = try store.addTodo(repositoryID: 1, text: "t", at: moment(1))
        let before = try store.snapshot()
        #expect(throws: StoreError.unknownTodos([todo.id + 1])) {
            try store.editTodo(id: todo.id + 1, text: "x", at: moment(2))
        }
        #expect(try store.snapshot() == before)
    }
}

@Suite("Todos: remove")
struct RemoveTodoTests {
    @Test("remove returns the todos as they were and writes tombstones")
    func remove() throws {
        let store = try twoRepositories()
        let a = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
        let b = try store.addTodo(repositoryID: 2, text: "b", at: moment(1))
        let c = try store.addTodo(repositoryID: 1, text: "c", at: moment(1))
        let doneB = try store.setDone([b.id], done: true, at: moment(2))[0]
        let removed = try store.removeTodos([b.id, a.id], at: moment(3))
        #expect(removed == [doneB, a])
        #expect(try store.allTodos() == [c])
        let expected = [Tombstone(uuid: a.uuid, repositoryID: 1, removedAt: moment(3).rfc3339),
                        Tombstone(uuid: b.uuid, repositoryID: 2, removedAt: moment(3).rfc3339)]
        #expect(try store.tombstones() == expected.sorted { $0.uuid < $1.uuid })
    }

    @Test("one unknown id among valid ones: unknownTodos and nothing removed")
    func unknownAmongValid() throws {
        let store = try twoRepositories()
        let a = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
        let before = try store.snapshot()
        #expect(throws: StoreError.unknownTodos([a.id + 7])) {
            try store.removeTodos([a.id, a.id + 7], at: moment(2))
        }
        #expect(try store.snapshot() == before)
        #expect(try store.tombstones().isEmpty)
    }

    @Test("a removed todo cannot be removed, edited or marked done again: it is named as removed (restorable), apart from unknown IDs")
    func goneAfterRemoval() throws {
        let store = try twoRepositories()
        let a = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
        _ = try store.removeTodos([a.id], at: moment(2))
        #expect(throws: StoreError.removedTodos([a.id], unknown: [])) { try store.removeTodos([a.id], at: moment(3)) }
        #expect(throws: StoreError.removedTodos([a.id], unknown: [])) { try store.editTodo(id: a.id, text: "x", at: moment(3)) }
        #expect(throws: StoreError.removedTodos([a.id], unknown: [99])) { try store.setDone([99, a.id], done: true, at: moment(3)) }
        #expect(try store.tombstones() == [Tombstone(uuid: a.uuid, repositoryID: 1, removedAt: moment(2).rfc3339)])
        _ = try store.restoreTodos([a.id], at: moment(4))
        _ = try store.removeTodos([a.id], at: moment(5))
        try store.database.run("UPDATE todo_tombstones SET text = NULL")  // as removals from before their values were kept
        #expect(throws: StoreError.unknownTodos([a.id]), "not restorable: unknown") { try store.setDone([a.id], done: true, at: moment(6)) }
    }
}
