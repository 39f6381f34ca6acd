@testable import DoogitCLI
import DoogitMerge
import DoogitStore
import DoogitSupport
import DoogitTerminal
import Testing
import TestSupport

/// The view reads a window of the list: what it shows is always the whole list's lines from
/// some line on, whatever the moves, folds, filters and changes before; the cursor follows its
/// todo, and the moves land where they would on the whole list.
struct ListViewWindowTests: ListViewSuite {
    @Test func aChangePutsItsTodoInListOrderAndTheCursorGoesWithIt() throws {
        let list = try ListViewStore()
        var view = try list.view()
        // Todo 1 done: it goes after the open ones (before 2, by position), and the cursor with it.
        try view.apply(changed: list.store.setDone([1], done: true, at: Fixture.t1))
        #expect(view.window.entries.compactMap(\.todo?.id) == [1, 2, 3])
        #expect(view.cursor == .todo(id: 1))
        #expect(view.doneCount == 2 && view.openCount == 1)
        // An added todo with a due date comes first among the open ones.
        let added = try list.add("ship", to: Self.spoon)
        try view.apply(changed: [try list.store.editTodo(id: added.id, text: nil, details: DetailsEdit(due: .some(CalendarDate(text: "2030-01-01"))),
                                                         at: Fixture.t1)], cursorOn: .todo(id: added.id))
        #expect(view.window.entries.compactMap(\.todo?.id) == [1, 2, added.id, 3])
        #expect(view.cursor == .todo(id: added.id))
        // Removed: gone from the window, the cursor on what took its place.
        try view.apply(changed: [], removed: try list.store.removeTodos([added.id], at: Fixture.t2))
        #expect(!view.window.items.contains(.todo(id: added.id)))
        #expect(view.cursor == .todo(id: 3))
    }

    @Test func foldingHidesASectionsTodosAndKeepsTheCursorOnIt() throws {
        let list = try ListViewStore()
        var view = try list.view()
        _ = try view.handle(char("z"))
        #expect(view.cursor == .header(repositoryID: Fixture.helloWorld.id))
        #expect(!view.window.lines.contains { $0.item == .todo(id: 1) })
        #expect(view.window.lines[0].text.contains("(2 folded)"))
        _ = try view.handle(char("z"))
        #expect(view.window.lines.contains { $0.item == .todo(id: 1) })
    }

    @Test func theCursorStaysOnItsTodoWhenAnotherProcessChangesTheList() throws {
        let list = try ListViewStore()
        var view = try list.view()
        _ = try view.handle(char("j"))
        #expect(view.cursor == .todo(id: 2))
        let first = try list.add("new first", details: DetailsEdit(priority: .some(.high)))
        try view.reload()
        #expect(view.window.entries.compactMap(\.todo?.id) == [first.id, 1, 2, 3])
        #expect(view.cursor == .todo(id: 2))
        // Gone: the cursor takes the item now in its place.
        _ = try list.store.removeTodos([2], at: Fixture.t2)
        try view.reload()
        #expect(view.cursor == .header(repositoryID: 2))
    }

    /// Sections without todos are left out, as `todo list` leaves them, unless no repository has
    /// a todo (then each is somewhere to add the first) or one was emptied here.
    @Test func emptySectionsShowOnlyWhereTheyAreSomewhereToAdd() throws {
        let empty = Fixture.repository(id: 3, owner: "octocat", name: "Empty", description: nil)
        let list = try ListViewStore(repositories: [Fixture.helloWorld, ListViewStore.spoon, empty], sample: false)
        var view = try list.view()
        #expect(view.window.items == [.header(repositoryID: 3), .header(repositoryID: Fixture.helloWorld.id), .header(repositoryID: 2)])
        let todo = try list.add("fork it", to: Self.spoon)
        try view.reload()
        #expect(view.window.items == [.header(repositoryID: 2), .todo(id: todo.id)])
        #expect(view.shownSections == 1)
        try view.apply(changed: [], removed: try list.store.removeTodos([todo.id], at: Fixture.t1))
        #expect(view.window.items.contains(.header(repositoryID: 2)), "emptied here: still there to add to")
    }

