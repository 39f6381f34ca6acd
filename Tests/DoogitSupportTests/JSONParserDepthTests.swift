import DoogitSupport
import Testing

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
