import DoogitSupport

/// One tag of a todo: how it is spelled, whether the todo has it, and the stamp of its last change.
public struct TagState: Equatable, Sendable {
    public var spelling: String
    public var isOn: Bool
    public var stamp: HybridTimestamp

    public init(spelling: String, isOn: Bool, stamp: HybridTimestamp) {
        self.spelling = spelling
        self.isOn = isOn
        self.stamp = stamp
    }

    /// Whether this change comes after `other`'s: the later stamp; at one stamp (two stamps
    /// clamped to one moment), adding over removing, then the spelling, so every copy agrees.
    public func supersedes(_ other: TagState) -> Bool {
        if stamp != other.stamp { return stamp > other.stamp }
        if isOn != other.isOn { return isOn }
        return spelling > other.spelling
    }
}

/// A todo's tags: a set that merges tag by tag. Each tag has its own state and stamp, so a tag
/// added on one machine and another removed elsewhere both stand, and a tag added on one machine
/// while removed on another goes to the later change (at one stamp, the add). Tags compare
/// without case (`BUG` is `bug`): a tag is kept by its name folded, with the spelling it was
/// given; adding a tag the todo has, in another case, changes nothing.
public struct TagSet: Equatable, Sendable, Sequence {
    /// Every tag ever changed on the todo, by its folded name; those removed are kept (off) so
    /// that a removal meets a concurrent add.
    public private(set) var states: [String: TagState]

    public init(states: [String: TagState] = [:]) {
        self.states = states
    }

    /// Tags given whole at one stamp (a file of format 3, whose tags were one value): each on.
    public init<S: Sequence>(_ tags: S, at stamp: HybridTimestamp) where S.Element == String {
        var set = TagSet()
        for tag in tags { set.states[Self.key(tag)] = TagState(spelling: tag, isOn: true, stamp: stamp) }
        self = set
    }

    public static let empty = TagSet()

    /// How tags compare: without case.
    public static func key(_ tag: String) -> String { tag.lowercased() }

    /// The tags the todo has, as spelled, in order of their folded names.
    public var tags: [String] {
        states.filter(\.value.isOn).sorted { $0.key < $1.key }.map(\.value.spelling)
    }

    public var isEmpty: Bool { !states.values.contains(where: \.isOn) }
    public func contains(_ tag: String) -> Bool { states[Self.key(tag)]?.isOn == true }
    public func makeIterator() -> IndexingIterator<[String]> { tags.makeIterator() }

    /// The stamps of every tag's last change.
    public var stamps: [HybridTimestamp] { states.values.map(\.stamp) }
    /// The stamp of the last change of any tag (nil: none was ever set).
    public var latestStamp: HybridTimestamp? { states.values.lazy.map(\.stamp).max() }

    /// Adds tags at `stamp`; one the todo has already (in any case) keeps its spelling and stamp.
    /// `spelling` gives a tag the spelling of a label it names.
    public mutating func add(_ tags: [String], at stamp: HybridTimestamp, spelling: (String) -> String = { $0 }) {
        for tag in tags where !contains(tag) {
            merge(Self.key(tag), TagState(spelling: spelling(tag), isOn: true, stamp: stamp))
        }
    }

    /// Removes tags at `stamp` (a tag the todo does not have is noted off too: a label of its
    /// issue to take off, or an add elsewhere that this removal meets).
    public mutating func remove(_ tags: [String], at stamp: HybridTimestamp) {
        for tag in tags {
            let key = Self.key(tag)
            merge(key, TagState(spelling: states[key]?.spelling ?? tag, isOn: false, stamp: stamp))
        }
    }

    public func adding(_ tags: [String], at stamp: HybridTimestamp) -> TagSet {
        var copy = self
        copy.add(tags, at: stamp)
        return copy
    }

    public func removing(_ tags: [String], at stamp: HybridTimestamp) -> TagSet {
        var copy = self
        copy.remove(tags, at: stamp)
        return copy
    }

    /// Tag by tag, the later change (see `TagState.supersedes`): commutative, associative and
    /// idempotent.
    public func merged(with other: TagSet) -> TagSet {
        var result = self
        for (key, state) in other.states { result.merge(key, state) }
        return result
    }

    private mutating func merge(_ key: String, _ state: TagState) {
        if let current = states[key], !state.supersedes(current) { return }
        states[key] = state
    }

    /// Every stamp transformed; a state keeps its place.
    public func mapStamps(_ transform: (HybridTimestamp) -> HybridTimestamp) -> TagSet {
        TagSet(states: states.mapValues { TagState(spelling: $0.spelling, isOn: $0.isOn, stamp: transform($0.stamp)) })
    }

    /// A word that can be a tag: not empty, no whitespace or control characters, no comma, at
    /// most 50 characters (GitHub's limit for a label's name).
    public static func isValid(_ tag: String) -> Bool {
        // Most tags are ASCII: checked byte by byte, without Unicode's tables (a list checks every tag it shows).
        if tag.utf8.allSatisfy({ $0 < 0x80 }) {
            return !tag.isEmpty && tag.utf8.count <= 50 && tag.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: ",") }
        }
        return tag.count <= 50
            && !tag.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0 == "," }
    }
}
