/// Writes JSON for `--json` output: two-space indentation, members in the order given, and every
/// control, C1 and bidirectional-override character escaped so that no text from GitHub can act
/// on a terminal that displays the output.
public enum JSONWriter {
    public static func write(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        out.append("\n")
        return out
    }

    private static func newline(_ indent: Int, into out: inout String) {
        out.append("\n")
        out.append(String(repeating: " ", count: indent))
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .number(let text): out.append(text)
        case .string(let text): writeString(text, into: &out)
        case .array(let values):
            guard !values.isEmpty else { out.append("[]"); return }
            out.append("[")
            for (position, element) in values.enumerated() {
                if position > 0 { out.append(",") }
                newline(indent + 2, into: &out)
                write(element, indent: indent + 2, into: &out)
            }
            newline(indent, into: &out)
            out.append("]")
        case .object(let members):
            guard !members.isEmpty else { out.append("{}"); return }
            out.append("{")
            for (position, member) in members.enumerated() {
                if position > 0 { out.append(",") }
                newline(indent + 2, into: &out)
                writeString(member.key, into: &out)
                out.append(": ")
                write(member.value, indent: indent + 2, into: &out)
            }
            newline(indent, into: &out)
            out.append("}")
        }
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)

    public static func writeString(_ text: String, into out: inout String) {
        out.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            default:
                if TerminalText.isUnsafe(scalar) {
                    out.append("\\u")
                    let value = scalar.value
                    for shift in stride(from: 12, through: 0, by: -4) {
                        out.unicodeScalars.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }
}
