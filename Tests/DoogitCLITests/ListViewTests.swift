@testable import DoogitCLI
import DoogitStore
import DoogitSupport
import DoogitTerminal
import Testing

/// The interactive view without a terminal: its layout, what keys and clicks ask for, and the
/// frames it draws.
struct ListViewTests {
    static let spoon = Fixture.repository(id: 2, owner: "octocat", name: "Spoon-Knife", description: "demo")
    static let sections = [
        TodoSection(repository: Fixture.helloWorld, todos: [Fixture.todo(id: 1, text: "set up CI"),
                                                            Fixture.todo(id: 2, text: "write the release notes", done: true)]),
        TodoSection(repository: spoon, todos: [Fixture.todo(id: 3, text: "fork it", repository: spoon)]),
    ]

    func view(width: Int = 80, height: Int = 24, color: Bool = false) -> ListView {
        var view = ListView(renderer: ListRenderer(style: Style(color: color, unicode: true), width: nil), width: width, height: height)
        view.show(Self.sections)
        return view
    }

    func key(_ key: Key) -> InputEvent { .key(key, alt: false) }
    func char(_ character: Character) -> InputEvent { .key(.character(character), alt: false) }

    @Test func theCursorStartsOnTheFirstTodoAndMovesOverTodosAndHeaders() {
        var view = view()
        #expect(view.cursor == .todo(id: 1))
        _ = view.handle(char("j"))
        #expect(view.cursor == .todo(id: 2))
        _ = view.handle(key(.down))
        #expect(view.cursor == .header(repositoryID: 2))
        _ = view.handle(char("G"))
        #expect(view.cursor == .todo(id: 3))
        _ = view.handle(char("j"))
        #expect(view.cursor == .todo(id: 3), "the last stays the last")
        _ = view.handle(char("g"))
        #expect(view.cursor == .header(repositoryID: Fixture.helloWorld.id))
        _ = view.handle(key(.tab))
        #expect(view.cursor == .header(repositoryID: 2))
        _ = view.handle(key(.backTab))
        #expect(view.cursor == .header(repositoryID: Fixture.helloWorld.id))
    }

    @Test func keysAskForTheCommandsChanges() {
        var view = view()
        #expect(view.handle(char(" ")) == [.toggle(todoID: 1, done: true)])
        _ = view.handle(char("j"))
        #expect(view.handle(char("x")) == [.toggle(todoID: 2, done: false)])
        #expect(view.handle(char("D")) == [.remove(todoID: 2)])
        #expect(view.handle(key(.delete)) == [.remove(todoID: 2)])
        #expect(view.handle(char("u")) == [.undo])
        #expect(view.handle(char("s")) == [.sync])
        #expect(view.handle(char("n")) == [.editNote(todoID: 2)])
        #expect(view.handle(char("q")) == [.quit])
        #expect(view.handle(key(.control("c"))) == [.quit])
        #expect(view.handle(key(.control("z"))) == [.suspend])
        #expect(view.handle(key(.control("l"))) == [.redraw])
    }

