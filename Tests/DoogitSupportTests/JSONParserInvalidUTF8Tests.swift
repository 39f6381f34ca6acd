import DoogitSupport
import Testing
import TestSupport

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
