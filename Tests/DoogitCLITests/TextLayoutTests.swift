import DoogitSupport
import Testing
@testable import DoogitCLI

@Suite struct TextLayoutTests {
    @Test func shortTextIsOneLine() {
        #expect(TextLayout.wrap("a b c", width: 80) == ["a b c"])
        #expect(TextLayout.wrap("", width: 10) == [""])
    }

    @Test func wrapsAtWordBoundaries() {
        #expect(TextLayout.wrap("the quick brown fox jumps over the lazy dog", width: 10)
            == ["the quick", "brown fox", "jumps over", "the lazy", "dog"])
        #expect(TextLayout.wrap("the quick brown fox jumps over the lazy dog again and again", width: 23)
            == ["the quick brown fox", "jumps over the lazy dog", "again and again"])
    }

    @Test func runsOfSpacesCollapse() {
        #expect(TextLayout.wrap("  a   b  ", width: 10) == ["a b"])
    }

    @Test func aWordLongerThanALineIsBroken() {
        #expect(TextLayout.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextLayout.wrap("fix supercalifragilisticexpialidocious now", width: 13)
            == ["fix", "supercalifrag", "ilisticexpial", "idocious now"])
    }

    @Test func wideCharactersCountTwoColumns() {
        #expect(TextLayout.wrap("漢字漢字漢字", width: 5) == ["漢字", "漢字", "漢字"])
        #expect(TextLayout.wrap("漢字 漢字 漢字", width: 9) == ["漢字 漢字", "漢字"])
        #expect(TextLayout.wrap("漢", width: 1) == ["漢"])  // cannot be split further; no endless loop
    }

    @Test func widthBelowOneIsTreatedAsOne() {
        #expect(TextLayout.wrap("ab", width: 0) == ["a", "b"])
    }

    @Test(arguments: 8...40)
    func everyLineFitsAndNoWordIsLost(width: Int) {
        let text = "Rewrite the 漢字 renderer so that continuation lines indent under the text, 🎉 and check café"
        let lines = TextLayout.wrap(text, width: width)
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "\(line) is wider than \(width)")
            #expect(!line.hasPrefix(" ") && !line.hasSuffix(" "))
        }
        // Words are kept whole where they fit; a word wider than a line is split, never dropped.
        #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " })
        if width >= 12 { #expect(lines.joined(separator: " ").split(separator: " ") == text.split(separator: " ")) }
    }

    @Test func aTailFollowsAfterTwoSpacesWhereItFitsElseBelow() {
        #expect(TextLayout.wrap("ship it", tail: "due today +ci", width: 30).map { [$0.text, $0.tail] } == [["ship it", "due today +ci"]])
        // "ship it" + two spaces leaves 5 columns: "due" fits, "today" goes below.
        #expect(TextLayout.wrap("ship it", tail: "due today +ci", width: 14).map { [$0.text, $0.tail] }
            == [["ship it", "due"], ["", "today +ci"]])
        // No room for the tail's first word: it starts on the next line.
        #expect(TextLayout.wrap("ship it now", tail: "due today", width: 12).map { [$0.text, $0.tail] }
            == [["ship it now", ""], ["", "due today"]])
        #expect(TextLayout.wrap("the quick brown fox", tail: "+ci", width: 10).map { [$0.text, $0.tail] }
            == [["the quick", ""], ["brown fox", ""], ["", "+ci"]])
        #expect(TextLayout.wrap("ship", tail: "", width: 10).map { [$0.text, $0.tail] } == [["ship", ""]])
    }

    @Test(arguments: 1...40)
    func aTailNeverOverflowsAndLosesNoWord(width: Int) {
        let parts = TextLayout.wrap("fix the 漢字 wrapping", tail: "3 days overdue +ci +release ✎", width: width, firstLineWidth: width / 2)
        for (index, part) in parts.enumerated() {
            let used = DisplayWidth.of(part.text) + (part.text.isEmpty || part.tail.isEmpty ? 0 : 2) + DisplayWidth.of(part.tail)
            let limit = index == 0 ? max(1, width / 2) : max(1, width)
            // Only a single word wider than its line may pass it (it is broken, or kept whole on a line of its own).
            #expect(used <= limit || !part.tail.contains(" "), "\(width): \(part)")
        }
        // Words are kept whole where they fit; a word wider than a line is split, never dropped.
        #expect(parts.map(\.tail).joined().filter { $0 != " " } == "3daysoverdue+ci+release✎")
        #expect(parts.map(\.text).joined().filter { $0 != " " } == "fixthe漢字wrapping")
    }

    @Test func truncate() {
        #expect(TextLayout.truncate("hello world", width: 11, ellipsis: "…") == "hello world")
        #expect(TextLayout.truncate("hello world", width: 8, ellipsis: "…") == "hello w…")
        #expect(TextLayout.truncate("hello world", width: 7, ellipsis: "…") == "hello…")  // no space before …
        #expect(TextLayout.truncate("hello world", width: 8, ellipsis: "...") == "hello...")
        #expect(TextLayout.truncate("hello world", width: 1, ellipsis: "…") == "")
        #expect(TextLayout.truncate("hello world", width: 0, ellipsis: "…") == "")
        #expect(TextLayout.truncate("hello world", width: -5, ellipsis: "…") == "")
        #expect(TextLayout.truncate("漢字漢字", width: 6, ellipsis: "…") == "漢字…")
        #expect(DisplayWidth.of(TextLayout.truncate("漢字漢字", width: 6, ellipsis: "…")) <= 6)
    }

    @Test func padding() {
        #expect(TextLayout.padRight("漢", to: 4) == "漢  ")
        #expect(TextLayout.padRight("long", to: 2) == "long")
    }
}