    @Test func addTypesALineForTheSectionUnderTheCursor() {
        var view = view()
        _ = view.handle(char("G"))
        #expect(view.handle(char("a")).isEmpty)
        #expect(view.prompt?.purpose == .add(repositoryID: 2))
        for character in "ship +x" { #expect(view.handle(char(character)).isEmpty, "typed keys are text, not commands") }
        #expect(view.handle(key(.enter)) == [.add(repositoryID: 2, line: "ship +x")])
        #expect(view.prompt == nil)
        // Esc drops the line.
        _ = view.handle(char("a"))
        _ = view.handle(char("z"))
        #expect(view.handle(key(.escape)).isEmpty)
        #expect(view.prompt == nil)
    }

    @Test func editOffersTheTextAndSendsItAsText() {
        var view = view()
        _ = view.handle(char("e"))
        #expect(view.prompt?.editor.text == "set up CI")
        #expect(view.handle(key(.enter)).isEmpty, "an unchanged text is no change")
        _ = view.handle(char("e"))
        _ = view.handle(key(.control("u")))
        for character in "a +b" { _ = view.handle(char(character)) }
        #expect(view.handle(key(.enter)) == [.edit(todoID: 1, line: "a +b", raw: true)])
    }

    @Test func fieldsAreTodoEditsWords() {
        #expect(ListView.fieldWords("docs -old +new", prefix: "") == "+docs -old +new")
        #expect(ListView.fieldWords(" fri ", prefix: "due:") == "due:fri")
        #expect(ListView.fieldWords("h", prefix: "pri:") == "pri:h")
        #expect(ListView.fieldWords("  ", prefix: "pri:") == nil)
        var view = view()
        _ = view.handle(char("d"))
        for character in "tomorrow" { _ = view.handle(char(character)) }
        #expect(view.handle(key(.enter)) == [.edit(todoID: 1, line: "due:tomorrow", raw: false)])
    }

    @Test func escAndAKeyTypedAtOnceAreBothMeant() {
        var view = view()
        _ = view.handle(char("/"))
        _ = view.handle(char("f"))
        #expect(view.filter == "f")
        // Alt-x in the filter's line: the line is left, the filter cleared, and x toggles the
        // todo under the cursor (the match, 3).
        #expect(view.handle(.key(.character("x"), alt: true)) == [.toggle(todoID: 3, done: true)])
        #expect(view.prompt == nil && view.filter.isEmpty)
        // In the list: Esc clears the filter, then the key.
        _ = view.setFilter("set")
        #expect(view.handle(.key(.character("j"), alt: true)).isEmpty)
        #expect(view.filter.isEmpty)
    }

    @Test func theFilterPicksAsYouTypeAsGrepDoesAndEscClearsIt() {
        var view = view()
        func shown() -> [Int64] { view.sections.flatMap(\.todos).map(\.id) }
        _ = view.handle(char("/"))
        #expect(view.handle(char("F")).isEmpty)
        #expect(shown() == [3], "without case, in the text")
        #expect(view.sections.map(\.repository.id) == [2], "only sections with a match")
        _ = view.handle(char("x"))
        #expect(shown().isEmpty)
        #expect(ListScreen.frame(view).rows[0].hasPrefix("No todo matches 'Fx'"))
        _ = view.handle(key(.backspace))
        _ = view.handle(key(.backspace))
        #expect(shown() == [1, 2, 3], "an empty filter shows all again")
        _ = view.handle(char("r"))
        #expect(shown() == [2, 3], "'write the release notes' and 'fork it'")
        #expect(view.handle(key(.enter)).isEmpty)
        #expect(view.filter == "r")
        _ = view.handle(key(.escape))
        #expect(view.filter.isEmpty)
        #expect(shown() == [1, 2, 3])
    }

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

    @Test func aClickOnACircleTogglesAndOnTheAddButtonAdds() {
        var view = view()
        // Row 2 is todo 2's line ("  ● 2  ..."); its circle is at column 2.
        #expect(view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 2, row: 2))) == [.toggle(todoID: 2, done: false)])
        #expect(view.cursor == .todo(id: 2))
        // Elsewhere on the line only selects.
        #expect(view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 12, row: 1))).isEmpty)
        #expect(view.cursor == .todo(id: 1))
        // The [+] at the right end of a header.
        #expect(view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 78, row: 4))).isEmpty)
        #expect(view.prompt?.purpose == .add(repositoryID: 2))
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

    @Test func theWheelScrollsWithinTheList() {
        var sections = Self.sections
        sections[1].todos = (10..<60).map { Fixture.todo(id: Int64($0), text: "todo \($0)", repository: Self.spoon) }
        var view = view()
        view.show(sections)
        _ = view.handle(.mouse(MouseEvent(action: .wheelDown, button: 0, column: 0, row: 0)))
        #expect(view.top == 3)
        #expect(ListScreen.frame(view).rows[0] == view.layout.lines[3].text)
        for _ in 0..<100 { _ = view.handle(.mouse(MouseEvent(action: .wheelDown, button: 0, column: 0, row: 0))) }
        #expect(view.top == view.layout.lines.count - view.listHeight, "no further than the last line")
        _ = view.handle(.mouse(MouseEvent(action: .wheelUp, button: 0, column: 0, row: 0)))
        #expect(view.top == view.layout.lines.count - view.listHeight - 3)
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

    @Test(arguments: [40, 80, 120])
    func theFrameIsTheListsLinesAStatusLineAndHints(width: Int) {
        let frame = ListScreen.frame(view(width: width))
        #expect(frame.rows.count == 24)
        #expect(frame.rows.allSatisfy { Styled.visibleWidth($0) <= width })
        #expect(frame.rows[0].hasPrefix("octocat/Hello-World"))
        #expect(frame.rows[0].hasSuffix("[+]"))
        #expect(frame.rows[1] == "› ○ 1  set up CI")
        #expect(frame.rows[2] == "  ● 2  write the release notes")
        #expect(frame.rows[22].hasPrefix("2 open, 1 done in 2 repositories"))
        #expect(frame.rows[23].hasPrefix("j/k move"))
    }

    @Test func aLongTodoWrapsAsTheListWrapsItAndTheCursorMarksEachLine() {
        var sections = Self.sections
        sections[1].todos[0].text = String(repeating: "word ", count: 12)
        var view = view(width: 40)
        view.show(sections)
        _ = view.handle(char("G"))
        let frame = ListScreen.frame(view)
        let lines = view.layout.lines(of: .todo(id: 3)) ?? 0..<0
        #expect(lines.count == 2)
        #expect(frame.rows[lines.lowerBound].hasPrefix("› ○ 3  word"))
    }

    @Test func aMoveThatDoesNotScrollRewritesOnlyTheTwoTodos() {
        var view = view(color: true)
        let before = ListScreen.frame(view)
        _ = view.handle(char("j"))
        let after = ListScreen.frame(view)
        let changed = before.rows.indices.filter { before.rows[$0] != after.rows[$0] }
        #expect(changed == [1, 2])
        let output = ScreenDiff.output(from: before, to: after, width: 80, height: 24)
        #expect(output.contains("\u{1B}[2;1H") && output.contains("\u{1B}[3;1H"))
        #expect(!output.contains("\u{1B}[1;1H") && !output.contains("\u{1B}[4;1H"))
    }

    @Test func theCursorsMarkGoesAfterTheStylesARowStartsWith() {
        #expect(ListScreen.marked("  ○ 1  a", with: "›") == "› ○ 1  a")
        #expect(ListScreen.marked("\u{1B}[2m  ● 2  b\u{1B}[0m", with: "›") == "\u{1B}[2m› ● 2  b\u{1B}[0m")
        #expect(ListScreen.marked("octocat/x", with: "›") == "octocat/x")
        #expect(ListScreen.marked("\u{1B}[2m", with: "›") == "\u{1B}[2m")
    }

    @Test func aSmallScreenSaysSoInsteadOfABrokenList() {
        let frame = ListScreen.frame(view(width: 20, height: 3))
        #expect(frame.rows.count == 3)
        #expect(frame.rows[0].hasPrefix("doogit ui needs"))
    }

    @Test func takingBackAnEditChangesOnlyWhatTheEditChanged() {
        var before = Fixture.todo(id: 1, text: "old")
        before.tags = ["Keep", "gone"]
        before.due = CalendarDate(text: "2030-01-02")
        var after = before
        after.text = "new"
        after.tags = ["keep", "added"]
        let back = ViewChanges.edit(from: after, to: before)
        #expect(back.text == "old")
        #expect(back.details.addTags == ["gone"])
        #expect(back.details.removeTags == ["added"])
        #expect(back.details.due == nil, "an unchanged due date is not written again")
        #expect(back.details.priority == nil && back.details.note == nil)
    }
}
