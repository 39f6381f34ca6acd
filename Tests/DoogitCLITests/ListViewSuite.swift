@testable import DoogitCLI
import DoogitStore
import DoogitSupport
import DoogitTerminal
import TestSupport

/// A store for the view to read, in a folder of its own: two repositories, Hello-World with 1
/// "set up CI" and 2 "write the release notes" (done), Spoon-Knife with 3 "fork it".
final class ListViewStore {
    let folder = TemporaryDirectory()
    let store: Store
    static let spoon = Fixture.repository(id: 2, owner: "octocat", name: "Spoon-Knife", description: "demo")

    init(repositories: [RepositoryRecord] = [Fixture.helloWorld, ListViewStore.spoon], sample: Bool = true) throws {
        store = try Store.open(path: folder.file("doogit.sqlite3"))
        try store.saveRepositories(repositories)
        guard sample else { return }
        try add("set up CI")
        let notes = try add("write the release notes")
        _ = try store.setDone([notes.id], done: true, at: Fixture.t1)
        try add("fork it", to: Self.spoon)
    }

    @discardableResult
    func add(_ text: String, to repository: RepositoryRecord = Fixture.helloWorld, details: DetailsEdit = DetailsEdit()) throws -> TodoRecord {
        try store.addTodo(repositoryID: repository.id, text: text, details: details, at: Fixture.t0)
    }

    func view(width: Int = 80, height: Int = 24, color: Bool = false) throws -> ListView {
        var view = ListView(store: store, renderer: ListRenderer(style: Style(color: color, unicode: true), width: nil),
                            width: width, height: height)
        try view.reload()
        return view
    }
}

/// What the suites on the interactive view share: keys as the terminal gives them.
protocol ListViewSuite {}

extension ListViewSuite {
    static var spoon: RepositoryRecord { ListViewStore.spoon }

    func key(_ key: Key) -> InputEvent { .key(key, alt: false) }
    func char(_ character: Character) -> InputEvent { .key(.character(character), alt: false) }
}
