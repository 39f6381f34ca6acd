/// Writes a JSON document piece by piece into UTF-8 bytes: two-space indentation (or none, for
/// a compact document a program reads), members in the order written, and every control, C1 and bidirectional-override character escaped so that no
/// text from GitHub can act on a terminal that displays the output. Large lists (10,000 todos)
/// are written straight from their records, without building a JSONValue tree first.
public struct JSONStream: ~Copyable {
    private var buffer = ByteBuffer()
    /// The document so far.
    public var bytes: [UInt8] { buffer.bytes }
    /// How many bytes the document has so far.
    public var byteCount: Int { buffer.count }
    /// How many arrays and objects are open.
    private var depth = 0
    /// Whether the innermost open array or object has an element yet: read and set for every
    /// element, so kept apart from `outer`, the same for each one around it.
    private var hasElements = false
    private var outer: [Bool] = []
    /// Whether elements go on lines of their own, indented by depth.
    public let indented: Bool

    public init(indented: Bool = true) {
        self.indented = indented
    }

    /// Hands over the bytes written so far and starts an empty buffer (of the same capacity), so
    /// that a long document can be written out piece by piece; the nesting carries on.
    public mutating func drain() -> [UInt8] {
        buffer.drain()
    }

    /// The document so far as text, with a final newline.
    public var text: String { String(decoding: bytes, as: UTF8.self) + "\n" }

    private mutating func append(_ text: StaticString) {
        buffer.append(text)
    }

    private mutating func newline() {
        guard indented else { return }
        buffer.append(0x0A)
        buffer.append(0x20, count: depth * 2)
    }

    /// Separates and indents an element of the innermost array (keys do this for objects).
    private mutating func beginElement() {
        guard depth > 0 else { return }
        if hasElements { buffer.append(UInt8(ascii: ",")) }
        hasElements = true
        newline()
    }

    // MARK: Containers

    private mutating func open() {
        if depth > 0 { outer.append(hasElements) }
        depth += 1
        hasElements = false
    }

    /// Closes the innermost array or object; whether it had elements.
    private mutating func close() -> Bool {
        guard depth > 0 else { return false }
        let had = hasElements
        depth -= 1
        hasElements = depth > 0 ? outer.removeLast() : false
        return had
    }

    public mutating func beginArray() {
        beginValue()
        buffer.append(UInt8(ascii: "["))
        open()
    }

    public mutating func endArray() {
        if close() { newline() }
        buffer.append(UInt8(ascii: "]"))
    }

    public mutating func beginObject() {
        beginValue()
        buffer.append(UInt8(ascii: "{"))
        open()
    }

    public mutating func endObject() {
        if close() { newline() }
        buffer.append(UInt8(ascii: "}"))
    }

    /// A member name written in the code: plain ASCII that needs no escaping, copied whole.
    public mutating func key(_ name: StaticString) {
        beginElement()
        buffer.append(UInt8(ascii: "\""))
        append(name)
        indented ? append("\": ") : append("\":")
        valueFollowsKey = true
    }

    /// A member name that comes from data; the member's value comes next, on the same line.
    public mutating func key(named name: String) {
        beginElement()
        writeString(name)
        indented ? append(": ") : append(":")
        valueFollowsKey = true
    }

    private var valueFollowsKey = false

    private mutating func beginValue() {
        if valueFollowsKey {
            valueFollowsKey = false
        } else {
            beginElement()
        }
    }

    // MARK: Values

    public mutating func null() {
        beginValue()
        append("null")
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        value ? append("true") : append("false")
    }

    public mutating func number(_ literal: String) {
        beginValue()
        buffer.append(literal)
    }

    public mutating func int(_ value: Int64) {
        number(String(value))
    }

    public mutating func string(_ value: String) {
        beginValue()
        writeString(value)
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// A timestamp as an RFC 3339 string (null for none), written without making a String.
    public mutating func timestamp(_ value: Timestamp?) {
        guard let value else { return null() }
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            guard value.writeRFC3339(into: digits) else { return false }
            beginValue()
            buffer.append(UInt8(ascii: "\""))
            buffer.append(UnsafeBufferPointer(digits))
            buffer.append(UInt8(ascii: "\""))
            return true
        }
        if !written { string(value.rfc3339) }
    }

    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let literal): number(literal)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(named: member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    // MARK: Strings

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape (the usual case: all of them) are copied whole.
        var text = text
        text.withUTF8 { utf8 in
            var index = 0, run = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                buffer.append(UnsafeBufferPointer(rebasing: utf8[run..<index]))
                let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                writeEscaped(Self.scalar(in: utf8, at: index, length: length), utf8[index..<min(utf8.count, index + length)])
                index += length
                run = index
            }
            buffer.append(UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// A scalar of valid UTF-8 (a String's), `length` bytes from `index`.
    private static func scalar(in utf8: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        guard length > 1, index + length <= utf8.count else { return UInt32(utf8[index]) }
        var value = UInt32(utf8[index]) & (0x7F >> UInt32(length))
        for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
        return value
    }

    /// One scalar that is not plain printable ASCII: escaped, or as it is.
    private mutating func writeEscaped(_ value: UInt32, _ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        switch value {
        case 0x22: append("\\\"")
        case 0x5C: append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        default:
            if let scalar = Unicode.Scalar(value), TerminalText.isUnsafe(scalar) {
                append("\\u")
                for shift in stride(from: 12, through: 0, by: -4) {
                    buffer.append(Self.hexDigits[Int((value >> UInt32(shift)) & 0xF)])
                }
            } else {
                buffer.append(UnsafeBufferPointer(rebasing: bytes))
            }
        }
    }
}
