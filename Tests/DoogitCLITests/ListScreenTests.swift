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

    /// The hints fit any width the view draws at: as many as fit, most needed first, and always
    /// how to see the rest and how to leave.
    @Test(arguments: [30, 40, 60, 80, 100, 140])
    func theHintsFitTheWidth(width: Int) throws {
        let line = ListScreen.hintLine(width: width)
        #expect(DisplayWidth.of(line) <= width)
        #expect(line.hasSuffix("? help  q quit"))
        if width >= 40 { #expect(line.hasPrefix("j/k move  space done")) }
        if width >= 140 { #expect(line == ListScreen.hints.joined(separator: "  ")) }
        // Nothing is cut in the middle: every hint shown is whole.
        let shown = line.components(separatedBy: "  ")
        #expect(shown.allSatisfy(ListScreen.hints.contains), "\(shown)")
        let list = try ListViewStore()
        #expect(ListScreen.frame(try list.view(width: width)).rows.last == line)
    }

    /// The help screen's columns line up on every row, and at a narrow width each entry takes a
    /// row of its own, nothing cut.
    @Test(arguments: [30, 50, 80, 100])
    func theHelpScreenIsAlignedAndFits(width: Int) throws {
        let lines = ListScreen.helpLines(width: width)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
        var whatColumns: Set<Int> = [], secondKeyColumns: Set<Int> = []
        for case .two(let left, let right) in ListScreen.helpRows {
            guard let row = lines.first(where: { $0.hasPrefix(left.keys + " ") && $0.contains(left.what) }) else {
                Issue.record("no row for \(left.keys)")
                continue
            }
            whatColumns.insert(DisplayWidth.of(String(row[..<(row.range(of: left.what)?.lowerBound ?? row.endIndex)])))
            if let second = row.range(of: "  " + right.keys + " ") {
                secondKeyColumns.insert(DisplayWidth.of(String(row[..<second.lowerBound])) + 2)
            } else {
                // Too narrow for two: the right entry has its own row, starting at the left edge.
                #expect(lines.contains { $0.hasPrefix(right.keys + " ") }, "\(right.keys)")
            }
        }
        #expect(whatColumns.count == 1, "what the keys do starts in one column: \(whatColumns)")
        #expect(secondKeyColumns.count <= 1, "the second keys start in one column: \(secondKeyColumns)")
        if width >= 80 { #expect(secondKeyColumns.count == 1, "two to a row at \(width)") }
        // Every word of every entry is on the screen.
        let screen = lines.joined(separator: " ")
        for row in ListScreen.helpRows {
            let entries = switch row {
            case .two(let left, let right): [left, right]
            case .one(let entry): [entry]
            }
            for word in entries.flatMap({ $0.what.split(separator: " ") }) { #expect(screen.contains(word), "\(word)") }
        }
    }

    /// A URL longer than the width is broken over lines in the view (a line longer than the
    /// screen would be cut there), every character of it shown.
    @Test func aLongURLIsShownWholeOverLines() throws {
        let list = try ListViewStore()
        let url = "https://github.com/octocat/Hello-World/pull/1347/files#diff-0123456789abcdef0123456789abcdef"
        _ = try list.store.editTodo(id: 3, text: "review " + url, at: Fixture.t1)
        let view = try list.view(width: 40)
        let rows = ListScreen.frame(view).rows
        #expect(rows.allSatisfy { DisplayWidth.of($0) <= 40 })
        let lines = try #require(view.window.lines(of: .todo(id: 3)))
        let text = lines.map { view.window.lines[$0].text.trimmingSpaces }.joined()
        #expect(text.contains(url), "\(text)")
    }
}