    /// A todo taller than the screen's margin (or than a page) stops no move: j, k and PgDn go
    /// past it to what follows.
    @Test func aTodoTallerThanTheScreenStopsNoMove() throws {
        let a = Fixture.repository(id: 1, owner: "o", name: "a", description: nil)
        let b = Fixture.repository(id: 2, owner: "o", name: "b", description: nil)
        let list = try ListViewStore(repositories: [a, b], sample: false)
        let tall = try list.add(Array(repeating: "words", count: 40).joined(separator: " "), to: a)
        let next = try list.add("next", to: b)
        var view = try list.view(width: 40, height: 5)
        #expect(view.cursor == .todo(id: tall.id))
        #expect((view.window.lines(of: .todo(id: tall.id))?.count ?? 0) > view.listHeight * 2)
        _ = try view.handle(char("j"))
        #expect(view.cursor == .header(repositoryID: b.id))
        _ = try view.handle(char("j"))
        #expect(view.cursor == .todo(id: next.id))
        _ = try view.handle(char("g"))
        _ = try view.handle(char("j"))
        #expect(view.cursor == .todo(id: tall.id))
        _ = try view.handle(key(.pageDown))
        #expect(view.cursor != .todo(id: tall.id), "a page down leaves the tall todo")
        _ = try view.handle(char("G"))
        _ = try view.handle(char("k"))
        _ = try view.handle(char("k"))
        #expect(view.cursor == .todo(id: tall.id))
    }

    /// A filter that matches nothing, then cleared: the cursor is back on its todo, the screen
    /// where it was, not at the list's start.
    @Test func aFilterThatMatchesNothingKeepsTheCursorsPlace() throws {
        let list = try ListViewStore(sample: false)
        let todos = try (1...40).map { try list.add("todo \($0)") }
        var view = try list.view(width: 40, height: 8)
        for _ in 0..<25 { _ = try view.handle(char("j")) }
        let cursor = try #require(view.cursor)
        #expect(cursor == .todo(id: todos[25].id))
        let screen = ListScreen.frame(view).rows
        try view.setFilter("nothing like it")
        #expect(view.cursor == nil && view.window.isEmpty)
        try view.setFilter("")
        #expect(view.cursor == cursor)
        #expect(ListScreen.frame(view).rows == screen, "the screen as it was")
        #expect(view.window.lines(of: cursor).map { $0.lowerBound >= view.top && $0.upperBound <= view.top + view.listHeight } == true)
        // From the list's start too: the first header stays on the screen.
        _ = try view.handle(char("g"))
        let start = ListScreen.frame(view).rows
        try view.setFilter("nothing like it")
        try view.setFilter("")
        #expect(ListScreen.frame(view).rows == start)
    }

