import DoogitMerge
import DoogitSupport

/// What a line of the list shows of a todo, and what puts it in the list's order. A
/// `TodoRecord` has it all; a `TodoLine` has nothing more, for lists read only to be shown.
public protocol ListableTodo {
    var id: Int64 { get }
    var done: Bool { get }
    var position: Int64 { get }
    var text: String { get }
    var issue: IssueLink? { get }
    var due: CalendarDate? { get }
    var priority: Priority? { get }
    /// Its own tags, sorted (without case).
    var tags: [String] { get }
    var note: String? { get }
    /// Its issue's labels as last seen, sorted (nil: not linked, or not known).
    var labels: [String]? { get }
    /// Whose it is (a GitHub login): its assignee, else who added it (nil: nobody's known).
    var owner: String? { get }
}

extension ListableTodo {
    /// Its tags and its issue's labels, each name once (without case), sorted: what the list shows.
    public var tagsAndLabels: [String] {
        guard let labels, !labels.isEmpty else { return tags }
        var seen = Set(tags.map(TagSet.key))
        return tags + labels.filter { seen.insert(TagSet.key($0)).inserted }.sorted { TagSet.key($0) < TagSet.key($1) }
    }

    /// Whether its text holds `needle` (lowercased), as `--grep` matches: Unicode-aware and
    /// case-insensitive, which SQLite's LIKE is not.
    public func matches(_ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { haystack in needle.withUTF8 { wanted in TextMatch.contains(haystack, lowercased: wanted) } }
    }
}

extension TodoRecord: ListableTodo {}

/// A todo as a list shows it, read without what only its record needs (its UUID, its times):
/// a list filtered by tag, priority or due date is read whole before it is shown, and those
/// cost as much to read and free as the rest of the line.
public struct TodoLine: ListableTodo, Equatable, Sendable {
    public var id: Int64
    public var repositoryID: Int64
    public var done: Bool
    public var position: Int64
    public var text: String
    public var issue: IssueLink?
    public var due: CalendarDate?
    public var priority: Priority?
    public var tags: [String]
    public var note: String?
    public var labels: [String]?
    public var owner: String?

    public init(id: Int64, repositoryID: Int64, done: Bool, position: Int64, text: String, issue: IssueLink? = nil,
                due: CalendarDate? = nil, priority: Priority? = nil, tags: [String] = [], note: String? = nil,
                labels: [String]? = nil, owner: String? = nil) {
        self.id = id
        self.repositoryID = repositoryID
        self.done = done
        self.position = position
        self.text = text
        self.issue = issue
        self.due = due
        self.priority = priority
        self.tags = tags
        self.note = note
        self.labels = labels
        self.owner = owner
    }

    /// The lines' part of `record`.
    public init(_ record: TodoRecord) {
        self.init(id: record.id, repositoryID: record.repositoryID, done: record.done, position: record.position,
                  text: record.text, issue: record.issue, due: record.due, priority: record.priority, tags: record.tags,
                  note: record.note, labels: record.labels, owner: record.owner)
    }
}
