/// What `JSONParser.parse(_:keeping:)` does for the members it leaves out: their names compared
/// as written, their values checked to the same syntax as parsed ones but never built, and runs
/// of plain string bytes passed over eight at a time.
extension JSONParser {
    /// An object member's name, or nil when `keeping` leaves the member out. A name without
    /// escapes is compared as it is written, and made into a String only for a member kept.
    mutating func memberName() throws(JSONError) -> String? {
        guard let keeping else { return try parseString() }
        let start = index + 1
        let end = Self.plainRun(in: bytes, from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            let name = try parseString()
            return Self.contains(keeping, Array(name.utf8)[...]) ? name : nil
        }
        index = end + 1
        return Self.contains(keeping, bytes[start..<end]) ? String(decoding: bytes[start..<end], as: UTF8.self) : nil
    }

    private static func contains(_ names: [[UInt8]], _ name: ArraySlice<UInt8>) -> Bool {
        names.contains { $0.count == name.count && $0.elementsEqual(name) }
    }

    /// Checks a value's syntax as `parseValue` does, without building it.
    mutating func skipValue(depth: Int) throws(JSONError) {
        guard depth < Self.maximumDepth else { throw .tooDeep }
        let (open, close): (UInt8, UInt8)
        switch current {
        case UInt8(ascii: "\"")?: return try skipString()
        case UInt8(ascii: "{")?: (open, close) = (UInt8(ascii: "{"), UInt8(ascii: "}"))
        case UInt8(ascii: "[")?: (open, close) = (UInt8(ascii: "["), UInt8(ascii: "]"))
        default: _ = try parseValue(depth: depth); return  // a number or a literal: small
        }
        index += 1
        skipWhitespace()
        if current == close {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            if open == UInt8(ascii: "{") {
                guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
                try skipString()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
            }
            try skipValue(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case close?: index += 1; return
            default: throw error(open == UInt8(ascii: "{") ? "expected ',' or '}'" : "expected ',' or ']'")
            }
        }
    }

    /// Checks a string's syntax (escapes, no raw control characters) without building it.
    mutating func skipString() throws(JSONError) {
        index += 1
        while true {
            index = Self.plainRun(in: bytes, from: index)
            guard let byte = current else { throw error("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                switch current {
                case UInt8(ascii: "u")?:
                    index += 1
                    _ = try hexQuad()
                case let escaped? where Self.simpleEscapes.contains(escaped): index += 1
                default: throw error("invalid escape")
                }
            default:
                index -= 1
                throw error("control character in string")
            }
        }
    }

    /// Where the run of plain string bytes starting at `start` ends: at the first quote,
    /// backslash or control character, or the end. Most of a document is such runs, so they
    /// are passed over eight bytes at a time, the word's bytes read as a little-endian UInt64:
    /// the classic tests for a zero byte (of the word XOR a repeated 0x22 or 0x5C) and for a byte
    /// below 0x20 mark such bytes with their high bit, and the lowest mark is always a true one
    /// (a false mark can only follow a true one), so it is the first such byte.
    static func plainRun(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBytes { buffer in
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            func below(_ limit: UInt64, _ word: UInt64) -> UInt64 { (word &- ones &* limit) & ~word & highs }
            var index = start
            while index &+ 8 <= buffer.count {
                let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let marks = below(1, word ^ (ones &* 0x22)) | below(1, word ^ (ones &* 0x5C)) | below(0x20, word)
                if marks != 0 { return index &+ marks.trailingZeroBitCount >> 3 }
                index &+= 8
            }
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                index &+= 1
            }
            return index
        }
    }
}
