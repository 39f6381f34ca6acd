import DoogitSupport

/// A value that a `Register` can hold. Two writes with the same stamp (a copied machine id, or
/// two stamps clamped to the same moment) are settled by this fixed order of values, so every
/// copy still picks the same one.
public protocol RegisterValue: Equatable, Sendable {
    static func settles(_ lhs: Self, before rhs: Self) -> Bool
}

/// A last-writer-wins register: a value and the stamp of the write that set it. Merging keeps
/// the later write; that is commutative, associative and idempotent, so copies merged in any
/// order and any number of times agree.
public struct Register<Value: RegisterValue>: Equatable, Sendable {
    public var value: Value
    public var stamp: HybridTimestamp

    public init(_ value: Value, at stamp: HybridTimestamp) {
        self.value = value
        self.stamp = stamp
    }

    /// Whether this write comes after `other`'s (by stamp, then by the value order).
    public func supersedes(_ other: Register) -> Bool {
        if stamp != other.stamp { return stamp > other.stamp }
        return Value.settles(other.value, before: value)
    }

    public func merged(with other: Register) -> Register {
        other.supersedes(self) ? other : self
    }

    /// Writes `value` at `stamp`, unless the register already holds a later write.
    public mutating func set(_ value: Value, at stamp: HybridTimestamp) {
        self = merged(with: Register(value, at: stamp))
    }
}

extension String: RegisterValue {
    public static func settles(_ lhs: String, before rhs: String) -> Bool { lhs < rhs }
}

extension Int64: RegisterValue {
    public static func settles(_ lhs: Int64, before rhs: Int64) -> Bool { lhs < rhs }
}

extension Bool: RegisterValue {
    public static func settles(_ lhs: Bool, before rhs: Bool) -> Bool { !lhs && rhs }
}

/// Whether a todo is done, and since when.
public struct DoneState: RegisterValue {
    /// nil: open.
    public var doneAt: Timestamp?

    public init(doneAt: Timestamp?) {
        self.doneAt = doneAt
    }

    public var done: Bool { doneAt != nil }

    public static let open = DoneState(doneAt: nil)

    public static func settles(_ lhs: DoneState, before rhs: DoneState) -> Bool {
        switch (lhs.doneAt, rhs.doneAt) {
        case (nil, nil): return false
        case (nil, _?): return true
        case (_?, nil): return false
        case (let left?, let right?): return left < right
        }
    }
}

/// What a repository is called, as the machine that stamped it last saw it on GitHub.
public struct RepositoryName: RegisterValue {
    public var fullName: String
    public var url: String

    public init(fullName: String, url: String) {
        self.fullName = fullName
        self.url = url
    }

    public var owner: String { String(fullName.prefix(while: { $0 != "/" })) }
    public var name: String {
        guard let slash = fullName.firstIndex(of: "/") else { return fullName }
        return String(fullName[fullName.index(after: slash)...])
    }

    public static func settles(_ lhs: RepositoryName, before rhs: RepositoryName) -> Bool {
        lhs.fullName != rhs.fullName ? lhs.fullName < rhs.fullName : lhs.url < rhs.url
    }
}
