import DoogitSupport
import Testing

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
