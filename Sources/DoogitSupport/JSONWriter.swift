/// Writes a JSONValue as the text `--json` prints (see JSONStream for the format and escaping).
public enum JSONWriter {
    public static func write(_ value: JSONValue, indented: Bool = true) -> String {
        var stream = JSONStream(indented: indented)
        stream.value(value)
        return stream.text
    }
}
