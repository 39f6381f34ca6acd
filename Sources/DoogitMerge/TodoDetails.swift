import DoogitSupport

/// How pressing a todo is, as Taskwarrior says it: high, medium or low.
public enum Priority: String, CaseIterable, Comparable, RegisterValue {
    case high = "H", medium = "M", low = "L"

    /// `H`, `M` or `L`, in either case.
    public init?(text: String) {
        self.init(rawValue: text.uppercased())
    }

    /// Exactly `H`, `M` or `L` (as the database holds it), from UTF-8 bytes.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 1 else { return nil }
        switch bytes[0] {
        case UInt8(ascii: "H"): self = .high
        case UInt8(ascii: "M"): self = .medium
        case UInt8(ascii: "L"): self = .low
        default: return nil
        }
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

/// What a todo says beyond its text: when it is due, how pressing it is, its tags, a note, and
/// who: the GitHub login that added it, that finished it, and the one it is assigned to; and
/// whether it is kept private (never shared, though its repository's todos are). Each
/// but the tags is a register of its own, so two machines changing different ones both keep
/// theirs; tags are a set that merges tag by tag (`TagSet`). Who finished a todo is written
/// with the same stamp as its done state, so the two always settle on the same change. Never
/// set: nil (or no tags) at the zero stamp, and not written to the file.
public struct TodoDetails: Equatable, Sendable {
    public var due: Register<CalendarDate?>
    public var priority: Register<Priority?>
    public var tags: TagSet
    public var note: Register<String?>
    public var author: Register<String?>
    public var finishedBy: Register<String?>
    public var assignee: Register<String?>
    /// Kept to its owner: never written to the branch of a shared repository (`repo share`).
    public var keptPrivate: Register<Bool>

    public init(due: Register<CalendarDate?> = Register(nil, at: .zero), priority: Register<Priority?> = Register(nil, at: .zero),
                tags: TagSet = .empty, note: Register<String?> = Register(nil, at: .zero),
                author: Register<String?> = Register(nil, at: .zero), finishedBy: Register<String?> = Register(nil, at: .zero),
                assignee: Register<String?> = Register(nil, at: .zero), keptPrivate: Register<Bool> = Register(false, at: .zero)) {
        self.due = due
        self.priority = priority
        self.tags = tags
        self.note = note
        self.author = author
        self.finishedBy = finishedBy
        self.assignee = assignee
        self.keptPrivate = keptPrivate
    }

    public static let none = TodoDetails()

    /// Every stamp: each register's and each tag's.
    public var stamps: [HybridTimestamp] {
        [due.stamp, priority.stamp, note.stamp, author.stamp, finishedBy.stamp, assignee.stamp, keptPrivate.stamp] + tags.stamps
    }

    /// The latest of `stamps`, without making the list.
    public var latestStamp: HybridTimestamp {
        var latest = max(due.stamp, priority.stamp, note.stamp, author.stamp, finishedBy.stamp, assignee.stamp, keptPrivate.stamp)
        if let tag = tags.latestStamp, tag > latest { latest = tag }
        return latest
    }

    public func merged(with other: TodoDetails) -> TodoDetails {
        TodoDetails(due: due.merged(with: other.due), priority: priority.merged(with: other.priority),
                    tags: tags.merged(with: other.tags), note: note.merged(with: other.note),
                    author: author.merged(with: other.author), finishedBy: finishedBy.merged(with: other.finishedBy),
                    assignee: assignee.merged(with: other.assignee), keptPrivate: keptPrivate.merged(with: other.keptPrivate))
    }

    /// Every stamp set transformed; the zero stamp (never set) stays.
    public func mapStamps(_ transform: (HybridTimestamp) -> HybridTimestamp) -> TodoDetails {
        var copy = self
        if due.stamp != .zero { copy.due.stamp = transform(due.stamp) }
        if priority.stamp != .zero { copy.priority.stamp = transform(priority.stamp) }
        copy.tags = tags.mapStamps { $0 == .zero ? $0 : transform($0) }
        if note.stamp != .zero { copy.note.stamp = transform(note.stamp) }
        if author.stamp != .zero { copy.author.stamp = transform(author.stamp) }
        if finishedBy.stamp != .zero { copy.finishedBy.stamp = transform(finishedBy.stamp) }
        if assignee.stamp != .zero { copy.assignee.stamp = transform(assignee.stamp) }
        if keptPrivate.stamp != .zero { copy.keptPrivate.stamp = transform(keptPrivate.stamp) }
        return copy
    }
}
