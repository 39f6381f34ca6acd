import DoogitSupport
import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// Wrapping that keeps links whole and still works on very narrow terminals; highlighting;
/// repository lines without trailing spaces.
@Suite struct WrappingTests {
    static let url = "https://github.com/octocat/Hello-World/issues/1347#issuecomment-1234567890"

    @Test func aLongURLIsNeverSplit() {
        let lines = TextLayout.wrap("see \(Self.url) for details", width: 30)
        #expect(lines == ["see", Self.url, "for details"])
        #expect(TextLayout.wrap("www.example.com/a/very/long/path/indeed", width: 10) == ["www.example.com/a/very/long/path/indeed"])
        // Other long words are still broken to fit.
        #expect(TextLayout.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    }

    @Test func aURLThatFitsWrapsLikeAnyWord() {
        #expect(TextLayout.wrap("read https://x.io/a now", width: 20) == ["read https://x.io/a", "now"])
    }

    @Test func aTodoWithALongURLKeepsItOnOneLine() {
        let renderer = ListRenderer(style: Style(color: false, unicode: true), width: 40)
        let lines = renderer.todoLines(Fixture.todo(id: 3, text: "fix \(Self.url) soon"), idWidth: 1)
        #expect(lines == ["  ○ 3  fix", "       " + Self.url, "       soon"])
    }

    @Test func theFirstLineMayBeShorter() {
        #expect(TextLayout.wrap("one two three four", width: 10, firstLineWidth: 4) == ["one", "two three", "four"])
        #expect(TextLayout.wrap("three four", width: 10, firstLineWidth: 4) == ["", "three four"])
        #expect(TextLayout.wrap("one", width: 10, firstLineWidth: 0) == ["", "one"])
    }

    /// Below about 20 columns there is no room to hang the text under itself: it still wraps at
    /// word boundaries, every line fits (words permitting), and nothing is lost.
    @Test(arguments: 8...21)
    func narrowTerminalsStillWrap(width: Int) {
        let renderer = ListRenderer(style: Style(color: false, unicode: true), width: width)
        let text = "write the release notes for the next version"
        let lines = renderer.todoLines(Fixture.todo(id: 3, text: text), idWidth: 1)
        #expect(lines.count > 1)
        #expect(lines[0].hasPrefix("  ○ 3"))
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "\(line.debugDescription) is wider than \(width)")
            #expect(!line.hasSuffix(" "), "\(line.debugDescription) ends in a space")
        }
        let words = lines.joined(separator: " ").split(separator: " ").dropFirst(2)
        #expect(words.joined(separator: " ") == text, "no word lost or split")
    }

    @Test func atFifteenColumns() {
        let renderer = ListRenderer(style: Style(color: false, unicode: true), width: 15)
        #expect(renderer.todoLines(Fixture.todo(id: 3, text: "write the release notes"), idWidth: 1)
            == ["  ○ 3  write", "    the release", "    notes"])
    }

    @Test func matchesArePiecesOfTheText() {
        func pieces(_ text: String, _ needle: String) -> [String] {
            TextMatch.pieces(of: text, matching: needle).map { $0.matches ? "[\($0.text)]" : $0.text }
        }
        #expect(pieces("Release the release", "RELEASE") == ["[Release]", " the ", "[release]"])
        #expect(pieces("ÉCOLE école", "école") == ["[ÉCOLE]", " ", "[école]"])
        #expect(pieces("aaa", "aa") == ["[aa]", "a"])
        #expect(pieces("漢字テスト", "テス") == ["漢字", "[テス]", "ト"])
        #expect(pieces("nothing", "x") == ["nothing"])
        #expect(pieces("x", "") == ["x"])
    }

    @Test func doneTodosStayDimAroundAHighlight() {
        var renderer = ListRenderer(style: Style(color: true, unicode: true), width: nil)
        renderer.highlight = "ci"
        #expect(renderer.todoLines(Fixture.todo(id: 1, text: "set up CI now", done: true), idWidth: 1)
            == ["\u{1B}[2m  ● 1  set up \u{1B}[0m\u{1B}[1;31mCI\u{1B}[0m\u{1B}[2m now\u{1B}[0m"])
    }

    /// A name with nothing after it is not padded: no line ends in spaces.
    @Test func repositoryLinesHaveNoTrailingSpaces() {
        let renderer = ListRenderer(style: Style(color: false, unicode: true), width: 80)
        let line = renderer.repositoryLine(lead: "  ", leadWidth: 2, fullName: "a/b", nameWidth: 20,
                                           columns: [("", "")], description: nil)
        #expect(line == "  a/b")
        let described = renderer.repositoryLine(lead: "  ", leadWidth: 2, fullName: "a/b", nameWidth: 6,
                                                columns: [("", "")], description: "d")
        #expect(described == "  a/b     d")
    }
}
