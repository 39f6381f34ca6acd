import DoogitSupport
import Testing
import TestSupport

/// The JSON text `JSONWriter` makes for one string, without the trailing newline.
private func written(_ text: String) -> String {
    String(JSONWriter.write(.string(text)).dropLast())
}

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("scalars and empty containers")
    func scalars() {
        #expect(JSONWriter.write(.null) == "null\n")
        #expect(JSONWriter.write(.bool(true)) == "true\n")
        #expect(JSONWriter.write(.bool(false)) == "false\n")
        #expect(JSONWriter.write(.number("-1.5e3")) == "-1.5e3\n")
        #expect(JSONWriter.write(.int(Int64.max)) == "9223372036854775807\n")
        #expect(JSONWriter.write(.string("hi")) == "\"hi\"\n")
        #expect(JSONWriter.write(.array([])) == "[]\n")
        #expect(JSONWriter.write(.object([])) == "{}\n")
    }

    @Test("two-space indentation and a final newline")
    func layout() {
        let value: JSONValue = .object([
            JSONMember("a", .number("1")),
            JSONMember("b", .array([.bool(true), .null, .array([]), .object([JSONMember("x", .string("y"))])])),
            JSONMember("c", .object([])),
        ])
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                null,
                [],
                {
                  "x": "y"
                }
              ],
              "c": {}
            }

            """
        #expect(JSONWriter.write(value) == expected)
    }

    @Test("members are written in the order given, not sorted")
    func keyOrder() throws {
        let keys = ["zeta", "alpha", "mike", "Bravo", "alpha2", "1", ""]
        let value = JSONValue.object(keys.enumerated().map { JSONMember($0.element, .int($0.offset)) })
        let text = JSONWriter.write(value)
        guard case .object(let members) = try JSONParser.parse(text) else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == keys)
        var lastIndex = text.startIndex
        for key in keys {
            let range = try #require(text[lastIndex...].firstRange(of: "\"\(key)\": "))
            lastIndex = range.upperBound
        }
    }

    @Test("duplicate members are all written, in order")
    func duplicateKeys() throws {
        let value = JSONValue.object([JSONMember("a", .int(1)), JSONMember("a", .int(2))])
        #expect(JSONWriter.write(value) == "{\n  \"a\": 1,\n  \"a\": 2\n}\n")
        #expect(try JSONParser.parse(JSONWriter.write(value)) == value)
    }

    @Test("quote, backslash and the common controls use short escapes")
    func shortEscapes() {
        #expect(written("\"") == #""\"""#)
        #expect(written("\\") == #""\\""#)
        #expect(written("\n") == #""\n""#)
        #expect(written("\r") == #""\r""#)
        #expect(written("\t") == #""\t""#)
        #expect(written("a\"b\\c\nd") == #""a\"b\\c\nd""#)
    }

    @Test("other C0 controls, DEL and C1 controls are written as \\u00XX", arguments:
        Array(0x00...0x1F).filter { ![0x09, 0x0A, 0x0D].contains($0) } + Array(0x7F...0x9F))
    func controlEscapes(value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        let hex = String(value, radix: 16)
        let expected = "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "\""
        #expect(written(String(Character(scalar))) == expected)
    }

    @Test("specific escapes", arguments: [
        ("\u{00}", #""\u0000""#), ("\u{08}", #""\u0008""#), ("\u{0C}", #""\u000c""#), ("\u{1B}", #""\u001b""#),
        ("\u{7F}", #""\u007f""#), ("\u{85}", #""\u0085""#), ("\u{9B}", #""\u009b""#),
        ("\u{202E}", #""\u202e""#), ("\u{202A}", #""\u202a""#), ("\u{2066}", #""\u2066""#), ("\u{2069}", #""\u2069""#),
        ("\u{200E}", #""\u200e""#), ("\u{200F}", #""\u200f""#), ("\u{061C}", #""\u061c""#),
        ("abc\u{202E}def", #""abc\u202edef""#), ("\u{1B}[31mred", #""\u001b[31mred""#),
    ])
    func specificEscapes(input: String, expected: String) {
        #expect(written(input) == expected)
    }

    @Test("ordinary text is written as it is", arguments: [
        "hello", "/", "héllo", "中文", "😀", "e\u{301}", "\u{2028}", "\u{A0}", "\u{200D}", "'single'", "<&>",
    ])
    func unescaped(text: String) {
        #expect(written(text) == "\"" + text + "\"")
    }

    @Test("no unsafe character ever reaches the output")
    func noUnsafeOutput() {
        var all = String.UnicodeScalarView()
        for value in UInt32(0)...0x3000 {
            if let scalar = Unicode.Scalar(value) { all.append(scalar) }
        }
        let text = written(String(all))
        #expect(!text.unicodeScalars.contains(where: TerminalText.isUnsafe))
    }

    @Test("a stream writes members and elements with the same layout as a tree")
    func streamMatchesTree() {
        var stream = JSONStream()
        stream.beginArray()
        stream.beginObject()
        stream.key("a"); stream.string("x\u{1}")
        stream.key("b"); stream.beginArray(); stream.int(1); stream.null(); stream.endArray()
        stream.key("c"); stream.beginObject(); stream.endObject()
        stream.endObject()
        stream.string(nil as String?)
        stream.endArray()
        let tree = JSONValue.array([
            .object([JSONMember("a", .string("x\u{1}")), JSONMember("b", .array([.int(1), .null])),
                     JSONMember("c", .object([]))]),
            .null,
        ])
        #expect(stream.text == JSONWriter.write(tree))
        #expect(stream.text.contains(#""x\u0001""#))
    }

    @Test("round trip of hand-picked documents", arguments: [
        JSONValue.null, .bool(true), .string(""), .string("\u{0}\u{1F}\u{7F}\u{80}\u{9F}\u{202E}\u{2066}\"\\/\n\r\t"),
        .string("😀 中文 e\u{301} \u{FFFD} \u{10FFFF}"), .number("9223372036854775807"), .number("-0.5e-10"),
        .array([]), .object([]), .array([.array([.array([])])]),
        .object([JSONMember("", .string("")), JSONMember("k\u{1B}", .array([.null, .bool(false), .number("0")]))]),
        .object([JSONMember("id", .int(1)), JSONMember("nested", .object([JSONMember("deep", .array([.string("x")]))]))]),
    ])
    func roundTrip(value: JSONValue) throws {
        #expect(try JSONParser.parse(JSONWriter.write(value)) == value)
    }

    @Test("round trip of every scalar up to U+3000 and of the supplementary planes")
    func roundTripAllScalars() throws {
        var all = String.UnicodeScalarView()
        for value in UInt32(0)...0x3000 {
            if let scalar = Unicode.Scalar(value) { all.append(scalar) }
        }
        for value in stride(from: UInt32(0x10000), through: 0x10FFFF, by: 0x1001) {
            if let scalar = Unicode.Scalar(value) { all.append(scalar) }
        }
        let value = JSONValue.string(String(all))
        #expect(try JSONParser.parse(JSONWriter.write(value)) == value)
    }

    @Test("round trip of random documents")
    func roundTripRandom() throws {
        var generator = SplitMix64(seed: 7)
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}",
                                      "\u{85}", "\u{9B}", "\u{202E}", "\u{2067}", "é", "中", "😀", "\u{301}", "\u{FEFF}"]
        func randomString() -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                scalars.append(pool.randomElement(using: &generator)!)
            }
            return String(scalars)
        }
        func randomValue(depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .int(Int64.random(in: Int64.min...Int64.max, using: &generator))
            case 3: return .string(randomString())
            case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1) })
            default:
                return .object((0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    JSONMember(randomString(), randomValue(depth: depth + 1))
                })
            }
        }
        for _ in 0..<300 {
            let value = randomValue(depth: 0)
            #expect(try JSONParser.parse(JSONWriter.write(value)) == value)
        }
    }

    @Test("any text reads back as it was, escaped where it must be, as it is elsewhere")
    func anyTextRoundTrips() throws {
        let pieces: [String] = ["plain words ", "\"", "\\", "\n", "\t", "\u{1B}", "\u{7F}", "\u{85}", "é", "中文", "😀",
                                "\u{202E}", "\u{2028}", "e\u{301}", "{\"type\":\"todo\"}", ""]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let json = written(text)
            #expect(try JSONParser.parse(json) == .string(text), "\(json)")
            #expect(!json.unicodeScalars.contains { TerminalText.isUnsafe($0) }, "\(json)")
            let expected = text.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n": return "\\n"
                case "\t": return "\\t"
                default: return TerminalText.isUnsafe(scalar) ? "\\u" + fourHexDigits(scalar.value) : String(scalar)
                }
            }.joined()
            #expect(json == "\"" + expected + "\"")
        }
    }
}

/// Four hex digits, as a \u escape has them.
private func fourHexDigits(_ value: UInt32) -> String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
