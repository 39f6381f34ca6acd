import DoogitTerminal
import Testing

private let esc = "\u{1B}"

/// The rows an output writes, by the "ESC[row;1H" that starts each (1-based).
private func writtenRows(_ output: String) -> [Int] {
    var rows: [Int] = []
    let pieces = output.split(separator: "\u{1B}[", omittingEmptySubsequences: false).dropFirst()
    for piece in pieces {
        let digits = piece.prefix { $0.isNumber }
        if piece.dropFirst(digits.count).hasPrefix(";1H"), let row = Int(digits) { rows.append(row) }
    }
    return rows
}

@Suite("ScreenDiff")
struct ScreenDiffTests {
    let frame = Frame(rows: ["title", "\(esc)[1mfirst\(esc)[0m", "second", "", "third"])

    @Test("the first frame clears the screen and writes every row")
    func first() {
        let output = ScreenDiff.output(from: nil, to: frame, width: 20, height: 6)
        #expect(output.hasPrefix("\(esc)[?2026h"))
        #expect(output.hasSuffix("\(esc)[?2026l"))
        #expect(output.contains("\(esc)[2J"))
        #expect(writtenRows(output) == [1, 2, 3, 5], "empty rows are left cleared")
        #expect(output.contains("\(esc)[2;1H\(esc)[1mfirst\(esc)[0m\(esc)[0m"))
        #expect(output.contains("\(esc)[?25l"), "no cursor")
        #expect(!output.contains("\(esc)[?25h"))
    }

    @Test("one changed row: only that row is written, and the rest of it cleared")
    func oneRow() {
        var next = frame
        next.rows[2] = "2nd"
        let output = ScreenDiff.output(from: frame, to: next, width: 20, height: 6)
        #expect(writtenRows(output) == [3])
        #expect(output.contains("\(esc)[3;1H2nd\(esc)[0m\(esc)[K"))
        #expect(!output.contains("\(esc)[2J"))
        #expect(!output.contains("first"))
        #expect(output.hasPrefix("\(esc)[?2026h"))
        #expect(output.hasSuffix("\(esc)[?25l\(esc)[?2026l"))
    }

    @Test("identical frames write nothing")
    func identical() {
        #expect(ScreenDiff.output(from: frame, to: frame, width: 20, height: 6) == "")
        let withCursor = Frame(rows: ["a"], cursor: Frame.Cursor(row: 0, column: 1))
        #expect(ScreenDiff.output(from: withCursor, to: withCursor, width: 20, height: 6) == "")
    }

    @Test("a row that disappears is cleared; a new row is written")
    func rowsCount() {
        let output = ScreenDiff.output(from: frame, to: Frame(rows: ["title", "\(esc)[1mfirst\(esc)[0m", "second"]), width: 20, height: 6)
        #expect(writtenRows(output) == [5])
        #expect(output.contains("\(esc)[5;1H\(esc)[0m\(esc)[K"))
        let grown = ScreenDiff.output(from: frame, to: Frame(rows: frame.rows + ["fourth", "past the bottom"]), width: 20, height: 6)
        #expect(writtenRows(grown) == [6])
        #expect(!grown.contains("past the bottom"))
    }

    @Test("the cursor is placed and shown, or hidden")
    func cursor() {
        let shown = Frame(rows: frame.rows, cursor: Frame.Cursor(row: 2, column: 4))
        let showing = ScreenDiff.output(from: frame, to: shown, width: 20, height: 6)
        #expect(showing == "\(esc)[?2026h\(esc)[3;5H\(esc)[?25h\(esc)[?2026l", "only the cursor changed")
        let hiding = ScreenDiff.output(from: shown, to: frame, width: 20, height: 6)
        #expect(hiding == "\(esc)[?2026h\(esc)[?25l\(esc)[?2026l")
        var typed = shown
        typed.rows[2] = "secondx"
        typed.cursor = Frame.Cursor(row: 2, column: 7)
        let typing = ScreenDiff.output(from: shown, to: typed, width: 20, height: 6)
        #expect(typing.hasPrefix("\(esc)[?2026h\(esc)[?25l"), "hidden while rows are written")
        #expect(typing.hasSuffix("\(esc)[3;8H\(esc)[?25h\(esc)[?2026l"))
        let first = ScreenDiff.output(from: nil, to: shown, width: 20, height: 6)
        #expect(first.hasSuffix("\(esc)[3;5H\(esc)[?25h\(esc)[?2026l"))
    }

    @Test("a row wider than the screen is cut; a full-width row is not followed by a clear")
    func wideRows() {
        let output = ScreenDiff.output(from: frame, to: Frame(rows: ["title", "0123456789abc", "0123456789"]), width: 10, height: 6)
        #expect(output.contains("\(esc)[2;1H0123456789\(esc)[0m\(esc)[3;1H"))
        #expect(output.contains("\(esc)[3;1H0123456789\(esc)[0m\(esc)["))
        #expect(!output.contains("abc"))
        #expect(!output.contains("0123456789\(esc)[0m\(esc)[K"))
    }

    @Test("a size change redraws the whole screen")
    func sizeChange() {
        var screen = Screen(width: 20, height: 6)
        #expect(writtenRows(screen.render(frame)) == [1, 2, 3, 5])
        var next = frame
        next.rows[0] = "Title"
        #expect(writtenRows(screen.render(next)) == [1])
        #expect(screen.render(next) == "")
        screen.resize(width: 30, height: 6)
        let redrawn = screen.render(next)
        #expect(redrawn.contains("\(esc)[2J"))
        #expect(writtenRows(redrawn) == [1, 2, 3, 5])
        screen.resize(width: 30, height: 6)
        #expect(screen.render(next) == "", "the same size is no change")
        screen.resize(width: 30, height: 3)
        #expect(writtenRows(screen.render(next)) == [1, 2, 3])
        screen.invalidate()
        #expect(screen.render(next).contains("\(esc)[2J"))
    }
}
