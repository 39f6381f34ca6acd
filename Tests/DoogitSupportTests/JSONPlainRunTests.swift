@testable import DoogitSupport
import Testing
import TestSupport

/// Runs of plain string bytes are passed over eight at a time; they must end exactly where a
/// byte-by-byte reading ends them.
@Suite("JSONParser: runs of plain string bytes")
struct JSONPlainRunTests {
    static func naive(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C, bytes[index] >= 0x20 { index += 1 }
        return index
    }

    @Test("every special byte at every place of runs up to 40 long, from every start")
    func everyPlace() {
        for special: UInt8 in [0x22, 0x5C, 0x00, 0x09, 0x0A, 0x1F] {
            for length in 0...40 {
                for place in 0...length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if place < length { bytes[place] = special }
                    for start in 0...min(length, 9) {
                        #expect(JSONParser.plainRun(in: bytes, from: start) == Self.naive(bytes, from: start),
                                "special \(special) at \(place) of \(length), from \(start)")
                    }
                }
            }
        }
    }

    @Test("random bytes, high ones included (UTF-8), end where the byte-by-byte reading ends")
    func randomBytes() {
        var random = SplitMix64(seed: 17)
        for _ in 0..<3000 {
            let length = Int.random(in: 0...64, using: &random)
            // Mostly bytes near the special ones and above 0x7F, where a word test could slip.
            let bytes = (0..<length).map { _ -> UInt8 in
                switch Int.random(in: 0..<10, using: &random) {
                case 0: return [0x22, 0x5C, 0x1F, 0x00][Int.random(in: 0..<4, using: &random)]
                case 1...3: return UInt8.random(in: 0x80...0xFF, using: &random)
                case 4...5: return [0x20, 0x21, 0x23, 0x5B, 0x5D, 0xA2, 0xDC, 0x9F][Int.random(in: 0..<8, using: &random)]
                default: return UInt8.random(in: 0x20...0x7E, using: &random)
                }
            }
            let start = Int.random(in: 0...length, using: &random)
            #expect(JSONParser.plainRun(in: bytes, from: start) == Self.naive(bytes, from: start), "\(bytes) from \(start)")
        }
    }

    @Test("a member name written with escapes is kept as the name it stands for")
    func escapedNamesAreKept() throws {
        let document = Array(#"{"na\u006de": "x", "n\"ame": 1, "name2": 2, "nam": 3, "owner": {"na\/me": 4}}"#.utf8)
        #expect(try JSONParser.parse(document, keeping: ["name", "n\"ame", "owner", "na/me"]) == .object([
            JSONMember("name", .string("x")), JSONMember("n\"ame", .int(1)),
            JSONMember("owner", .object([JSONMember("na/me", .int(4))])),
        ]))
    }
}
