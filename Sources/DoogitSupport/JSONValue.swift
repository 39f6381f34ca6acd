/// A JSON document as parsed from GitHub or written for `--json`. Objects keep their members in
/// order, so output keeps the field order of the contract; numbers keep their literal text, so
/// GitHub's 64-bit ids never pass through a Double.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    public static func int(_ value: Int64) -> JSONValue { .number(String(value)) }
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A string, or `null` when absent.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }
}

public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// Why a JSON document could not be read as the shape expected.
public enum JSONError: Error, Equatable, Sendable {
    case syntax(offset: Int, reason: String)
    case tooDeep
    case missing(field: String)
    case wrongType(field: String, expected: String)
}

// Typed field access for decoders: every failure is a JSONError naming the field, never a trap.
extension JSONValue {
    public func field(_ key: String) throws(JSONError) -> JSONValue {
        guard case .object = self else { throw .wrongType(field: key, expected: "object") }
        guard let value = self[key] else { throw .missing(field: key) }
        return value
    }

    public func string(_ key: String) throws(JSONError) -> String {
        guard case .string(let value) = try field(key) else { throw .wrongType(field: key, expected: "string") }
        return value
    }

    /// A string that may be `null` or absent (GitHub sends `"description": null`).
    public func optionalString(_ key: String) throws(JSONError) -> String? {
        guard case .object = self else { throw .wrongType(field: key, expected: "object") }
        switch self[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .wrongType(field: key, expected: "string or null")
        }
    }

    public func bool(_ key: String) throws(JSONError) -> Bool {
        guard case .bool(let value) = try field(key) else { throw .wrongType(field: key, expected: "boolean") }
        return value
    }

    public func optionalBool(_ key: String) throws(JSONError) -> Bool? {
        guard case .object = self else { throw .wrongType(field: key, expected: "object") }
        switch self[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw .wrongType(field: key, expected: "boolean or null")
        }
    }

    public func int64(_ key: String) throws(JSONError) -> Int64 {
        guard case .number(let text) = try field(key), let value = Int64(text) else {
            throw .wrongType(field: key, expected: "integer")
        }
        return value
    }

    public func array(_ key: String) throws(JSONError) -> [JSONValue] {
        guard case .array(let values) = try field(key) else { throw .wrongType(field: key, expected: "array") }
        return values
    }
}
