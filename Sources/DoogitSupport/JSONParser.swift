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

    static let simpleEscapes = Array(#""\/bfnrt"#.utf8)

    // The state and the readers below are internal, not private, for JSONParser+Skipping.swift.
    let bytes: [UInt8]
    var index = 0
    /// The names of the members to build (as UTF-8), or nil for all.
    var keeping: [[UInt8]]?

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func error(_ reason: String) -> JSONError {
        .syntax(offset: index, reason: reason)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
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

    mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
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

    mutating func hexQuad() throws(JSONError) -> UInt32 {
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

    mutating func parseString() throws(JSONError) -> String {
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
