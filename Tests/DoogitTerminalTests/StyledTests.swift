import DoogitTerminal
import Testing

@Suite("Styled")
struct StyledTests {
    @Test("escape sequences take no columns", arguments: [
        ("plain", 5), ("", 0), ("\u{1B}[1mbold\u{1B}[0m", 4), ("\u{1B}[38;5;196mred\u{1B}[m x", 5),
        ("\u{1B}]8;;https://example.com\u{1B}\\link\u{1B}]8;;\u{1B}\\", 4), ("\u{1B}]0;title\u{07}ab", 2),
        ("日本\u{1B}[2m語\u{1B}[0m", 6), ("👩‍👩‍👧 e\u{301}", 4), ("\u{1B}[1m\u{1B}[0m", 0),
    ] as [(String, Int)])
    func width(row: String, expected: Int) {
        #expect(Styled.visibleWidth(row) == expected)
    }

    @Test("a row that fits is unchanged")
    func fits() {
        let row = "\u{1B}[1mtitle\u{1B}[0m 日本"
        #expect(Styled.truncate(row, toWidth: 10) == row)
        #expect(Styled.truncate(row, toWidth: 40) == row)
    }

    @Test("cutting keeps the sequences, so styles still close")
    func keepsSequences() {
        #expect(Styled.truncate("\u{1B}[1mhello\u{1B}[0m world", toWidth: 3) == "\u{1B}[1mhel\u{1B}[0m")
        #expect(Styled.truncate("ab\u{1B}[31mcdef\u{1B}[0m", toWidth: 4) == "ab\u{1B}[31mcd\u{1B}[0m")
        #expect(Styled.truncate("abc", toWidth: 0) == "")
    }

    @Test("a wide character at the edge is left out and a space takes its column")
    func wideAtEdge() {
        #expect(Styled.truncate("a日本", toWidth: 4) == "a日 ")
        #expect(Styled.truncate("a日本", toWidth: 3) == "a日")
        #expect(Styled.truncate("日本", toWidth: 1) == " ")
        #expect(Styled.truncate("\u{1B}[7m日本\u{1B}[0m", toWidth: 3) == "\u{1B}[7m日 \u{1B}[0m")
        #expect(Styled.truncate("x👩‍👩‍👧y", toWidth: 2) == "x ")
        for width in 0...8 {
            #expect(Styled.visibleWidth(Styled.truncate("ab日本語\u{1B}[0mcd", toWidth: width)) == width)
        }
    }

    @Test("combining marks stay with their letter")
    func combining() {
        #expect(Styled.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}e\u{301}")
        #expect(Styled.truncate("\u{1B}[1me\u{301}x\u{1B}[0m", toWidth: 1) == "\u{1B}[1me\u{301}\u{1B}[0m")
    }
}
