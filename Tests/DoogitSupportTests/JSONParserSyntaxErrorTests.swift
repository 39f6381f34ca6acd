import DoogitSupport
import Testing

@Suite("JSONParser: syntax errors")
struct JSONParserSyntaxErrorTests {
    @Test("offset and reason of each kind of error", arguments: [
        ("", 0, "unexpected end of document"),
        ("   ", 3, "unexpected end of document"),
        ("[1,]", 3, "unexpected character"),
        ("[1 2]", 3, "expected ',' or ']'"),
        ("[1", 2, "expected ',' or ']'"),
        ("[", 1, "unexpected end of document"),
        ("{", 1, "expected a member name"),
        ("{\"a\" 1}", 5, "expected ':'"),
        ("{\"a\":1,}", 7, "expected a member name"),
        ("{\"a\":1 \"b\":2}", 7, "expected ',' or '}'"),
        ("{a:1}", 1, "expected a member name"),
        ("{1:1}", 1, "expected a member name"),
        ("{\"a\":}", 5, "unexpected character"),
        ("tru", 3, "invalid literal"),
        ("nul", 3, "invalid literal"),
        ("fals", 4, "invalid literal"),
        ("trUe", 2, "invalid literal"),
        ("True", 0, "unexpected character"),
        ("\"abc", 4, "unterminated string"),
        ("[\"a\tb\"]", 3, "control character in string"),
        ("\"a\nb\"", 2, "control character in string"),
        ("'a'", 0, "unexpected character"),
        ("]", 0, "unexpected character"),
    ])
    func syntaxErrors(text: String, offset: Int, reason: String) {
        let error = syntaxError(text)
        #expect(error?.offset == offset, "offset for \(text.debugDescription)")
        #expect(error?.reason == reason, "reason for \(text.debugDescription)")
    }

    @Test("a raw NUL and every other C0 control inside a string is refused", arguments: 0..<0x20)
    func controlCharacters(byte: Int) {
        let error = syntaxError([0x22, 0x61, UInt8(byte), 0x22])
        #expect(error?.offset == 2)
        #expect(error?.reason == "control character in string")
    }

    @Test("trailing garbage after a complete document", arguments: [
        ("{} {}", 3), ("[] x", 3), ("1 2", 2), ("null,", 4), ("\"a\"\"b\"", 3), ("truex", 4), ("{}}", 2),
        ("[]]", 2), ("0 0", 2), ("1\u{0}", 1),
    ])
    func trailingGarbage(text: String, offset: Int) {
        let error = syntaxError(text)
        #expect(error?.offset == offset, "offset for \(text.debugDescription)")
        #expect(error?.reason == "unexpected text after the document")
    }

    @Test("trailing whitespace is fine")
    func trailingWhitespace() throws {
        #expect(try JSONParser.parse("{}\n") == .object([]))
        #expect(try JSONParser.parse("  1 \r\n\t ") == .number("1"))
    }

    @Test("the offset counts bytes, not characters")
    func offsetCountsBytes() {
        // "é" is two bytes and "😀" four, so the stray 'x' is at byte 10.
        #expect(syntaxError("[\"é😀\" x]")?.offset == 10)
    }
}
