import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing

/// `ReplicaStore.sent` takes back the notes of what the remote now holds as it is here, one by
/// one or (many at once) read by repository: both ways alike, removed todos included.
@Suite("Store: what was sent stops waiting")
struct SentTests {
    @Test("todos sent as they are here stop waiting, live or removed, few or many", arguments: [3, 64, 65, 150])
    func sentTodosStopWaiting(count: Int) throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        let live = try (0..<count).map { try store.addTodo(repositoryID: 1, text: "live \($0)", at: moment(1)) }
        let gone = try (0..<count).map { try store.addTodo(repositoryID: 2, text: "gone \($0)", at: moment(1)) }
        _ = try store.removeTodos(gone.map(\.id), at: moment(2))
        let here = try store.replica.read().replica
        var held: [String: TodoEntry?] = [:]
        for todo in live + gone { held[todo.uuid] = .some(here.todos[todo.uuid]) }
        try store.replica.sent(todos: held, repositories: [:])
        let waiting = try waitingTodos(store).count
        #expect(waiting == 0, "\(waiting) of \(2 * count) still wait")
    }

    @Test("a todo that changed again before the note is taken back keeps waiting", arguments: [3, 150])
    func aLaterChangeKeepsWaiting(count: Int) throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat")])
        let todos = try (0..<count).map { try store.addTodo(repositoryID: 1, text: "t \($0)", at: moment(1)) }
        _ = try store.removeTodos(todos.map(\.id), at: moment(2))
        let sent = try store.replica.read().replica
        _ = try store.restoreTodos([todos[0].id], at: moment(3))
        var held: [String: TodoEntry?] = [:]
        for todo in todos { held[todo.uuid] = .some(sent.todos[todo.uuid]) }
        try store.replica.sent(todos: held, repositories: [:])
        #expect(try waitingTodos(store) == [todos[0].uuid])
    }
}
