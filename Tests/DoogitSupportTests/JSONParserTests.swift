import DoogitSupport
import Testing
import TestSupport

/// The offset of the syntax error `JSONParser` reports for `bytes`, or nil when it reports
/// something else (or nothing).
private func syntaxError(_ bytes: [UInt8]) -> (offset: Int, reason: String)? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        guard case .syntax(let offset, let reason) = error else { return nil }
        return (offset, reason)
    }
}

private func syntaxError(_ text: String) -> (offset: Int, reason: String)? {
    syntaxError(Array(text.utf8))
}


@Suite("JSONParser: valid documents")
struct JSONParserValidTests {
    @Test("literals")
    func literals() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse("false") == .bool(false))
    }

    @Test("scalars at the top level")
    func topLevelScalars() throws {
        #expect(try JSONParser.parse("\"hello\"") == .string("hello"))
        #expect(try JSONParser.parse("42") == .number("42"))
        #expect(try JSONParser.parse("\"\"") == .string(""))
    }

    @Test("empty containers")
    func emptyContainers() throws {
        #expect(try JSONParser.parse("[]") == .array([]))
        #expect(try JSONParser.parse("{}") == .object([]))
        #expect(try JSONParser.parse("[ ]") == .array([]))
        #expect(try JSONParser.parse("{ \n\t}") == .object([]))
    }

    @Test("nested document with members kept in order")
    func nestedDocument() throws {
        let text = """
            {"id": 1296269, "name": "Hello-World", "owner": {"login": "octocat", "site_admin": false},
             "topics": ["a", "b"], "description": null, "private": true, "z": 0, "a": -1.5e3}
            """
        let value = try JSONParser.parse(text)
        let expected: JSONValue = .object([
            JSONMember("id", .number("1296269")),
            JSONMember("name", .string("Hello-World")),
            JSONMember("owner", .object([JSONMember("login", .string("octocat")), JSONMember("site_admin", .bool(false))])),
            JSONMember("topics", .array([.string("a"), .string("b")])),
            JSONMember("description", .null),
            JSONMember("private", .bool(true)),
            JSONMember("z", .number("0")),
            JSONMember("a", .number("-1.5e3")),
        ])
        #expect(value == expected)
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["id", "name", "owner", "topics", "description", "private", "z", "a"])
    }

    @Test("all four whitespace characters are allowed around tokens")
    func whitespace() throws {
        let value = try JSONParser.parse(" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n{ \"k\" \t\r\n: \t\r\n2 } \t\r\n] \t\r\n")
        #expect(value == .array([.number("1"), .object([JSONMember("k", .number("2"))])]))
    }

    @Test("duplicate keys are kept in order and the subscript returns the last")
    func duplicateKeys() throws {
        let value = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value == .object([JSONMember("a", .number("1")), JSONMember("b", .number("2")), JSONMember("a", .number("3"))]))
        #expect(value["a"] == .number("3"))
        #expect(value["b"] == .number("2"))
        #expect(value["c"] == nil)
    }

    @Test("subscript on a value that is not an object is nil")
    func subscriptOnNonObject() throws {
        #expect(try JSONParser.parse("[1]")["a"] == nil)
        #expect(try JSONParser.parse("\"a\"")["a"] == nil)
        #expect(JSONValue.null["a"] == nil)
    }

    @Test("parsing bytes and parsing text agree")
    func bytesAndText() throws {
        let text = #"{"name": "héllo wörld ✓ 中文 😀"}"#
        #expect(try JSONParser.parse(Array(text.utf8)) == JSONParser.parse(text))
        #expect(try JSONParser.parse(text)["name"] == .string("héllo wörld ✓ 中文 😀"))
    }

    @Test("raw non-ASCII UTF-8 and DEL pass through strings unchanged")
    func rawUnicode() throws {
        #expect(try JSONParser.parse("\"\u{7F}\"") == .string("\u{7F}"))
        #expect(try JSONParser.parse("\"\u{202E}x\u{9B}\"") == .string("\u{202E}x\u{9B}"))
        #expect(try JSONParser.parse("\"𝄞\"") == .string("𝄞"))
    }
}

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

@Suite("JSONParser: invalid UTF-8")
struct JSONParserInvalidUTF8Tests {
    @Test("invalid bytes inside a string become U+FFFD", arguments: [
        [UInt8]([0xFF]), [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80], [0xF5, 0x80, 0x80, 0x80], [0xFE, 0xFE],
    ])
    func invalidBytesInString(bad: [UInt8]) throws {
        let bytes: [UInt8] = [0x22, 0x61] + bad + [0x62, 0x22]
        let value = try JSONParser.parse(bytes)
        guard case .string(let text) = value else {
            Issue.record("expected a string, got \(value)")
            return
        }
        #expect(text.hasPrefix("a"))
        #expect(text.hasSuffix("b"))
        #expect(text.unicodeScalars.contains("\u{FFFD}"))
        #expect(text.unicodeScalars.allSatisfy { $0 == "a" || $0 == "b" || $0 == "\u{FFFD}" })
    }

    @Test("a truncated multi-byte sequence before the closing quote becomes U+FFFD")
    func truncatedSequence() throws {
        #expect(try JSONParser.parse([0x22, 0xE2, 0x82, 0x22]) == .string("\u{FFFD}"))
        #expect(try JSONParser.parse([0x22, 0xF0, 0x9F, 0x98, 0x22]) == .string("\u{FFFD}"))
    }

