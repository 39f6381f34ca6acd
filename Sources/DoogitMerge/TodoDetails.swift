import DoogitSupport

/// How pressing a todo is, as Taskwarrior says it: high, medium or low.
public enum Priority: String, CaseIterable, Comparable, RegisterValue {
    case high = "H", medium = "M", low = "L"

    /// `H`, `M` or `L`, in either case.
    public init?(text: String) {
        self.init(rawValue: text.uppercased())
    }

    /// High first.
    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }

    public var rank: Int {
        switch self {
        case .high: return 0
        case .medium: return 1
        case .low: return 2
        }
    }

    public static func settles(_ lhs: Priority, before rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension CalendarDate: RegisterValue {
    public static func settles(_ lhs: CalendarDate, before rhs: CalendarDate) -> Bool { lhs < rhs }
}

/// A todo's tags: words without spaces, kept sorted and without repeats. One register: the
/// later write of the whole set wins (tags are a linked issue's labels, set whole too).
public struct TagSet: RegisterValue, Hashable, Sequence {
    public private(set) var tags: [String]

    public init<S: Sequence>(_ tags: S) where S.Element == String {
        self.tags = Array(Set(tags)).sorted()
    }

    public static let empty = TagSet([])

    public var isEmpty: Bool { tags.isEmpty }
    public func contains(_ tag: String) -> Bool { tags.contains(tag) }
    public func makeIterator() -> IndexingIterator<[String]> { tags.makeIterator() }

    public func adding(_ more: [String]) -> TagSet { TagSet(tags + more) }
    public func removing(_ less: [String]) -> TagSet { TagSet(tags.filter { !less.contains($0) }) }

    /// A word that can be a tag: not empty, no whitespace or control characters, no comma, at
    /// most 50 characters (GitHub's limit for a label's name).
    public static func isValid(_ tag: String) -> Bool {
        !tag.isEmpty && tag.count <= 50
            && !tag.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0 == "," }
    }

    public static func settles(_ lhs: TagSet, before rhs: TagSet) -> Bool { lhs.tags.lexicographicallyPrecedes(rhs.tags) }
}

/// What a todo says beyond its text: when it is due, how pressing it is, its tags and a note.
/// Each is a register of its own, so two machines changing different ones both keep theirs.
/// Never set: nil (or no tags) at the zero stamp, and not written to the file.
public struct TodoDetails: Equatable, Sendable {
    public var due: Register<CalendarDate?>
    public var priority: Register<Priority?>
    public var tags: Register<TagSet>
    public var note: Register<String?>

    public init(due: Register<CalendarDate?> = Register(nil, at: .zero), priority: Register<Priority?> = Register(nil, at: .zero),
                tags: Register<TagSet> = Register(.empty, at: .zero), note: Register<String?> = Register(nil, at: .zero)) {
        self.due = due
        self.priority = priority
        self.tags = tags
        self.note = note
    }

    public static let none = TodoDetails()

    public var stamps: [HybridTimestamp] { [due.stamp, priority.stamp, tags.stamp, note.stamp] }

    public func merged(with other: TodoDetails) -> TodoDetails {
        TodoDetails(due: due.merged(with: other.due), priority: priority.merged(with: other.priority),
                    tags: tags.merged(with: other.tags), note: note.merged(with: other.note))
    }

    /// Every stamp set transformed; the zero stamp (never set) stays.
    public func mapStamps(_ transform: (HybridTimestamp) -> HybridTimestamp) -> TodoDetails {
        var copy = self
        if due.stamp != .zero { copy.due.stamp = transform(due.stamp) }
        if priority.stamp != .zero { copy.priority.stamp = transform(priority.stamp) }
        if tags.stamp != .zero { copy.tags.stamp = transform(tags.stamp) }
        if note.stamp != .zero { copy.note.stamp = transform(note.stamp) }
        return copy
    }
}
