@testable import DoogitCLI
import DoogitStore
import DoogitSupport
import DoogitTerminal
import Foundation
import Testing
import TestSupport

/// The interactive view without a terminal: what keys and clicks ask for, and what taking back a
/// change asks.
struct ListViewTests: ListViewSuite {
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
        #expect(ListView.fieldWords("  ", prefix: "pri:") == "pri:none", "an empty answer clears")
        #expect(ListView.fieldWords("-", prefix: "due:") == "due:none" && ListView.fieldWords("None", prefix: "due:") == "due:none")
        #expect(ListView.fieldWords("  ", prefix: "") == nil)
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

    /// `d` and `p` open on the value the todo has, which clearing clears; `t` names the tags it has.
    @Test func fieldPromptsHoldTheValueNowAndClearingClears() {
        var view = ListView(renderer: ListRenderer(style: Style(color: false, unicode: true), width: nil), width: 80, height: 24)
        var todo = Fixture.todo(id: 1, text: "ship it")
        todo.due = CalendarDate(text: "2027-01-31")
        todo.priority = .high
        todo.tags = ["docs", "ci"]
        view.show([TodoSection(repository: Fixture.helloWorld, todos: [todo])])
        _ = view.handle(char("d"))
        #expect(view.prompt?.editor.text == "2027-01-31")
        #expect(view.handle(key(.enter)).isEmpty, "unchanged: no change")
        _ = view.handle(char("d"))
        _ = view.handle(key(.control("u")))
        #expect(view.handle(key(.enter)) == [.edit(todoID: 1, line: "due:none", raw: false)])
        _ = view.handle(char("p"))
        #expect(view.prompt?.editor.text == "H")
        _ = view.handle(key(.control("u")))
        _ = view.handle(char("-"))
        #expect(view.handle(key(.enter)) == [.edit(todoID: 1, line: "pri:none", raw: false)])
        _ = view.handle(char("t"))
        #expect(view.prompt?.hint?.contains("now +docs +ci") == true, "\(view.prompt?.hint ?? "")")
        // The prompt's line is short and whole; what may be typed is in the status line.
        _ = view.handle(key(.escape))
        _ = view.handle(char("d"))
        let rows = ListScreen.frame(view).rows
        #expect(rows.last == "Due 1: 2027-01-31")
        #expect(rows[rows.count - 2] == "1 open, 0 done  " + ListView.dueHint)
    }

    /// A change that fails (a word that is not a date) gives back the line as it was typed.
    @Test func aLineWhoseChangeFailedComesBack() {
        var view = view()
        _ = view.handle(char("a"))
        for character in "buy milk due:nope" { _ = view.handle(char(character)) }
        #expect(view.handle(key(.enter)) == [.add(repositoryID: Fixture.helloWorld.id, line: "buy milk due:nope")])
        view.reopenPrompt()
        #expect(view.prompt?.editor.text == "buy milk due:nope" && view.prompt?.purpose == .add(repositoryID: Fixture.helloWorld.id))
    }

    /// `o` finds the browser that is there: the first of BROWSER's list, else the system's opener.
    @Test func theBrowserIsOneThatIsThere() throws {
        let folder = TemporaryDirectory()
        let browser = folder.path + "/my-browser"
        _ = FileManager.default.createFile(atPath: browser, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        let empty = ["PATH": folder.path + "/none"]
        #expect(InteractiveSession.browser(empty) == nil, "no opener at all")
        #expect(InteractiveSession.browser(empty.merging(["BROWSER": "missing:\(browser) --new-tab"]) { $1 }) == "\(browser) --new-tab")
        #expect(InteractiveSession.browser(["PATH": folder.path, "BROWSER": "my-browser"]) == "my-browser")
    }
}