    @Test("invalid bytes next to escapes")
    func invalidNextToEscape() throws {
        let bytes: [UInt8] = [0x22, 0xFF] + Array(#"\n"#.utf8) + [0xFF, 0x22]
        #expect(try JSONParser.parse(bytes) == .string("\u{FFFD}\n\u{FFFD}"))
    }

    @Test("invalid bytes outside strings are syntax errors, not traps")
    func invalidOutsideString() {
        #expect(syntaxError([0xFF])?.offset == 0)
        #expect(syntaxError([0x5B, 0xFF, 0x5D])?.offset == 1)
        #expect(syntaxError([0xEF, 0xBB, 0xBF, 0x31])?.offset == 0)  // a byte order mark is not JSON
    }

    @Test("random bytes never trap")
    func randomBytes() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array(#"{}[]":,\u0123456789abcdefABCDEF-+.eEtrunlfs "#.utf8) + [0xFF, 0xC3, 0xA9, 0xED, 0xA0, 0x00, 0x1F]
        var parsed = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator)!
                    : UInt8.random(in: 0...255, using: &generator)
            }
            if (try? JSONParser.parse(bytes)) != nil { parsed += 1 }
        }
        // Reaching here means nothing trapped; some short inputs (digits) parse.
        #expect(parsed < 3000)
    }

    @Test("mutations of a valid document never trap and valid ones parse")
    func mutatedDocuments() throws {
        let base = Array(#"{"a": [1, -2.5e+3, "x\u00e9\uD83D\uDE00", true, null], "b": {"c": false}}"#.utf8)
        _ = try JSONParser.parse(base)
        var generator = SplitMix64(seed: 42)
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                switch error {
                case .syntax(let offset, let reason):
                    #expect(offset >= 0 && offset <= bytes.count)
                    #expect(!reason.isEmpty)
                default:
                    Issue.record("unexpected error \(error)")
                }
            }
        }
    }
}

@Suite("JSONParser: numbers")
struct JSONParserNumberTests {
    @Test("numbers keep their literal text", arguments: [
        "0", "-0", "1", "-1", "123456789", "0.5", "-0.0", "1.25", "1e10", "1E10", "1e+10", "1e-10", "-1.5E-7",
        "0e0", "3.141592653589793238462643383279", "1.0", "100",
    ])
    func literalText(text: String) throws {
        #expect(try JSONParser.parse(text) == .number(text))
        #expect(try JSONParser.parse("[" + text + "]") == .array([.number(text)]))
        #expect(try JSONParser.parse("{\"n\":" + text + "}")["n"] == .number(text))
    }

    @Test("64-bit ids survive exactly, beyond Double precision")
    func bigIDs() throws {
        let value = try JSONParser.parse(#"{"id": 9223372036854775807, "min": -9223372036854775808, "odd": 9007199254740993}"#)
        #expect(value["id"] == .number("9223372036854775807"))
        #expect(try value.int64("id") == Int64.max)
        #expect(try value.int64("min") == Int64.min)
        #expect(try value.int64("odd") == 9_007_199_254_740_993)  // 2^53 + 1, not representable as Double
    }

    @Test("numbers too large for Int64 are still kept as text")
    func hugeNumbers() throws {
        let text = "123456789012345678901234567890"
        #expect(try JSONParser.parse(text) == .number(text))
        #expect(try JSONParser.parse("1e400") == .number("1e400"))
    }

    @Test("malformed numbers are refused", arguments: [
        "-", "+1", ".5", "1.", "1.e5", "1e", "1e+", "1E-", "01", "-01", "00", "0x10", "1.2.3", "--1", "- 1",
        "Infinity", "-Infinity", "NaN", "1e5.5", "[1.]", "[-]", "{\"a\":01}",
    ])
    func malformed(text: String) {
        #expect(syntaxError(text) != nil, "\(text) should be refused")
    }

    @Test("offsets of number errors")
    func numberErrorOffsets() {
        #expect(syntaxError("-")?.offset == 1)
        #expect(syntaxError("1.")?.offset == 2)
        #expect(syntaxError("1e+")?.offset == 3)
        #expect(syntaxError("01")?.offset == 1)  // "0" is a whole number; the "1" is left over
        #expect(syntaxError("[1.x]")?.offset == 3)
    }
}

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

@Suite("JSONParser: depth limit")
struct JSONParserDepthTests {
    private func nested(_ depth: Int, open: String = "[", close: String = "]") -> String {
        String(repeating: open, count: depth) + String(repeating: close, count: depth)
    }

    @Test("nesting up to the maximum depth parses")
    func atLimit() throws {
        var value = try JSONParser.parse(nested(JSONParser.maximumDepth))
        var depth = 0
        while case .array(let inner) = value {
            depth += 1
            guard let first = inner.first else { break }
            value = first
        }
        #expect(depth == JSONParser.maximumDepth)
    }

    @Test("one level deeper than the maximum is too deep")
    func overLimit() {
        #expect(throws: JSONError.tooDeep) { try JSONParser.parse(nested(JSONParser.maximumDepth + 1)) }
    }

    @Test("objects count towards the depth too")
    func objectsCount() throws {
        let depth = JSONParser.maximumDepth
        let ok = String(repeating: "{\"a\":", count: depth - 1) + "1" + String(repeating: "}", count: depth - 1)
        _ = try JSONParser.parse(ok)
        let mixed = String(repeating: "[{\"a\":", count: depth) + "1" + String(repeating: "}]", count: depth)
        #expect(throws: JSONError.tooDeep) { try JSONParser.parse(mixed) }
    }

    @Test("hostile nesting gives .tooDeep without exhausting the stack", arguments: [100_000, 1_000_000])
    func hostile(depth: Int) {
        #expect(throws: JSONError.tooDeep) { try JSONParser.parse(String(repeating: "[", count: depth)) }
        #expect(throws: JSONError.tooDeep) { try JSONParser.parse(String(repeating: "{\"a\":", count: depth)) }
        #expect(throws: JSONError.tooDeep) { try JSONParser.parse(nested(depth)) }
    }
}
