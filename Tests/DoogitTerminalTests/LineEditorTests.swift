import DoogitTerminal
import Testing

/// An editor holding `text` with the cursor after `cursor` characters.
private func makeEditor(_ text: String, cursor: Int) -> LineEditor {
    var editor = LineEditor(text: text)
    _ = editor.handle(.key(.home, alt: false))
    for _ in 0..<cursor { _ = editor.handle(.key(.right, alt: false)) }
    return editor
}

private extension LineEditor {
    /// Handles the keys in turn, expecting each to be consumed (or not).
    mutating func press(_ keys: Key..., alt: Bool = false, consumed: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        for key in keys {
            let wasConsumed = handle(.key(key, alt: alt))
            #expect(wasConsumed == consumed, "\(key)", sourceLocation: sourceLocation)
        }
    }

    mutating func type(_ text: String) {
        for character in text { _ = handle(.key(.character(character), alt: false)) }
    }
}

@Suite("LineEditor")
struct LineEditorTests {
    @Test("starts with the cursor after the text")
    func start() {
        #expect(LineEditor().text == "")
        #expect(LineEditor().cursor == 0)
        let editor = LineEditor(text: "héllo")
        #expect(editor.cursor == 5)
        #expect(LineEditor(text: "a\nb\tc\u{1B}d").text == "a b cd")
    }

    @Test("typing inserts at the cursor")
    func typing() {
        var editor = makeEditor("ad", cursor: 1)
        editor.type("bc")
        #expect(editor.text == "abcd")
        #expect(editor.cursor == 3)
        editor.type("日本")
        #expect(editor.text == "abc日本d")
        #expect(editor.cursor == 5)
    }

    @Test("Left, Right, Home, End, Ctrl-A, Ctrl-E, Ctrl-B, Ctrl-F move")
    func moving() {
        var editor = LineEditor(text: "abc")
        editor.press(.left)
        #expect(editor.cursor == 2)
        editor.press(.home)
        #expect(editor.cursor == 0)
        editor.press(.left)  // consumed at the start too
        #expect(editor.cursor == 0)
        editor.press(.right)
        #expect(editor.cursor == 1)
        editor.press(.end)
        #expect(editor.cursor == 3)
        editor.press(.right)
        #expect(editor.cursor == 3)
        editor.press(.control("a"))
        #expect(editor.cursor == 0)
        editor.press(.control("e"))
        #expect(editor.cursor == 3)
        editor.press(.control("b"))
        #expect(editor.cursor == 2)
        editor.press(.control("f"))
        #expect(editor.cursor == 3)
        #expect(editor.text == "abc")
    }

    @Test("Backspace deletes before the cursor, Delete and Ctrl-D under it")
    func deleting() {
        var editor = makeEditor("abcd", cursor: 2)
        editor.press(.backspace)
        #expect(editor.text == "acd")
        #expect(editor.cursor == 1)
        editor.press(.delete)
        #expect(editor.text == "ad")
        #expect(editor.cursor == 1)
        editor.press(.control("d"))
        #expect(editor.text == "a")
        editor.press(.delete)  // at the end: consumed, nothing changes
        #expect(editor.text == "a")
        editor.press(.home, .backspace)
        #expect(editor.text == "a")
        #expect(editor.cursor == 0)
    }

    @Test("graphemes move and delete as one", arguments: ["e\u{301}", "👩‍👩‍👧", "日", "🇫🇷", "👍🏽"])
    func graphemes(grapheme: String) {
        var editor = LineEditor(text: "a" + grapheme + "b")
        #expect(editor.cursor == 3)
        editor.press(.left, .left)
        #expect(editor.cursor == 1)
        editor.press(.right)
        #expect(editor.cursor == 2)
        editor.press(.backspace)
        #expect(editor.text == "ab")
        #expect(editor.cursor == 1)
        editor.type(grapheme)
        #expect(editor.text == "a" + grapheme + "b")
        editor.press(.left, .delete)
        #expect(editor.text == "ab")
    }

    @Test("a combining mark typed after a letter joins it")
    func combiningJoins() {
        var editor = LineEditor(text: "cafe")
        editor.type("\u{301}")
        #expect(editor.text == "cafe\u{301}")
        #expect(editor.cursor == 4)
        editor.press(.backspace)
        #expect(editor.text == "caf")
    }

    @Test("Ctrl-U deletes to the start, Ctrl-K to the end")
    func killLine() {
        var editor = makeEditor("hello world", cursor: 5)
        editor.press(.control("k"))
        #expect(editor.text == "hello")
        #expect(editor.cursor == 5)
        editor = makeEditor("hello world", cursor: 6)
        editor.press(.control("u"))
        #expect(editor.text == "world")
        #expect(editor.cursor == 0)
    }

