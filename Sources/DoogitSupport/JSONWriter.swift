/// Writes a JSONValue as the text `--json` prints (see JSONStream for the format and escaping).
public enum JSONWriter {
    public static func write(_ value: JSONValue) -> String {
        var stream = JSONStream()
        stream.value(value)
        return stream.text
    }
}