    /// Typed a letter at a time, a filter narrows what the letters before it found (only the
    /// repositories that matched are read again): the same screen as the whole filter at once,
    /// letters taken back included.
    @Test func aFilterTypedLetterByLetterIsTheFilterAtOnce() throws {
        let repositories = (1...6).map { Fixture.repository(id: Int64($0), owner: "o", name: "r\($0)", description: nil) }
        let list = try ListViewStore(repositories: repositories, sample: false)
        var generator = SplitMix64(seed: 7)
        let words = ["set", "setup", "sea", "Straße", "strasse", "café", "cafe\u{301}", "docs", "x"]
        for _ in 0..<60 {
            let text = (0..<3).map { _ in words.randomElement(using: &generator) ?? "x" }.joined(separator: " ")
            try list.add(text, to: repositories.randomElement(using: &generator) ?? repositories[0])
        }
        var typed = try list.view(width: 60, height: 20)
        for filter in ["s", "se", "set", "setu", "setup", "setupx", "set", "st", "str", "stra", "straß", "c", "ca", "caf", "café", "cafe", "cafe\u{301}", ""] {
            try typed.setFilter(filter)
            var atOnce = try list.view(width: 60, height: 20)
            try atOnce.setFilter(filter)
            #expect(typed.shownSections == atOnce.shownSections, "\(filter)")
            // Cleared, the list is read around the cursor, wherever the filter left it.
            if !filter.isEmpty { #expect(typed.window.items == atOnce.window.items, "\(filter)") }
        }
    }

    /// A sync renames the repository whose header the cursor is on: its section moves, and
    /// the cursor with it.
    @Test func theCursorFollowsAHeaderWhoseRepositoryWasRenamed() throws {
        let repositories = ["alpha", "beta", "gamma"].enumerated().map { Fixture.repository(id: Int64($0 + 1), owner: "o", name: $1, description: nil) }
        let list = try ListViewStore(repositories: repositories, sample: false)
        for repository in repositories { try list.add("in \(repository.name)", to: repository) }
        var view = try list.view()
        _ = try view.handle(char("G"))
        _ = try view.handle(char("k"))
        #expect(view.cursor == .header(repositoryID: 3))
        var renamed = repositories[2]
        renamed.name = "aardvark"
        renamed.fullName = "o/aardvark"
        try list.store.saveRepositories([renamed])
        try view.reload()
        #expect(view.cursor == .header(repositoryID: 3))
        #expect(view.window.items.first == .header(repositoryID: 3), "o/aardvark is first now")
    }

    /// Random moves, folds, filters and changes over a list many screens long: after each, the
    /// screen is the whole list's lines (read as `todo list` reads it) from some line on, the
    /// cursor's lines are on it, and each move lands where it would on the whole list.
    @Test(arguments: 0..<12)
    func theScreenIsAlwaysTheWholeListsLines(round: UInt64) throws {
        var generator = SplitMix64(seed: round)
        let repositories = (1...5).map { Fixture.repository(id: Int64($0), owner: "o", name: "r\($0)", description: nil) }
        let words = ["fix", "the", "build", "docs", "Straße", "x"]
        do {
            let list = try ListViewStore(repositories: repositories, sample: false)
            var model = WholeList(store: list.store)
            for _ in 0..<Int.random(in: 0...60, using: &generator) {
                try addRandom(list, repositories, words, &generator)
            }
            var view = try list.view(width: 40, height: Int.random(in: 5...12, using: &generator))
            // The wheel scrolls the screen alone; every key that moves or changes brings the cursor back to it.
            var cursorMayBeOff = false
            for step in 0..<80 {
                let before = try model.lines(view)
                let cursorBefore = view.cursor
                var expected: ListWindow.Item??
                let action = Int.random(in: 0..<16, using: &generator)
                let newFilter = Bool.random(using: &generator) ? "" : words.randomElement(using: &generator) ?? ""
                let changes = switch action {
                case 9: false
                case 11: newFilter != view.filter
                case 13: view.cursorTodo != nil
                default: true
                }
                if action == 9 { cursorMayBeOff = true } else if changes { cursorMayBeOff = false }
                switch action {
                case 0, 1:
                    _ = try view.handle(char("j"))
                    expected = .some(cursorBefore.flatMap { model.item(after: $0, in: before, by: 1) } ?? cursorBefore)
                case 2, 3:
                    _ = try view.handle(char("k"))
                    expected = .some(cursorBefore.flatMap { model.item(after: $0, in: before, by: -1) } ?? cursorBefore)
                case 4:
                    _ = try view.handle(key(.pageDown))
                    if let cursor = cursorBefore, model.item(after: cursor, in: before, by: 1) != cursor {
                        #expect(view.cursor.flatMap { model.index(of: $0, in: before) } ?? 0 > model.index(of: cursor, in: before) ?? 0,
                                "round \(round), step \(step): a page down moves on")
                    }
                case 5:
                    _ = try view.handle(Bool.random(using: &generator) ? key(.pageUp) : key(.backTab))
                case 6:
                    _ = try view.handle(char("g"))
                    expected = .some(before.compactMap(\.item).first)
                case 7:
                    _ = try view.handle(char("G"))
                    expected = .some(before.compactMap(\.item).last)
                case 8:
                    _ = try view.handle(key(.tab))
                    if let cursor = cursorBefore { expected = .some(model.nextHeader(after: cursor, in: before) ?? cursor) }
                case 9: _ = try view.handle(.mouse(MouseEvent(action: Bool.random(using: &generator) ? .wheelDown : .wheelUp,
                                                              button: 0, column: 0, row: 0)))
                case 10: _ = try view.handle(char("z"))
                case 11: try view.setFilter(newFilter)
                case 12:
                    let added = try addRandom(list, repositories, words, &generator)
                    try view.apply(changed: [added], cursorOn: .todo(id: added.id))
                    expected = .some(view.folded.contains(added.repositoryID) ? .header(repositoryID: added.repositoryID) : .todo(id: added.id))
                    if !view.filter.isEmpty, !added.matches(view.filter.lowercased()) { expected = nil }
                case 13:
                    if let todo = view.cursorTodo {
                        try view.apply(changed: try list.store.setDone([todo.id], done: !todo.done, at: Fixture.t1))
                        expected = .some(.todo(id: todo.id))
                    }
                case 14:
                    let ids = try list.store.sections().flatMap(\.todos).map(\.id)
                    if let id = ids.randomElement(using: &generator) {
                        let removed = try list.store.removeTodos([id], at: Fixture.t1)
                        if try list.store.repositorySummaries(repositoryIDs: removed.map(\.repositoryID))
                            .allSatisfy({ $0.open + $0.done == 0 }) {
                            model.pinned.formUnion(removed.map(\.repositoryID))
                        }
                        try view.apply(changed: [], removed: removed)
                    }
                default:
                    try view.resize(width: 40, height: Int.random(in: 5...12, using: &generator))
                }
                let whole = try model.lines(view)
                let context = "round \(round), step \(step), action \(action)"
                let screen = Array(view.window.lines[min(view.top, view.window.lines.count)..<min(view.top + view.listHeight, view.window.lines.count)])
                let start = (0...max(0, whole.count - 1)).first { offset in
                    Array(whole[min(offset, whole.count)..<min(offset + view.listHeight, whole.count)]) == screen
                }
                #expect(start != nil, "\(context): the screen is not the list's lines")
                if let start {
                    #expect(whole.count - start >= min(view.listHeight, whole.count), "\(context): the screen ends early")
                }
                guard !whole.isEmpty else { continue }
                let cursor = try #require(view.cursor, "\(context): no cursor")
                if !cursorMayBeOff {
                    #expect(screen.contains { $0.item == cursor }, "\(context): the cursor is off the screen")
                }
                if let expected, let item = expected {
                    #expect(cursor == item, "\(context): the cursor is on \(cursor), not \(item)")
                }
            }
        }
    }

