/// Writes a JSONValue as the text `--json` prints (see JSONStream for the format and escaping).
public enum JSONWriter {
    public static func write(_ value: JSONValue) -> String {
        var stream = JSONStream()
        stream.value(value)
        return stream.text
    }

    /// Appends the JSON text of one string.
    public static func writeString(_ text: String, into out: inout String) {
        var stream = JSONStream()
        stream.string(text)
        out.append(String(decoding: stream.bytes, as: UTF8.self))
    }
}
