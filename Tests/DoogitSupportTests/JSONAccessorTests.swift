import DoogitSupport
import Testing

@Suite("JSONValue typed accessors")
struct JSONAccessorTests {
    let document: JSONValue

    init() throws {
        document = try JSONParser.parse("""
            {"name": "Hello-World", "description": null, "id": 1296269, "big": 9223372036854775807,
             "private": false, "archived": true, "topics": ["a", 1], "owner": {"login": "octocat"},
             "float": 1.5, "exp": 1e3, "negative": -42, "text_number": "12", "overflow": 9223372036854775808,
             "empty": ""}
            """)
    }

    @Test("string reads a string member")
    func string() throws {
        #expect(try document.string("name") == "Hello-World")
        #expect(try document.string("empty") == "")
    }

    @Test("string of an absent member is .missing")
    func stringMissing() {
        #expect(throws: JSONError.missing(field: "nope")) { try document.string("nope") }
    }

    @Test("string of null or another type is .wrongType", arguments: ["description", "id", "private", "topics", "owner"])
    func stringWrongType(key: String) {
        #expect(throws: JSONError.wrongType(field: key, expected: "string")) { try document.string(key) }
    }

    @Test("optionalString: a string, null and absent")
    func optionalString() throws {
        #expect(try document.optionalString("name") == "Hello-World")
        #expect(try document.optionalString("description") == nil)
        #expect(try document.optionalString("absent") == nil)
        #expect(try document.optionalString("empty") == "")
    }

    @Test("optionalString of another type is .wrongType", arguments: ["id", "private", "topics", "owner"])
    func optionalStringWrongType(key: String) {
        #expect(throws: JSONError.wrongType(field: key, expected: "string or null")) { try document.optionalString(key) }
    }

    @Test("int64 reads whole numbers, including the extremes")
    func int64() throws {
        #expect(try document.int64("id") == 1_296_269)
        #expect(try document.int64("big") == Int64.max)
        #expect(try document.int64("negative") == -42)
    }

    @Test("int64 of a non-integer or another type is .wrongType",
          arguments: ["name", "description", "private", "topics", "owner", "float", "exp", "text_number", "overflow"])
    func int64WrongType(key: String) {
        #expect(throws: JSONError.wrongType(field: key, expected: "integer")) { try document.int64(key) }
    }

    @Test("int64 of an absent member is .missing")
    func int64Missing() {
        #expect(throws: JSONError.missing(field: "absent")) { try document.int64("absent") }
    }

    @Test("bool and optionalBool")
    func bools() throws {
        #expect(try document.bool("private") == false)
        #expect(try document.bool("archived") == true)
        #expect(try document.optionalBool("archived") == true)
        #expect(try document.optionalBool("description") == nil)
        #expect(try document.optionalBool("absent") == nil)
        #expect(throws: JSONError.wrongType(field: "name", expected: "boolean")) { try document.bool("name") }
        #expect(throws: JSONError.wrongType(field: "description", expected: "boolean")) { try document.bool("description") }
        #expect(throws: JSONError.missing(field: "absent")) { try document.bool("absent") }
        #expect(throws: JSONError.wrongType(field: "id", expected: "boolean or null")) { try document.optionalBool("id") }
    }

    @Test("array and nested field")
    func arrayAndField() throws {
        #expect(try document.array("topics") == [.string("a"), .number("1")])
        #expect(throws: JSONError.wrongType(field: "owner", expected: "array")) { try document.array("owner") }
        #expect(throws: JSONError.missing(field: "absent")) { try document.array("absent") }
        #expect(try document.field("owner").string("login") == "octocat")
        #expect(try document.field("description") == .null)
        #expect(throws: JSONError.missing(field: "absent")) { try document.field("absent") }
    }

    @Test("typed access on a value that is not an object is .wrongType(expected: object)",
          arguments: [JSONValue.array([]), .string("x"), .number("1"), .null, .bool(true)])
    func notAnObject(value: JSONValue) {
        #expect(throws: JSONError.wrongType(field: "k", expected: "object")) { try value.field("k") }
        #expect(throws: JSONError.wrongType(field: "k", expected: "object")) { try value.string("k") }
        #expect(throws: JSONError.wrongType(field: "k", expected: "object")) { try value.int64("k") }
        #expect(throws: JSONError.wrongType(field: "k", expected: "object")) { try value.bool("k") }
        #expect(throws: JSONError.wrongType(field: "k", expected: "object")) { try value.array("k") }
    }

    @Test("the last of duplicate members wins")
    func duplicates() throws {
        let value = try JSONParser.parse(#"{"id": "text", "id": 7}"#)
        #expect(try value.int64("id") == 7)
    }

    @Test("convenience constructors")
    func constructors() {
        #expect(JSONValue.int(Int64(-5)) == .number("-5"))
        #expect(JSONValue.int(Int64.max) == .number("9223372036854775807"))
        #expect(JSONValue.int(12) == .number("12"))
        #expect(JSONValue.optional("a") == .string("a"))
        #expect(JSONValue.optional(nil) == .null)
    }
}