    @discardableResult
    private func addRandom(_ list: ListViewStore, _ repositories: [RepositoryRecord], _ words: [String],
                           _ generator: inout SplitMix64) throws -> TodoRecord {
        // Now and then a todo taller than the screen's margin.
        let count = Int.random(in: 0..<8, using: &generator) == 0 ? Int.random(in: 20...60, using: &generator) : Int.random(in: 1...14, using: &generator)
        let text = (0..<count).map { _ in words.randomElement(using: &generator) ?? "x" }
            .joined(separator: " ")
        var details = DetailsEdit()
        if Bool.random(using: &generator) { details.due = .some(CalendarDate(text: "2030-01-0\(Int.random(in: 1...3, using: &generator))")) }
        if Bool.random(using: &generator) { details.priority = .some(Priority.allCases.randomElement(using: &generator)) }
        let todo = try list.add(text, to: repositories.randomElement(using: &generator) ?? repositories[0], details: details)
        guard Int.random(in: 0..<4, using: &generator) == 0 else { return todo }
        return try list.store.setDone([todo.id], done: true, at: Fixture.t1)[0]
    }
}

/// The whole list as the view must show it, read the way `todo list` reads it (every todo, put
/// in order in Swift), laid out with the view's drawing.
struct WholeList {
    let store: Store
    /// The sections the view keeps though they were emptied there.
    var pinned: Set<Int64> = []

    func lines(_ view: ListView) throws -> [ListWindow.Line] {
        var renderer = view.renderer
        renderer.width = view.width
        renderer.wholeURLs = false
        let idWidth = String(max(1, try store.largestTodoID())).count
        let drawing = ListDrawing.list(renderer: renderer, width: view.width, idWidth: idWidth, cache: TodoLinesCache())
        let all = try store.sections(includeEmpty: true)
        let anyTodo = all.contains { !$0.todos.isEmpty }
        var lines: [ListWindow.Line] = []
        for section in all {
            var todos = section.todos
            if !view.filter.isEmpty { todos = todos.filter { $0.matches(view.filter.lowercased()) } }
            let shown = view.filter.isEmpty ? !todos.isEmpty || !anyTodo || pinned.contains(section.repository.id) : !todos.isEmpty
            guard shown else { continue }
            if !lines.isEmpty { lines.append(ListWindow.Line(item: nil, text: "")) }
            let folded = view.folded.contains(section.repository.id)
            let header = ListWindow.Item.header(repositoryID: section.repository.id)
            lines.append(ListWindow.Line(item: header, text: drawing.header(section.repository, folded ? todos.count : nil)))
            guard !folded else { continue }
            for todo in todos {
                lines += drawing.todo(todo).map { ListWindow.Line(item: .todo(id: todo.id), text: $0) }
            }
        }
        return lines
    }

    private func items(_ lines: [ListWindow.Line]) -> [ListWindow.Item] {
        var items: [ListWindow.Item] = []
        for line in lines { if let item = line.item, items.last != item { items.append(item) } }
        return items
    }

    /// The item `offset` items from `item` (the first or last at the ends); nil when it is gone.
    func item(after item: ListWindow.Item, in lines: [ListWindow.Line], by offset: Int) -> ListWindow.Item? {
        let items = items(lines)
        guard let index = items.firstIndex(of: item) else { return nil }
        return items[min(max(0, index + offset), items.count - 1)]
    }

    func index(of item: ListWindow.Item, in lines: [ListWindow.Line]) -> Int? {
        items(lines).firstIndex(of: item)
    }

    func nextHeader(after item: ListWindow.Item, in lines: [ListWindow.Line]) -> ListWindow.Item? {
        let items = items(lines)
        guard let index = items.firstIndex(of: item) else { return nil }
        return items[(index + 1)...].first { if case .header = $0 { true } else { false } }
    }
}
