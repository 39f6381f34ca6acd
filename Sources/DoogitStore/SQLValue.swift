/// A value bound to a `?` parameter. SQL text is never built from values.
public enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case text(String)

    public static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

    public static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
}
