@testable import DoogitCLI
import DoogitStore
import DoogitTerminal

/// What the suites on the interactive view share: two repositories' sections, a view of them, and
/// keys as the terminal gives them.
protocol ListViewSuite {}

extension ListViewSuite {
    static var spoon: RepositoryRecord { Fixture.repository(id: 2, owner: "octocat", name: "Spoon-Knife", description: "demo") }
    static var sections: [TodoSection] {
        [
            TodoSection(repository: Fixture.helloWorld, todos: [Fixture.todo(id: 1, text: "set up CI"),
                                                                Fixture.todo(id: 2, text: "write the release notes", done: true)]),
            TodoSection(repository: spoon, todos: [Fixture.todo(id: 3, text: "fork it", repository: spoon)]),
        ]
    }

    func view(width: Int = 80, height: Int = 24, color: Bool = false) -> ListView {
        var view = ListView(renderer: ListRenderer(style: Style(color: color, unicode: true), width: nil), width: width, height: height)
        view.show(Self.sections)
        return view
    }

    func key(_ key: Key) -> InputEvent { .key(key, alt: false) }
    func char(_ character: Character) -> InputEvent { .key(.character(character), alt: false) }
}
