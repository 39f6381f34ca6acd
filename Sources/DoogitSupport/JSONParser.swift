/// A strict RFC 8259 parser over bytes. It bounds nesting depth so hostile input cannot exhaust
/// the stack, and turns invalid UTF-8 into U+FFFD rather than failing on it.
public struct JSONParser {
    public static let maximumDepth = 256

    /// With `keeping`, object members of other names (at any depth) are checked and skipped,
    /// not built: a reader that needs 12 of a repository's 90 fields pays for those alone.
    public static func parse(_ bytes: [UInt8], keeping: Set<String>? = nil) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.keeping = keeping.map { $0.map { Array($0.utf8) } }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the document") }
        return value
    }

    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private static let simpleEscapes = Array(#""\/bfnrt"#.utf8)

    private let bytes: [UInt8]
    private var index = 0
    /// The names of the members to build (as UTF-8), or nil for all.
    private var keeping: [[UInt8]]?

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ reason: String) -> JSONError {
        .syntax(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        // Indented documents have long runs of it: a loop over the buffer, not `current`.
        index = bytes.withUnsafeBufferPointer { buffer in
            var index = self.index
            while index < buffer.count {
                let byte = buffer[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
                index &+= 1
            }
            return index
        }
    }

    private mutating func expect(_ literal: String) throws(JSONError) {
        for byte in literal.utf8 {
            guard current == byte else { throw error("invalid literal") }
            index += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw .tooDeep }
        switch current {
        case UInt8(ascii: "{")?: return try parseObject(depth: depth)
        case UInt8(ascii: "[")?: return try parseArray(depth: depth)
        case UInt8(ascii: "\"")?: return .string(try parseString())
        case UInt8(ascii: "t")?: try expect("true"); return .bool(true)
        case UInt8(ascii: "f")?: try expect("false"); return .bool(false)
        case UInt8(ascii: "n")?: try expect("null"); return .null
        case let byte? where byte == UInt8(ascii: "-") || isDigit(byte): return try parseNumber()
        case nil: throw error("unexpected end of document")
        default: throw error("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try memberName()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            if let key {
                members.append(JSONMember(key, try parseValue(depth: depth + 1)))
            } else {
                try skipValue(depth: depth + 1)
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?: index += 1; return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    /// An object member's name, or nil when `keeping` leaves the member out. A name without
    /// escapes is compared as it is written, and made into a String only for a member kept.
    private mutating func memberName() throws(JSONError) -> String? {
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

    private mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "]")?: index += 1; return .array(values)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    /// Checks a value's syntax as `parseValue` does, without building it.
    private mutating func skipValue(depth: Int) throws(JSONError) {
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
    private mutating func skipString() throws(JSONError) {
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

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func digits() throws(JSONError) {
        guard let byte = current, isDigit(byte) else { throw error("expected a digit") }
        while let byte = current, isDigit(byte) { index += 1 }
    }

    private mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("unterminated escape") }
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseString() throws(JSONError) -> String {
        index += 1
        // Runs of plain bytes are decoded whole (most strings are one run), escapes one by one.
        var scalars = String.UnicodeScalarView()
        var escaped = false
        var runStart = index
        func flush(_ end: Int) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while true {
            index = Self.plainRun(in: bytes, from: index)
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                if !escaped {
                    defer { index += 1 }
                    return String(decoding: bytes[runStart..<index], as: UTF8.self)
                }
                flush(index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                escaped = true
                flush(index)
                index += 1
                guard let escape = current else { throw error("unterminated escape") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    scalars.append(try parseUnicodeEscape())
                default: throw error("invalid escape")
                }
                runStart = index
            default:
                throw error("control character in string")
            }
        }
    }

    /// After `\u`: one escape, or a surrogate pair; a lone surrogate becomes U+FFFD.
    private mutating func parseUnicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        let first = try hexQuad()
        if (0xD800...0xDBFF).contains(first) {
            let save = index
            if current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                let second = try hexQuad()
                if (0xDC00...0xDFFF).contains(second) {
                    let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    return Unicode.Scalar(combined) ?? replacement
                }
                index = save
            }
            return replacement
        }
        return Unicode.Scalar(first) ?? replacement
    }
}
