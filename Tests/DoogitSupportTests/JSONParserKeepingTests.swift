import DoogitSupport
import Testing

/// `JSONParser.parse(_:keeping:)`: members of other names are skipped at any depth, and a
/// skipped value is held to the same syntax as a parsed one.
@Suite("JSONParser: keeping some members")
struct JSONParserKeepingTests {
    static let document = #"""
        {"id": 7, "node_id": "R_1", "owner": {"login": "octocat", "url": "https://x/\u0041", "site_admin": false},
         "name": "a\"b", "topics": ["x", {"deep": [1, -2.5e3, null, true]}], "license": null, "private": true}
        """#

    @Test func onlyTheNamedMembersAreBuilt() throws {
        let kept = try JSONParser.parse(Array(Self.document.utf8), keeping: ["id", "owner", "login", "name", "private"])
        #expect(kept == .object([
            JSONMember("id", .int(7)),
            JSONMember("owner", .object([JSONMember("login", .string("octocat"))])),
            JSONMember("name", .string("a\"b")),
            JSONMember("private", .bool(true)),
        ]))
        #expect(try JSONParser.parse(Array(Self.document.utf8), keeping: ["topics", "deep"])
            == JSONParser.parse(#"{"topics": ["x", {"deep": [1, -2.5e3, null, true]}]}"#))
    }

    /// Every one-byte deletion and a few insertions of the document: skipping all of it accepts
    /// exactly what parsing all of it accepts.
    @Test func skippedValuesAreCheckedAsParsedOnesAre() {
        let bytes = Array(Self.document.utf8)
        var variants: [[UInt8]] = bytes.indices.map { index in var copy = bytes; copy.remove(at: index); return copy }
        for insert in [#"\q"#, "\u{01}", "\"", ",", "]", "}", #"\u12"#, #"\uD800"#, "tru", "01"] {
            for index in stride(from: 1, to: bytes.count, by: 7) {
                var copy = bytes
                copy.insert(contentsOf: Array(insert.utf8), at: index)
                variants.append(copy)
            }
        }
        var disagreements: [String] = []
        for variant in variants {
            let parsed = (try? JSONParser.parse(variant)) != nil
            let skipped = (try? JSONParser.parse(Array(#"{"k": "#.utf8) + variant + Array("}".utf8), keeping: [])) != nil
            if parsed != skipped { disagreements.append(String(decoding: variant, as: UTF8.self)) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
        #expect(variants.count > 500)
    }

    @Test func aSkippedValueIsStillBoundedInDepth() {
        let deep = #"{"k": "# + String(repeating: "[", count: JSONParser.maximumDepth + 1) + "}"
        #expect(throws: JSONError.tooDeep) { try JSONParser.parse(Array(deep.utf8), keeping: []) }
    }
}
