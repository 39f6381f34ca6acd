import DoogitSupport
import Testing
import TestSupport

@Suite("TerminalText")
struct TerminalTextTests {
    @Test("plain text is returned unchanged", arguments: [
        "", "hello world", "Fix the README", "héllo wörld", "中文テキスト", "😀👍🏽", "e\u{301}", "a  b", " leading",
        "trailing ", "100% [done] {ok} ~/path", "\u{A0}nbsp", "\u{200D}zwj", "\u{2028}",
    ])
    func plainUnchanged(text: String) {
        #expect(TerminalText.sanitize(text) == text)
        #expect(TerminalText.sanitize(text).unicodeScalars.elementsEqual(text.unicodeScalars))
    }

    @Test("CSI colour and cursor sequences are removed", arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("a\u{1B}[1;38;5;196mb\u{1B}[m c", "ab c"),
        ("\u{1B}[38;2;255;0;0mtrue colour\u{1B}[39m", "true colour"),
        ("\u{1B}[2J\u{1B}[Hcleared", "cleared"),
        ("up\u{1B}[3Adown", "updown"),
        ("\u{1B}[?25lhidden cursor\u{1B}[?25h", "hidden cursor"),
        ("x\u{1B}[", "x"),          // unterminated at the end
        ("x\u{1B}[12;3", "x"),      // unterminated parameters
        ("x\u{1B}", "x"),           // lone ESC at the end
    ])
    func csi(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test("OSC sequences ending in BEL or in ESC \\ are removed", arguments: [
        ("\u{1B}]0;evil title\u{07}text", "text"),
        ("\u{1B}]0;evil title\u{1B}\\text", "text"),
        ("before\u{1B}]2;title\u{07}after", "beforeafter"),
        ("\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("\u{1B}]52;c;aGVsbG8=\u{07}clipboard", "clipboard"),
        ("\u{1B}]0;title\u{9C}text", "text"),          // C1 string terminator
        ("\u{9D}0;title\u{07}text", "text"),           // C1 OSC
        ("\u{9D}0;title\u{1B}\\text", "text"),
        ("x\u{1B}]0;never terminated", "x"),
    ])
    func osc(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test("DCS, PM, APC and SOS strings are removed", arguments: [
        ("a\u{1B}Pq#0;2;0;0;0\u{1B}\\b", "ab"),
        ("a\u{1B}^private\u{1B}\\b", "ab"),
        ("a\u{1B}_app\u{07}b", "ab"),
        ("a\u{1B}Xsos\u{9C}b", "ab"),
    ])
    func otherStrings(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test("C1 CSI (0x9B) sequences are removed", arguments: [
        ("\u{9B}31mred\u{9B}0m", "red"),
        ("a\u{9B}2Jb", "ab"),
        ("a\u{9B}", "a"),
    ])
    func c1CSI(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test("two-character escapes drop both characters")
    func twoCharacterEscapes() {
        #expect(TerminalText.sanitize("a\u{1B}cb") == "ab")       // RIS: reset terminal
        #expect(TerminalText.sanitize("a\u{1B}7b\u{1B}8c") == "abc")
    }

    @Test("bidirectional overrides, embeddings, isolates and marks are removed", arguments: [
        0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C,
    ])
    func bidi(value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        let text = "abc" + String(Character(scalar)) + "def"
        #expect(TerminalText.sanitize(text) == "abcdef")
        #expect(TerminalText.isUnsafe(scalar))
    }

    @Test("a reversed file name cannot hide its real extension")
    func trojanSource() {
        #expect(TerminalText.sanitize("invoice\u{202E}fdp.exe") == "invoicefdp.exe")
    }

    @Test("tabs and line breaks become single spaces", arguments: [
        ("a\tb", "a b"), ("a\nb", "a b"), ("a\rb", "a b"), ("a\r\nb", "a b"), ("a\n\n\nb", "a b"),
        ("a\t\tb", "a b"), ("a\t\n\r\nb", "a b"), ("a \nb", "a b"), ("line1\nline2\nline3", "line1 line2 line3"), ("end\n", "end "),
    ])
    func whitespace(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test("a removal between spaces leaves the run before it; spaces of the text stay", arguments: [
        ("word \u{1B}[31m word", "word word"),
        ("fix \u{1B}]0;title\u{07} the build", "fix the build"),
        ("a \u{202E} b", "a b"),
        ("a \u{07}\u{1B}[1m\u{9B}2J b", "a b"),          // several removals in a row
        ("a \u{1B}[1m \u{1B}[2m b", "a b"),              // spaces between removals too
        ("a  \u{1B}[1m  b", "a  b"),                      // the run before stays whole
        ("a \u{1B}[1m   b", "a b"),
        ("a\u{1B}[1m  b", "a  b"),                        // no space before: the text's spaces stay
        ("a  \u{1B}[1mb", "a  b"),
        ("a\u{1B}[1m b\u{1B}[0m  c", "a b  c"),
        ("a \u{1B}[1m\t b", "a b"),
        ("\u{1B}[1m  a", "  a"),                          // at the start nothing comes before
    ])
    func removalBetweenSpaces(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    /// Texts of words, runs of spaces and things to remove, and what cleaning them must give:
    /// the pieces between removals joined, spaces at the start of a piece dropped where what
    /// came before ends in a space. So no run of spaces is longer than one of the text's own,
    /// and a text whose removals never sit between spaces keeps every space it had.
    @Test("removals never widen a gap, and the text's own spacing holds")
    func removalsNeverWidenAGap() {
        var generator = SplitMix64(seed: 37)
        let words = ["a", "bc", "中文", "é", "x1"]
        let removals = ["\u{1B}[31m", "\u{1B}]0;title\u{07}", "\u{07}", "\u{202E}", "\u{9B}2J", "\u{1B}c", "\u{7F}", "\u{85}"]
        for _ in 0..<3000 {
            // Pieces of text between removals; a piece is words and runs of 1 to 3 spaces.
            var pieces: [String] = []
            var text = ""
            for index in 0..<Int.random(in: 1...6, using: &generator) {
                if index > 0 { text += removals.randomElement(using: &generator)! }
                var piece = ""
                for _ in 0..<Int.random(in: 0...4, using: &generator) {
                    piece += Bool.random(using: &generator) ? words.randomElement(using: &generator)!
                        : String(repeating: " ", count: Int.random(in: 1...3, using: &generator))
                }
                pieces.append(piece)
                text += piece
            }
            var expected = ""
            for piece in pieces {
                expected += expected.hasSuffix(" ") ? String(piece.drop { $0 == " " }) : piece
            }
            let output = TerminalText.sanitize(text)
            #expect(output == expected, "\(text.debugDescription)")
            let longestRun = { (text: String) in text.split(whereSeparator: { $0 != " " }).map(\.count).max() ?? 0 }
            #expect(longestRun(output) <= pieces.map(longestRun).max() ?? 0, "\(text.debugDescription)")
            // Whether some removal (or several in a row) has a space on both sides.
            var joined = ""
            var betweenSpaces = false
            for piece in pieces {
                if joined.hasSuffix(" ") && piece.hasPrefix(" ") { betweenSpaces = true }
                joined += piece
            }
            if !betweenSpaces { #expect(output == joined, "\(text.debugDescription)") }
            #expect(TerminalText.sanitize(output) == output)
        }
    }

    @Test("other C0 controls, DEL and C1 controls are removed", arguments:
        Array(0x00...0x1F).filter { ![0x09, 0x0A, 0x0D, 0x1B].contains($0) } + Array(0x7F...0x9F).filter { ![0x9B, 0x9D].contains($0) })
    func controls(value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        #expect(TerminalText.sanitize("a" + String(Character(scalar)) + "b") == "ab")
        #expect(TerminalText.isUnsafe(scalar))
    }

    @Test("the output never holds an unsafe character")
    func neverUnsafe() {
        var generator = SplitMix64(seed: 99)
        let pool: [Unicode.Scalar] = ["a", "[", "]", ";", "0", "m", "\\", "\u{1B}", "\u{07}", "\u{9B}", "\u{9C}",
                                      "\u{9D}", "\u{202E}", "\t", "\n", "\r", "中", "\u{7F}", "\u{85}", "P"]
        for _ in 0..<2000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...30, using: &generator) {
                scalars.append(pool.randomElement(using: &generator)!)
            }
            let output = TerminalText.sanitize(String(scalars))
            #expect(!output.unicodeScalars.contains(where: TerminalText.isUnsafe))
            #expect(!output.contains("  "))
        }
    }

    @Test("safe characters are not reported unsafe", arguments: [
        0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x200B, 0x200D, 0x2028, 0x2029, 0x2065, 0x206A, 0x4E2D, 0x1F600, 0xFEFF,
    ])
    func safe(value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        #expect(!TerminalText.isUnsafe(scalar))
    }

    @Test("a text's lines end at LF, CRLF, CR or another line break, each cleaned")
    func lines() {
        #expect(TerminalText.lines("one\r\ntwo\rthree\nfour\u{2028}five") == ["one", "two", "three", "four", "five"])
        #expect(TerminalText.lines("a\n\nb\r\n") == ["a", "", "b", ""])
        #expect(TerminalText.lines("\u{1B}]0;title\u{07}x\ty\n\u{1B}[31mred") == ["x y", "red"])
        #expect(TerminalText.lines("") == [""])
    }

    @Test("printable ASCII is told eight bytes at a time exactly as byte by byte")
    func printableASCIIWordAtATime() {
        var random = SplitMix64(seed: 0x7E)
        // Mostly printable bytes, with the edges of the range (0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF)
        // and zero placed anywhere, at every length around a word's.
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0x9B, 0xFF]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            for _ in 0..<Int.random(in: 0...2, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<count, using: &random)] = edges[Int.random(in: 0..<edges.count, using: &random)]
            }
            let expected = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            #expect(bytes.withUnsafeBufferPointer(TerminalText.isPrintableASCII) == expected, "\(bytes)")
        }
    }
}
