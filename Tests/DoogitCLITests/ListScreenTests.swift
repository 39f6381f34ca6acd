@testable import DoogitCLI
import DoogitStore
import DoogitSupport
import DoogitTerminal
import Testing

/// The frames the interactive view draws: the list's lines, a status line and hints, the cursor's
/// mark, and only the rows that changed rewritten.
struct ListScreenTests: ListViewSuite {
    @Test(arguments: [40, 80, 120])
    func theFrameIsTheListsLinesAStatusLineAndHints(width: Int) throws {
        let list = try ListViewStore()
        let frame = ListScreen.frame(try list.view(width: width))
        #expect(frame.rows.count == 24)
        #expect(frame.rows.allSatisfy { Styled.visibleWidth($0) <= width })
        #expect(frame.rows[0].hasPrefix("octocat/Hello-World"))
        #expect(frame.rows[0].hasSuffix("[+]"))
        #expect(frame.rows[1] == "› ○ 1  set up CI")
        #expect(frame.rows[2] == "  ● 2  write the release notes")
        #expect(frame.rows[22].hasPrefix("2 open, 1 done in 2 repositories"))
        #expect(frame.rows[23].hasPrefix("j/k move"))
    }

    @Test func aLongTodoWrapsAsTheListWrapsItAndTheCursorMarksEachLine() throws {
        let list = try ListViewStore()
        _ = try list.store.editTodo(id: 3, text: String(repeating: "word ", count: 12), at: Fixture.t1)
        var view = try list.view(width: 40)
        _ = try view.handle(char("G"))
        let frame = ListScreen.frame(view)
        let lines = view.window.lines(of: .todo(id: 3)) ?? 0..<0
        #expect(lines.count == 2)
        #expect(frame.rows[lines.lowerBound].hasPrefix("› ○ 3  word"))
    }

    @Test func aMoveThatDoesNotScrollRewritesOnlyTheTwoTodos() throws {
        let list = try ListViewStore()
        var view = try list.view(color: true)
        let before = ListScreen.frame(view)
        _ = try view.handle(char("j"))
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

    @Test func aSmallScreenSaysSoInsteadOfABrokenList() throws {
        let list = try ListViewStore()
        let frame = ListScreen.frame(try list.view(width: 20, height: 3))
        #expect(frame.rows.count == 3)
        #expect(frame.rows[0].hasPrefix("doogit ui needs"))
    }
}