    @Test("Ctrl-W deletes the word before the cursor: spaces, then the rest")
    func deleteWord() {
        var editor = LineEditor(text: "fix the  bug  ")
        editor.press(.control("w"))
        #expect(editor.text == "fix the  ")
        editor.press(.control("w"))
        #expect(editor.text == "fix ")
        editor = makeEditor("one two three", cursor: 6)
        editor.press(.control("w"))
        #expect(editor.text == "one o three")
        #expect(editor.cursor == 4)
        editor = makeEditor("日本 👩‍👩‍👧x", cursor: 5)
        editor.press(.control("w"))
        #expect(editor.text == "日本 ")
        editor.press(.control("w"), .control("w"))
        #expect(editor.text == "")
    }

    @Test("Alt-B, Alt-F move by word; Alt-Backspace, Alt-D delete one")
    func altWords() {
        var editor = LineEditor(text: "one two three")
        editor.press(.character("b"), alt: true)
        #expect(editor.cursor == 8)
        editor.press(.character("b"), alt: true)
        #expect(editor.cursor == 4)
        editor.press(.character("f"), alt: true)
        #expect(editor.cursor == 7)
        editor.press(.character("d"), alt: true)
        #expect(editor.text == "one two")
        editor.press(.backspace, alt: true)
        #expect(editor.text == "one ")
        editor.press(.character("x"), alt: true, consumed: false)  // other Alt keys are the caller's
        #expect(editor.text == "one ")
    }

    @Test("a paste inserts its text with line breaks and tabs as spaces")
    func paste() {
        var editor = makeEditor("ab", cursor: 1)
        let consumed = editor.handle(.paste("x\ny\tz\r\nw"))
        #expect(consumed)
        #expect(editor.text == "ax y z wb")
        #expect(editor.cursor == 8)
        _ = editor.handle(.paste("\u{1B}[31m\u{202E}"))
        #expect(editor.text == "ax y z w[31mb", "controls and direction overrides are dropped")
    }

    @Test("keys it does not use are left to the caller", arguments: [
        Key.enter, .escape, .tab, .backTab, .up, .down, .pageUp, .pageDown, .insert, .function(1), .control("c"), .control("n"),
    ])
    func notConsumed(key: Key) {
        var editor = LineEditor(text: "abc")
        editor.press(key, consumed: false)
        #expect(editor == LineEditor(text: "abc"))
        let mouseConsumed = editor.handle(.mouse(MouseEvent(action: .press, button: 0, column: 0, row: 0)))
        #expect(!mouseConsumed)
    }

    @Test("text that fits is shown whole")
    func visibleFits() {
        let editor = makeEditor("hello", cursor: 2)
        #expect(editor.visible(width: 10) == ("hello", 2))
        #expect(LineEditor(text: "hello").visible(width: 6) == ("hello", 5))
        #expect(LineEditor().visible(width: 3) == ("", 0))
        #expect(LineEditor(text: "abc").visible(width: 0) == ("", 0))
    }

    @Test("long text scrolls so the cursor stays in view")
    func visibleScrolls() {
        let text = "abcdefghijklmnopqrst"
        // At the end: the tail, with a column for the cursor after it.
        #expect(LineEditor(text: text).visible(width: 10) == ("lmnopqrst", 9))
        // At the start: the head.
        #expect(makeEditor(text, cursor: 0).visible(width: 10) == ("abcdefghij", 0))
        #expect(makeEditor(text, cursor: 5).visible(width: 10) == ("abcdefghij", 5))
        // In the middle: the cursor near the middle.
        #expect(makeEditor(text, cursor: 10).visible(width: 10) == ("fghijklmno", 5))
        // Every position shows the cursor within the width, under its own character.
        for cursor in 0...text.count {
            let shown = makeEditor(text, cursor: cursor).visible(width: 7)
            #expect(shown.cursorColumn < 7)
            #expect(shown.text.count <= 7)
            if cursor < text.count {
                #expect(Array(shown.text)[shown.cursorColumn] == Array(text)[cursor])
            }
        }
    }

    @Test("wide characters count two columns when scrolling")
    func visibleWide() {
        let text = "日本語テキスト"  // 14 columns
        #expect(LineEditor(text: text).visible(width: 6) == ("スト", 4))
        #expect(makeEditor(text, cursor: 0).visible(width: 6) == ("日本語", 0))
        #expect(makeEditor(text, cursor: 0).visible(width: 5) == ("日本", 0), "a wide character that does not fit is left out")
        #expect(makeEditor(text, cursor: 3).visible(width: 6) == ("語テキ", 2))
        #expect(makeEditor("ab👩‍👩‍👧cd", cursor: 2).visible(width: 4) == ("ab👩‍👩‍👧", 2))
        #expect(makeEditor("ab👩‍👩‍👧cd", cursor: 3).visible(width: 4) == ("👩‍👩‍👧cd", 2))
        for cursor in 0...text.count {
            let shown = makeEditor(text, cursor: cursor).visible(width: 5)
            #expect(shown.cursorColumn + (cursor < text.count ? 2 : 1) <= 5)
        }
    }
}
