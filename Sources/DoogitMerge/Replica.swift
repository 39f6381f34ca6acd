import DoogitSupport

/// One todo as a copy of the list holds it: identified by UUID (local IDs are per machine and
/// never exchanged), every field its own register. A removed todo keeps its values, so a
/// removal can be taken back; only a restore stamped later than the removal clears it.
///
/// What the user did (text, done, removed, moved, linked) is stamped when they did it. What a
/// machine saw on GitHub is kept apart: the linked issue as last seen (`seen`), and the commits
/// whose `Doogit-Done:` trailer named the todo (`commits`), so that every machine applies a
/// GitHub event once, and never over a change the user made after it.
public struct TodoEntry: Equatable, Sendable {
    public var uuid: String
    public var createdAt: Timestamp
    /// GitHub's id of the repository it belongs to.
    public var repository: Register<Int64>
    public var text: Register<String>
    public var done: Register<DoneState>
    /// true: removed. A todo never removed holds false at the zero stamp.
    public var removed: Register<Bool>
    /// Its GitHub issue; nil: not linked (a todo never linked holds nil at the zero stamp).
    public var issue: Register<LinkedIssue?>
    /// The linked issue as last seen on GitHub, stamped with the link it was seen under.
    public var seen: Register<IssueObservation?>
    /// The commits (shas) whose trailer named this todo: each is applied once, everywhere.
    public var commits: Set<String>
    /// Due date, priority, tags and note.
    public var details: TodoDetails
    public var unknown: UnknownFields

    public init(uuid: String, createdAt: Timestamp, repository: Register<Int64>, text: Register<String>,
                done: Register<DoneState>, removed: Register<Bool> = Register(false, at: .zero),
                issue: Register<LinkedIssue?> = Register(nil, at: .zero),
                seen: Register<IssueObservation?> = Register(nil, at: .zero), commits: Set<String> = [],
                details: TodoDetails = .none, unknown: UnknownFields = UnknownFields()) {
        self.uuid = uuid
        self.createdAt = createdAt
        self.repository = repository
        self.text = text
        self.done = done
        self.removed = removed
        self.issue = issue
        self.seen = seen
        self.commits = commits
        self.details = details
        self.unknown = unknown
    }

    /// A todo added now: every field written with one stamp.
    public init(uuid: String, repository: Int64, text: String, doneAt: Timestamp? = nil, createdAt: Timestamp,
                stamp: HybridTimestamp) {
        self.init(uuid: uuid, createdAt: createdAt, repository: Register(repository, at: stamp),
                  text: Register(text, at: stamp), done: Register(DoneState(doneAt: doneAt), at: stamp))
    }

    public var isRemoved: Bool { removed.value }

    /// The linked issue as last seen, when it was seen under the present link (nil otherwise).
    public var observation: IssueObservation? {
        guard let link = issue.value, let seen = seen.value, seen.number == link.number, self.seen.stamp == issue.stamp
        else { return nil }
        return seen
    }

    /// When it last came into its repository's list (added, moved there, or restored): the list
    /// shows a repository's todos in this order, the same on every machine.
    public var arrival: HybridTimestamp {
        isRemoved ? repository.stamp : max(repository.stamp, removed.stamp)
    }

    /// The latest stamp of any of its fields.
    public var latestStamp: HybridTimestamp {
        var latest = max(repository.stamp, text.stamp, done.stamp, removed.stamp, issue.stamp, seen.stamp)
        let detail = details.latestStamp
        if detail > latest { latest = detail }
        for field in unknown.fields.values { if let stamp = field.stamp, stamp > latest { latest = stamp } }
        return latest
    }

    /// Whether a stamp of it (the time its issue was seen too) is more than
    /// `HybridClock.tolerance` ahead of `reference`.
    func hasStampAhead(of reference: Timestamp) -> Bool {
        HybridClock.isAhead(latestStamp.wall, of: reference) || HybridClock.isAhead(seen.value?.seenAt?.wall ?? 0, of: reference)
    }

    /// Both copies of one todo, field by field.
    public func merged(with other: TodoEntry) -> TodoEntry {
        TodoEntry(uuid: uuid, createdAt: min(createdAt, other.createdAt),
                  repository: repository.merged(with: other.repository), text: text.merged(with: other.text),
                  done: done.merged(with: other.done), removed: removed.merged(with: other.removed),
                  issue: issue.merged(with: other.issue), seen: seen.merged(with: other.seen),
                  commits: commits.union(other.commits), details: details.merged(with: other.details),
                  unknown: unknown.merged(with: other.unknown))
    }

    /// Applies `transform` to every stamp (clamping a clock that ran ahead).
    public func mapStamps(_ transform: (HybridTimestamp) -> HybridTimestamp) -> TodoEntry {
        var copy = self
        copy.repository.stamp = transform(repository.stamp)
        copy.text.stamp = transform(text.stamp)
        copy.done.stamp = transform(done.stamp)
        if removed.stamp != .zero { copy.removed.stamp = transform(removed.stamp) }
        if issue.stamp != .zero { copy.issue.stamp = transform(issue.stamp) }
        if seen.stamp != .zero { copy.seen.stamp = transform(seen.stamp) }
        // When the issue was seen orders observations of one GitHub state: a stamp too.
        if let seenAt = seen.value?.seenAt { copy.seen.value?.seenAt = transform(seenAt) }
        copy.details = details.mapStamps(transform)
        copy.unknown = unknown.mapStamps(transform)
        return copy
    }
}

