@testable import DoogitCLI
@testable import DoogitStore

/// What the suites on daily use share.
protocol DailyUseSuite {}

extension DailyUseSuite {
    static var widgets: RepositoryRecord { Fixture.repository(id: 42, owner: "acme", name: "widgets", description: nil) }

    /// Two tracked repositories: Hello-World with todos 1 (done) and 2, widgets with 3.
    func harness(_ environment: [String: String] = ["LANG": "C.UTF-8"]) throws -> CLIHarness {
        let harness = CLIHarness(environment: environment)
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld, Self.widgets])
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "set up CI", at: Fixture.t0)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "write the Release notes", at: Fixture.t1)
        _ = try store.addTodo(repositoryID: Self.widgets.id, text: "ship it", at: Fixture.t2)
        _ = try store.setDone([1], done: true, at: Fixture.t2)
        return harness
    }

    func texts(_ harness: CLIHarness) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for section in try harness.openStore().sections() { result[section.repository.fullName] = section.todos.map(\.text) }
        return result
    }
}
