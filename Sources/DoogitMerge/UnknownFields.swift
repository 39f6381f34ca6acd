import DoogitSupport

/// Fields of a line that this doogit does not know (written by a newer one), kept so that they
/// travel on unchanged. A newer doogit stamps a field it adds under the same name in the line's
/// `clock`; such fields merge last-writer-wins by that stamp. A field without a stamp merges by
/// a fixed order of its JSON text, which is arbitrary but the same on every machine.
public struct UnknownFields: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        /// nil: only a stamp was given (a newer doogit cleared the field).
        public var value: JSONValue?
        public var stamp: HybridTimestamp?
        /// The value's JSON text, for the fixed order.
        let encoded: String

        public init(value: JSONValue?, stamp: HybridTimestamp?) {
            self.value = value
            self.stamp = stamp
            self.encoded = value.map { JSONWriter.write($0) } ?? ""
        }

        func supersedes(_ other: Field) -> Bool {
            switch (stamp, other.stamp) {
            case (let mine?, let theirs?) where mine != theirs: return mine > theirs
            case (_?, nil): return true
            case (nil, _?): return false
            default: return encoded > other.encoded
            }
        }
    }

    public private(set) var fields: [String: Field] = [:]

    public init() {}

    public var isEmpty: Bool { fields.isEmpty }

    /// The field names in the order they are written: sorted.
    public var names: [String] { fields.keys.sorted() }

    public subscript(name: String) -> Field? {
        get { fields[name] }
        set { fields[name] = newValue }
    }

    /// The same fields with `transform` applied to every stamp.
    public func mapStamps(_ transform: (HybridTimestamp) -> HybridTimestamp) -> UnknownFields {
        var copy = self
        for (name, field) in fields {
            if let stamp = field.stamp { copy.fields[name] = Field(value: field.value, stamp: transform(stamp)) }
        }
        return copy
    }

    public func merged(with other: UnknownFields) -> UnknownFields {
        if other.fields.isEmpty { return self }
        if fields.isEmpty { return other }
        var result = self
        for (name, theirs) in other.fields {
            if let mine = result.fields[name], !theirs.supersedes(mine) { continue }
            result.fields[name] = theirs
        }
        return result
    }
}
