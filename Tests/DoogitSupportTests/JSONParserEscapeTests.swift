import DoogitSupport
import Testing

@Suite("JSONParser: escapes")
struct JSONParserEscapeTests {
    @Test("every simple escape", arguments: [
        (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"),
        (#"\n"#, "\n"), (#"\r"#, "\r"), (#"\t"#, "\t"),
    ])
    func simpleEscape(escape: String, expected: String) throws {
        #expect(try JSONParser.parse("\"" + escape + "\"") == .string(expected))
        #expect(try JSONParser.parse("\"a" + escape + "b\"") == .string("a" + expected + "b"))
    }

    @Test("all simple escapes in one string")
    func allEscapesTogether() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    }

    @Test("\\u escapes in the Basic Multilingual Plane, either case of hex digit", arguments: [
        (#"\u0041"#, "A"), (#"\u00e9"#, "é"), (#"\u00E9"#, "é"), (#"\u4e2D"#, "中"), (#"\u0000"#, "\u{0}"),
        (#"\u001f"#, "\u{1F}"), (#"\u202E"#, "\u{202E}"), (#"\uFFFF"#, "\u{FFFF}"), (#"\uaBcD"#, "\u{ABCD}"),
    ])
    func unicodeEscape(escape: String, expected: String) throws {
        #expect(try JSONParser.parse("\"" + escape + "\"") == .string(expected))
    }

    @Test("surrogate pairs combine into one scalar", arguments: [
        (#"\uD83D\uDE00"#, "😀"), (#"\ud834\udd1e"#, "𝄞"), (#"\uD800\uDC00"#, "\u{10000}"),
        (#"\uDBFF\uDFFF"#, "\u{10FFFF}"),
    ])
    func surrogatePair(escape: String, expected: String) throws {
        let value = try JSONParser.parse("\"<" + escape + ">\"")
        #expect(value == .string("<" + expected + ">"))
        if case .string(let text) = value {
            #expect(text.unicodeScalars.count == 3)
        }
    }

    @Test("lone surrogates become U+FFFD and the text around them is kept", arguments: [
        (#"\uD800"#, "\u{FFFD}"),                      // high surrogate at the end of the string
        (#"\uDC00"#, "\u{FFFD}"),                      // low surrogate alone
        (#"\uDFFFx"#, "\u{FFFD}x"),
        (#"\uD83Dx"#, "\u{FFFD}x"),                    // high surrogate followed by text
        (#"\uD83D\n"#, "\u{FFFD}\n"),                  // followed by another kind of escape
        (#"\uD83D\u0041"#, "\u{FFFD}A"),               // followed by a non-surrogate \u escape
        (#"\uD83D\uD83D"#, "\u{FFFD}\u{FFFD}"),        // two high surrogates
        (#"\uD83D\uD83D\uDE00"#, "\u{FFFD}😀"),        // high surrogate, then a real pair
        (#"\uDE00\uD83D"#, "\u{FFFD}\u{FFFD}"),        // pair in the wrong order
        (#"\uD83D\\"#, "\u{FFFD}\\"),                  // followed by an escaped backslash
    ])
    func loneSurrogate(escape: String, expected: String) throws {
        #expect(try JSONParser.parse("\"" + escape + "\"") == .string(expected))
        #expect(try JSONParser.parse("[\"a" + escape + "b\", 1]") == .array([.string("a" + expected + "b"), .number("1")]))
    }

    @Test("invalid escapes are syntax errors", arguments: [
        #""\x""#, #""\a""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\'""#, #""\0""#, #""\"#, #""\u"#,
        #""\uD83D\u12""#, #""\uD83D\uZZZZ""#,
    ])
    func invalidEscape(text: String) {
        #expect(syntaxError(text) != nil, "\(text) should be refused")
    }

    @Test("offset of an invalid escape")
    func invalidEscapeOffset() {
        let error = syntaxError(#""ab\q""#)
        #expect(error?.offset == 5)
        #expect(error?.reason == "invalid escape")
        #expect(syntaxError(#""\u00G0""#)?.offset == 5)
    }
}
