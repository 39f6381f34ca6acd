import DoogitSupport
import Testing
import TestSupport

/// Bytes from outside are text only when they are UTF-8 without NUL: nothing is repaired, and
/// what is refused is named by line and column.
@Suite struct UTF8TextTests {
    /// Byte strings near UTF-8: valid characters of every length, cut short, with stray
    /// continuation bytes, overlong forms, surrogates, code points past U+10FFFF and NUL.
    static func nearText(_ random: inout SplitMix64) -> [UInt8] {
        let pieces: [[UInt8]] = [
            [0x61], [0x0A], [0x00], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xE9], [0x80], [0xBF],
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF4, 0x8F, 0xBF, 0xBF], [0xF5], [0xFF], [0xFE], [0xE2, 0x82], [0xF0, 0x9F], [0xEF, 0xBB, 0xBF],
        ]
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            if Int.random(in: 0..<4, using: &random) == 0 {
                bytes.append(UInt8.random(in: 0...255, using: &random))
            } else {
                bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
        }
        return bytes
    }

    /// The rule is the standard library's strict reading of UTF-8, with NUL refused too; where it
    /// refuses, everything before the place named is text.
    @Test func textIsWhatTheStandardLibraryReadsAsUTF8WithoutNUL() {
        var random = SplitMix64(seed: 0x7E57)
        for _ in 0..<20_000 {
            let bytes = Self.nearText(&random)
            let strict = String(validating: bytes, as: UTF8.self)
            let expected = strict.map { !$0.utf8.contains(0) } ?? false
            let offset = UTF8Text.firstNotText(bytes)
            #expect((offset == nil) == expected, "\(bytes.map(UTF8Text.hex))")
            if let offset {
                #expect(String(validating: bytes[..<offset], as: UTF8.self) != nil, "\(bytes.map(UTF8Text.hex))")
            }
            switch Result(catching: { () throws(UTF8Text.NotText) in try UTF8Text.decode(bytes) }) {
            case .success(let text): #expect(Array(text.utf8) == bytes)
            case .failure(let problem): #expect(offset.map { bytes[$0] } == problem.byte)
            }
        }
    }

    @Test func theFirstByteThatIsNotTextIsNamedByLineAndCharacter() {
        #expect(throws: UTF8Text.NotText(line: 2, column: 4, byte: 0xE9)) { try UTF8Text.decode(Array("ab\ncé".utf8) + [0x6E, 0xE9]) }
        #expect(throws: UTF8Text.NotText(line: 1, column: 1, byte: 0)) { try UTF8Text.decode([0x00, 0x61]) }
        #expect(UTF8Text.NotText(line: 1, column: 3, byte: 0xE9).found == "byte 0xE9 at column 3")
        #expect(UTF8Text.NotText(line: 1, column: 1, byte: 0).found == "a NUL byte at column 1")
        #expect(throws: UTF8Text.NotText(line: 1, column: 3, byte: 0xE2)) { try UTF8Text.decode([0x61, 0x62, 0xE2, 0x82]) }
    }

    @Test func aFileMayStartWithAByteOrderMarkAndNothingElseIsRepaired() throws {
        #expect(try UTF8Text.decodeFile([0xEF, 0xBB, 0xBF, 0x61, 0x0A]) == "a\n")
        #expect(try UTF8Text.decodeFile([0xFF, 0xFE, 0x61, 0x00]) == "a", "UTF-16 with its mark is read as such")
        #expect(throws: UTF8Text.NotText(line: 1, column: 2, byte: 0)) { try UTF8Text.decodeFile([0xFF, 0xFE, 0x61, 0x00, 0x00, 0x00]) }
        #expect(throws: UTF8Text.NotText(line: 1, column: 4, byte: 0xE9)) { try UTF8Text.decodeFile([0xEF, 0xBB, 0xBF] + Array("caf".utf8) + [0xE9]) }
    }

    @Test func bytesAreShownWithWhatIsNotTextEscaped() {
        #expect(UTF8Text.shown(Array("caf".utf8) + [0xE9]) == "caf\\xE9")
        #expect(UTF8Text.shown([0xC3, 0xA9, 0xFF, 0x00, 0x61]) == "é\\xFF\\x00a")
        #expect(UTF8Text.shown([0x1B, 0x5B, 0x32, 0x4A, 0x61]) == "a", "an escape sequence is left out, as everywhere")
    }
}
