/// Writes JSON for `--json` output: two-space indentation, members in the order given, and every
/// control, C1 and bidirectional-override character escaped so that no text from GitHub can act
/// on a terminal that displays the output. Works on UTF-8 bytes: a list of 10,000 todos is
/// written without touching one character at a time.
public enum JSONWriter {
    public static func write(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, indent: 0, into: &out)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    private static func newline(_ indent: Int, into out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent))
    }

    private static func append(_ text: StaticString, into out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: append("null", into: &out)
        case .bool(let flag): flag ? append("true", into: &out) : append("false", into: &out)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let values):
            guard !values.isEmpty else { append("[]", into: &out); return }
            out.append(UInt8(ascii: "["))
            for (position, element) in values.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 2, into: &out)
                write(element, indent: indent + 2, into: &out)
            }
            newline(indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { append("{}", into: &out); return }
            out.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 2, into: &out)
                writeString(member.key, into: &out)
                append(": ", into: &out)
                write(member.value, indent: indent + 2, into: &out)
            }
            newline(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func writeString(_ text: String, into out: inout String) {
        var bytes: [UInt8] = []
        writeString(text, into: &bytes)
        out.append(String(decoding: bytes, as: UTF8.self))
    }

    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Plain ASCII without quotes, backslashes or controls, the usual case, is copied whole.
        var text = text
        let copied = text.withUTF8 { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if !copied {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": append("\\\"", into: &out)
                case "\\": append("\\\\", into: &out)
                case "\n": append("\\n", into: &out)
                case "\r": append("\\r", into: &out)
                case "\t": append("\\t", into: &out)
                default:
                    if TerminalText.isUnsafe(scalar) {
                        append("\\u", into: &out)
                        for shift in stride(from: 12, through: 0, by: -4) {
                            out.append(hexDigits[Int((scalar.value >> UInt32(shift)) & 0xF)])
                        }
                    } else {
                        UTF8.encode(scalar) { out.append($0) }
                    }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
