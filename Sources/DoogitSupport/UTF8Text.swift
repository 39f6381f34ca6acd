/// Bytes from outside (a file, standard input, an argument) as text. Nothing is repaired: bytes
/// that are not UTF-8, or a NUL, are refused, naming where, since a todo made of U+FFFD or of a
/// binary file's pieces is never what was meant.
public enum UTF8Text {
    /// Where the bytes stop being text, and what is there.
    public struct NotText: Error, Equatable, Sendable {
        /// The line (from 1, lines end at LF) and the character in that line (from 1).
        public var line: Int
        public var column: Int
        /// The first byte that is not text (0 for NUL).
        public var byte: UInt8

        public init(line: Int, column: Int, byte: UInt8) {
            self.line = line
            self.column = column
            self.byte = byte
        }

        public var isNUL: Bool { byte == 0 }

        /// What is there, for a message: `byte 0xE9 at column 4`, `a NUL byte at column 1`.
        public var found: String {
            (isNUL ? "a NUL byte" : "byte " + UTF8Text.hex(byte)) + " at column \(column)"
        }
    }

    /// The text of `bytes`: UTF-8 without NUL, else where it is not.
    public static func decode(_ bytes: some Collection<UInt8>) throws(NotText) -> String {
        let array = Array(bytes)
        if let offset = firstNotText(array) { throw place(of: offset, in: array) }
        return String(decoding: array, as: UTF8.self)
    }

    /// A file's bytes as text: a byte-order mark at its start is not part of its first line
    /// (UTF-16 with one is read as such, `ByteOrderMark`); the rest must be UTF-8 without NUL.
    /// The bytes without the mark.
    public static func fileBytes(_ bytes: [UInt8]) throws(NotText) -> [UInt8] {
        let text = ByteOrderMark.utf8(bytes)
        if let offset = firstNotText(text) { throw place(of: offset, in: text) }
        return text
    }

    /// What `fileBytes` keeps, as text.
    public static func decodeFile(_ bytes: [UInt8]) throws(NotText) -> String {
        String(decoding: try fileBytes(bytes), as: UTF8.self)
    }

    /// The offset of the first byte that does not belong to UTF-8 text without NUL; nil when
    /// every byte does. Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    public static func firstNotText(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        var index = start
        while index < bytes.count {
            let lead = bytes[index]
            if lead == 0 { return index }
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int, second: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            default: return index
            }
            guard index + 1 < bytes.count, second.contains(bytes[index + 1]) else { return index }
            for next in index + 2..<index + length {
                guard next < bytes.count, (0x80...0xBF).contains(bytes[next]) else { return index }
            }
            index += length
        }
        return nil
    }

    /// `0xE9`.
    public static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// Bytes as a message shows them: the text, with each byte that is not text as `\xE9`.
    public static func shown(_ bytes: [UInt8]) -> String {
        var out = "", index = 0
        while index < bytes.count {
            let bad = firstNotText(bytes, from: index) ?? bytes.count
            out += TerminalText.sanitize(String(decoding: bytes[index..<bad], as: UTF8.self))
            if bad < bytes.count { out += "\\x" + hex(bytes[bad]).dropFirst(2) }
            index = bad + 1
        }
        return out
    }

    private static func place(of offset: Int, in bytes: [UInt8]) -> NotText {
        var line = 1, column = 1
        for byte in bytes[0..<offset] {
            if byte == 0x0A {
                (line, column) = (line + 1, 1)
            } else if byte & 0xC0 != 0x80 {
                column += 1  // the first byte of a character: what comes before is UTF-8
            }
        }
        return NotText(line: line, column: column, byte: bytes[offset])
    }
}
