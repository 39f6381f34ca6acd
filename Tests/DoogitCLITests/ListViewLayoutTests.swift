@testable import DoogitCLI
import DoogitStore
import DoogitSupport
import DoogitTerminal
import Testing

/// The interactive view's layout: laid out again only where a change falls, folded, and always the
/// one laid out whole.
struct ListViewLayoutTests: ListViewSuite {
    @Test func aChangeLaysOutOnlyItsSectionAndPutsItInListOrder() {
        var view = view()
        let spoonLines = view.layout.lines.filter { $0.item == .todo(id: 3) || $0.item == .header(repositoryID: 2) }
        // Todo 1 done: it goes after the open ones, and the cursor goes with it.
        var one = Fixture.todo(id: 1, text: "set up CI", done: true)
        one.position = 1
        view.apply(changed: [one])
        #expect(view.sections[0].todos.map(\.id) == [2, 1] || view.sections[0].todos.map(\.id) == [1, 2])
        #expect(view.sections[0].todos.filter(\.done).map(\.id).sorted() == [1, 2])
        // An added todo with a due date comes first among the open ones.
        var added = Fixture.todo(id: 10, text: "ship", repository: Self.spoon)
        added.due = CalendarDate(text: "2030-01-01")
        added.position = 5
        view.apply(changed: [added], cursorOn: .todo(id: 10))
        #expect(view.sections[1].todos.map(\.id) == [10, 3])
        #expect(view.cursor == .todo(id: 10))
        #expect(view.doneCount == 2 && view.openCount == 2)
        // Removed: gone from the list and the layout.
        view.apply(changed: [], removed: [added])
        #expect(view.sections[1].todos.map(\.id) == [3])
        #expect(view.layout.lines.filter { $0.item == .todo(id: 3) || $0.item == .header(repositoryID: 2) } == spoonLines)
        #expect(!view.layout.items.contains(.todo(id: 10)))
        // The layout laid out in place is the one laid out whole.
        var whole = view
        whole.show(whole.sections)
        #expect(whole.layout.lines == view.layout.lines)
        #expect(whole.layout.items == view.layout.items)
    }

    @Test func foldingHidesASectionsTodosAndKeepsTheCursorOnIt() {
        var view = view()
        _ = view.handle(char("z"))
        #expect(view.cursor == .header(repositoryID: Fixture.helloWorld.id))
        #expect(!view.layout.lines.contains { $0.item == .todo(id: 1) })
        #expect(view.layout.lines[0].text.contains("(2 folded)"))
        _ = view.handle(char("z"))
        #expect(view.layout.lines.contains { $0.item == .todo(id: 1) })
    }

    /// Whatever changes come, folds and filters between them, the layout made section by
    /// section is the one made whole.
    @Test func aLayoutMadeInPlaceIsAlwaysTheOneMadeWhole() {
        var generator = SystemRandomNumberGenerator()
        let repositories = (1...4).map { Fixture.repository(id: Int64($0), owner: "o", name: "r\($0)", description: nil) }
        for _ in 0..<30 {
            var view = ListView(renderer: ListRenderer(style: Style(color: true, unicode: true), width: nil), width: 40, height: 12)
            var next: Int64 = 1
            view.show(repositories.map { TodoSection(repository: $0, todos: []) })
            for _ in 0..<40 {
                let repository = repositories.randomElement(using: &generator) ?? repositories[0]
                let todos = view.sections.flatMap(\.todos)
                switch Int.random(in: 0..<6, using: &generator) {
                case 0, 1:
                    var todo = Fixture.todo(id: next, text: String(repeating: "word ", count: Int.random(in: 1...12, using: &generator)),
                                            repository: repository)
                    todo.position = next
                    next += 1
                    view.apply(changed: [todo])
                case 2:
                    if var todo = todos.randomElement(using: &generator) {
                        todo.done.toggle()
                        view.apply(changed: [todo])
                    }
                case 3:
                    if let todo = todos.randomElement(using: &generator) { view.apply(changed: [], removed: [todo]) }
                case 4:
                    _ = view.handle(.key(.character("z"), alt: false))
                default:
                    _ = view.setFilter(Bool.random(using: &generator) ? "" : "word")
                }
                var whole = view
                whole.show(whole.sections)
                #expect(whole.layout.lines == view.layout.lines)
                #expect(whole.layout.items == view.layout.items)
                for item in view.layout.items {
                    let lines = view.layout.lines(of: item) ?? 0..<0
                    #expect(!lines.isEmpty && lines.allSatisfy { view.layout.lines[$0].item == item })
                }
            }
        }
    }

    @Test func theCursorStaysOnItsTodoWhenTheListChanges() {
        var view = view()
        _ = view.handle(char("j"))
        var sections = Self.sections
        sections[0].todos.insert(Fixture.todo(id: 9, text: "new first"), at: 0)
        view.show(sections)
        #expect(view.cursor == .todo(id: 2))
        // Gone: the cursor takes the item now in its place.
        sections[0].todos.removeAll { $0.id == 2 }
        view.show(sections)
        #expect(view.cursor == .header(repositoryID: 2))
    }
}