/// A repository as a copy of the list holds it, identified by GitHub's numeric id.
public struct RepositoryEntry: Equatable, Sendable {
    public var id: Int64
    public var name: Register<RepositoryName>
    /// false: the user stopped tracking it (`repo remove`) on some machine.
    public var tracked: Register<Bool>
    /// What sync does with its issues and commits (the defaults at the zero stamp: never set).
    public var settings: Register<SharedSettings>
    public var unknown: UnknownFields

    public init(id: Int64, name: Register<RepositoryName>, tracked: Register<Bool>,
                settings: Register<SharedSettings> = Register(.defaults, at: .zero), unknown: UnknownFields = UnknownFields()) {
        self.id = id
        self.name = name
        self.tracked = tracked
        self.settings = settings
        self.unknown = unknown
    }

    /// The latest stamp of any of its fields.
    public var latestStamp: HybridTimestamp { max(name.stamp, tracked.stamp, settings.stamp) }

    /// Whether a stamp of it (of an unknown field too) is more than `HybridClock.tolerance` ahead of `reference`.
    func hasStampAhead(of reference: Timestamp) -> Bool {
        HybridClock.isAhead(latestStamp.wall, of: reference)
            || unknown.fields.values.contains { HybridClock.isAhead($0.stamp?.wall ?? 0, of: reference) }
    }

    public func merged(with other: RepositoryEntry) -> RepositoryEntry {
        RepositoryEntry(id: id, name: name.merged(with: other.name), tracked: tracked.merged(with: other.tracked),
                        settings: settings.merged(with: other.settings), unknown: unknown.merged(with: other.unknown))
    }

    public func mapStamps(_ transform: (HybridTimestamp) -> HybridTimestamp) -> RepositoryEntry {
        var copy = self
        copy.name.stamp = transform(name.stamp)
        copy.tracked.stamp = transform(tracked.stamp)
        if settings.stamp != .zero { copy.settings.stamp = transform(settings.stamp) }
        copy.unknown = unknown.mapStamps(transform)
        return copy
    }
}

/// A whole copy of the todo list: what one machine has, or what the file on GitHub holds.
public struct Replica: Equatable, Sendable {
    public var repositories: [Int64: RepositoryEntry]
    public var todos: [String: TodoEntry]
    /// The minor version of the file format it was read from; a newer one is kept when written back.
    public var formatMinor: Int
    /// Header fields this doogit does not know.
    public var headerUnknown: UnknownFields
    /// Lines of a kind this doogit does not know (a newer minor version's), kept as they were.
    public var unknownLines: Set<String>

    public init(repositories: [Int64: RepositoryEntry] = [:], todos: [String: TodoEntry] = [:], formatMinor: Int = 0,
                headerUnknown: UnknownFields = UnknownFields(), unknownLines: Set<String> = []) {
        self.repositories = repositories
        self.todos = todos
        self.formatMinor = formatMinor
        self.headerUnknown = headerUnknown
        self.unknownLines = unknownLines
    }

    public static let empty = Replica()

    /// Whether the list shows the repository: tracked, or holding a todo that is not removed (a
    /// todo added on one machine while another stopped tracking its repository keeps it).
    public func showsRepository(_ id: Int64) -> Bool {
        guard let entry = repositories[id] else { return false }
        return entry.tracked.value || liveRepositoryIDs.contains(id)
    }

    /// The repositories that hold a todo that is not removed.
    public var liveRepositoryIDs: Set<Int64> {
        var ids: Set<Int64> = []
        for todo in todos.values where !todo.isRemoved { ids.insert(todo.repository.value) }
        return ids
    }

    /// The latest stamp anywhere in it.
    public var latestStamp: HybridTimestamp {
        var latest = HybridTimestamp.zero
        for todo in todos.values { latest = max(latest, todo.latestStamp) }
        for repository in repositories.values { latest = max(latest, repository.latestStamp) }
        return latest
    }

    /// Applies `transform` to every stamp.
    public func mapStamps(_ transform: (HybridTimestamp) -> HybridTimestamp) -> Replica {
        var copy = self
        for (id, entry) in repositories { copy.repositories[id] = entry.mapStamps(transform) }
        for (uuid, entry) in todos { copy.todos[uuid] = entry.mapStamps(transform) }
        return copy
    }

    /// The replica with every stamp more than `HybridClock.tolerance` ahead of `reference`
    /// clamped to it, and how far ahead the furthest one was (nil: none was).
    public func clamped(to reference: Timestamp) -> (replica: Replica, aheadBy: Int64?) {
        // Most often no clock ran ahead: nothing is copied then.
        guard todos.values.contains(where: { $0.hasStampAhead(of: reference) })
            || repositories.values.contains(where: { $0.hasStampAhead(of: reference) })
        else { return (self, nil) }
        var furthest: Int64?
        let clamped = mapStamps { stamp in
            let observation = HybridClock.clamp(stamp, reference: reference)
            if let ahead = observation.clampedBy { furthest = max(furthest ?? 0, ahead) }
            return observation.stamp
        }
        return furthest == nil ? (self, nil) : (clamped, furthest)
    }
}
