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
    @Test func theCursorStartsOnTheFirstTodoAndMovesOverTodosAndHeaders() throws {
        let list = try ListViewStore()
        var view = try list.view()
        #expect(view.cursor == .todo(id: 1))
        _ = try view.handle(char("j"))
        #expect(view.cursor == .todo(id: 2))
        _ = try view.handle(key(.down))
        #expect(view.cursor == .header(repositoryID: 2))
        _ = try view.handle(char("G"))
        #expect(view.cursor == .todo(id: 3))
        _ = try view.handle(char("j"))
        #expect(view.cursor == .todo(id: 3), "the last stays the last")
        _ = try view.handle(char("g"))
        #expect(view.cursor == .header(repositoryID: Fixture.helloWorld.id))
        _ = try view.handle(key(.tab))
        #expect(view.cursor == .header(repositoryID: 2))
        _ = try view.handle(key(.backTab))
        #expect(view.cursor == .header(repositoryID: Fixture.helloWorld.id))
    }

    @Test func keysAskForTheCommandsChanges() throws {
        let list = try ListViewStore()
        var view = try list.view()
        #expect(try view.handle(char(" ")) == [.toggle(todoID: 1, done: true)])
        _ = try view.handle(char("j"))
        #expect(try view.handle(char("x")) == [.toggle(todoID: 2, done: false)])
        #expect(try view.handle(char("D")) == [.remove(todoID: 2)])
        #expect(try view.handle(key(.delete)) == [.remove(todoID: 2)])
        #expect(try view.handle(char("u")) == [.undo])
        #expect(try view.handle(char("s")) == [.sync])
        #expect(try view.handle(char("n")) == [.editNote(todoID: 2)])
        #expect(try view.handle(char("q")) == [.quit])
        #expect(try view.handle(key(.control("c"))) == [.quit])
        #expect(try view.handle(key(.control("z"))) == [.suspend])
        #expect(try view.handle(key(.control("l"))) == [.redraw])
    }

    @Test func addTypesALineForTheSectionUnderTheCursor() throws {
        let list = try ListViewStore()
        var view = try list.view()
        _ = try view.handle(char("G"))
        #expect(try view.handle(char("a")).isEmpty)
        #expect(view.prompt?.purpose == .add(repositoryID: 2))
        for character in "ship +x" { #expect(try view.handle(char(character)).isEmpty, "typed keys are text, not commands") }
        #expect(try view.handle(key(.enter)) == [.add(repositoryID: 2, line: "ship +x")])
        #expect(view.prompt == nil)
        // Esc drops the line.
        _ = try view.handle(char("a"))
        _ = try view.handle(char("z"))
        #expect(try view.handle(key(.escape)).isEmpty)
        #expect(view.prompt == nil)
    }

    @Test func editOffersTheTextAndSendsItAsText() throws {
        let list = try ListViewStore()
        var view = try list.view()
        _ = try view.handle(char("e"))
        #expect(view.prompt?.editor.text == "set up CI")
        #expect(try view.handle(key(.enter)).isEmpty, "an unchanged text is no change")
        _ = try view.handle(char("e"))
        _ = try view.handle(key(.control("u")))
        for character in "a +b" { _ = try view.handle(char(character)) }
        #expect(try view.handle(key(.enter)) == [.edit(todoID: 1, line: "a +b", raw: true)])
    }

    @Test func fieldsAreTodoEditsWords() throws {
        #expect(ListView.fieldWords("docs -old +new", prefix: "") == "+docs -old +new")
        #expect(ListView.fieldWords(" fri ", prefix: "due:") == "due:fri")
        #expect(ListView.fieldWords("h", prefix: "pri:") == "pri:h")
        #expect(ListView.fieldWords(" @me ", prefix: "assignee:") == "assignee:@me")
        #expect(ListView.fieldWords("", prefix: "assignee:") == "assignee:none")
        #expect(ListView.fieldWords("  ", prefix: "pri:") == "pri:none", "an empty answer clears")
        #expect(ListView.fieldWords("-", prefix: "due:") == "due:none" && ListView.fieldWords("None", prefix: "due:") == "due:none")
        #expect(ListView.fieldWords("  ", prefix: "") == nil)
        let list = try ListViewStore()
        var view = try list.view()
        _ = try view.handle(char("d"))
        for character in "tomorrow" { _ = try view.handle(char(character)) }
        #expect(try view.handle(key(.enter)) == [.edit(todoID: 1, line: "due:tomorrow", raw: false)])
    }

    @Test func escAndAKeyTypedAtOnceAreBothMeant() throws {
        let list = try ListViewStore()
        var view = try list.view()
        _ = try view.handle(char("/"))
        _ = try view.handle(char("f"))
        #expect(view.filter == "f")
        // Alt-x in the filter's line: the line is left, the filter cleared, and x toggles the
        // todo under the cursor (the match, 3).
        #expect(try view.handle(.key(.character("x"), alt: true)) == [.toggle(todoID: 3, done: true)])
        #expect(view.prompt == nil && view.filter.isEmpty)
        // In the list: Esc clears the filter, then the key.
        try view.setFilter("set")
        #expect(try view.handle(.key(.character("j"), alt: true)).isEmpty)
        #expect(view.filter.isEmpty)
    }

    @Test func theFilterPicksAsYouTypeAsGrepDoesAndEscClearsIt() throws {
        let list = try ListViewStore()
        var view = try list.view()
        func shown() -> [Int64] { view.window.entries.compactMap(\.todo?.id) }
        _ = try view.handle(char("/"))
        #expect(try view.handle(char("F")).isEmpty)
        #expect(shown() == [3], "without case, in the text")
        #expect(view.window.items.filter { if case .header = $0 { true } else { false } } == [.header(repositoryID: 2)],
                "only sections with a match")
        _ = try view.handle(char("x"))
        #expect(shown().isEmpty)
        #expect(ListScreen.frame(view).rows[0].hasPrefix("No todo matches 'Fx'"))
        _ = try view.handle(key(.backspace))
        _ = try view.handle(key(.backspace))
        #expect(shown() == [1, 2, 3], "an empty filter shows all again")
        _ = try view.handle(char("r"))
        #expect(shown() == [2, 3], "'write the release notes' and 'fork it'")
        #expect(try view.handle(key(.enter)).isEmpty)
        #expect(view.filter == "r")
        _ = try view.handle(key(.escape))
        #expect(view.filter.isEmpty)
        #expect(shown() == [1, 2, 3])
    }

    @Test func aClickOnACircleTogglesAndOnTheAddButtonAdds() throws {
        let list = try ListViewStore()
        var view = try list.view()
        // Row 2 is todo 2's line ("  ● 2  ..."); its circle is at column 2.
        #expect(try view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 2, row: 2))) == [.toggle(todoID: 2, done: false)])
        #expect(view.cursor == .todo(id: 2))
        // Elsewhere on the line only selects.
        #expect(try view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 12, row: 1))).isEmpty)
        #expect(view.cursor == .todo(id: 1))
        // The [+] at the right end of a header.
        #expect(try view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 78, row: 4))).isEmpty)
        #expect(view.prompt?.purpose == .add(repositoryID: 2))
    }

    @Test func theWheelScrollsWithinTheList() throws {
        let list = try ListViewStore()
        for n in 10..<60 { try list.add("todo \(n)", to: Self.spoon) }
        var view = try list.view()
        let first = ListScreen.frame(view).rows
        _ = try view.handle(.mouse(MouseEvent(action: .wheelDown, button: 0, column: 0, row: 0)))
        #expect(Array(ListScreen.frame(view).rows[0..<(view.listHeight - 3)]) == Array(first[3..<view.listHeight]), "three lines up")
        for _ in 0..<100 { _ = try view.handle(.mouse(MouseEvent(action: .wheelDown, button: 0, column: 0, row: 0))) }
        var rows = ListScreen.frame(view).rows
        #expect(rows[view.listHeight - 1].hasSuffix("todo 59"), "no further than the last line: \(rows)")
        _ = try view.handle(.mouse(MouseEvent(action: .wheelUp, button: 0, column: 0, row: 0)))
        rows = ListScreen.frame(view).rows
        #expect(rows[view.listHeight - 1].hasSuffix("todo 56"))
        #expect(view.cursor == .todo(id: 1), "the wheel scrolls, the cursor stays")
    }

    @Test func takingBackAnEditChangesOnlyWhatTheEditChanged() throws {
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
    @Test func fieldPromptsHoldTheValueNowAndClearingClears() throws {
        let list = try ListViewStore(sample: false)
        try list.add("ship it", details: DetailsEdit(due: .some(CalendarDate(text: "2027-01-31")), priority: .some(.high),
                                                     addTags: ["docs", "ci"]))
        var view = try list.view()
        _ = try view.handle(char("d"))
        #expect(view.prompt?.editor.text == "2027-01-31")
        #expect(try view.handle(key(.enter)).isEmpty, "unchanged: no change")
        _ = try view.handle(char("d"))
        _ = try view.handle(key(.control("u")))
        #expect(try view.handle(key(.enter)) == [.edit(todoID: 1, line: "due:none", raw: false)])
        _ = try view.handle(char("p"))
        #expect(view.prompt?.editor.text == "H")
        _ = try view.handle(key(.control("u")))
        _ = try view.handle(char("-"))
        #expect(try view.handle(key(.enter)) == [.edit(todoID: 1, line: "pri:none", raw: false)])
        _ = try view.handle(char("t"))
        #expect(view.prompt?.hint?.contains("now +ci +docs") == true, "\(view.prompt?.hint ?? "")")
        // The prompt's line is short and whole; what may be typed is in the status line.
        _ = try view.handle(key(.escape))
        _ = try view.handle(char("d"))
        let rows = ListScreen.frame(view).rows
        #expect(rows.last == "Due 1: 2027-01-31")
        #expect(rows[rows.count - 2] == "1 open, 0 done  " + ListView.dueHint)
    }

    /// A change that fails (a word that is not a date) gives back the line as it was typed.
    @Test func aLineWhoseChangeFailedComesBack() throws {
        let list = try ListViewStore()
        var view = try list.view()
        _ = try view.handle(char("a"))
        for character in "buy milk due:nope" { _ = try view.handle(char(character)) }
        #expect(try view.handle(key(.enter)) == [.add(repositoryID: Fixture.helloWorld.id, line: "buy milk due:nope")])
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
