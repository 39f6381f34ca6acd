import DoogitMerge
import DoogitSupport

/// A todo as this machine stores it, live (in `todos`) or removed (in `todo_tombstones`): the
/// replica's entry with every stamp, and its local ID (nil for a removal that arrived from
/// another machine).
struct StoredTodo {
    var id: Int64?
    var entry: TodoEntry
    var isLive: Bool { !entry.isRemoved }
}

/// The columns shared by `todos` and `todo_tombstones` that hold a todo's registers, in the order
/// `TodoRows.values(of:)` gives them.
enum TodoRows {
    static let registerColumns = [
        "repository_id", "text", "done", "done_at", "repository_clock", "text_clock", "done_clock", "removed_clock",
        "issue_number", "issue_url", "issue_clock", "seen_number", "seen_state", "seen_title", "seen_url", "seen_updated_at",
        "seen_at", "seen_clock", "seen_labels", "due", "priority", "note", "due_clock", "priority_clock", "tags_clock", "note_clock",
        "author", "finished_by", "assignee", "author_clock", "finished_by_clock", "assignee_clock", "kept_private", "kept_private_clock",
    ]

    static let registerList = registerColumns.joined(separator: ", ")
    static let registerAssignments = registerColumns.map { "\($0) = ?" }.joined(separator: ", ")
    static let registerPlaceholders = registerColumns.map { _ in "?" }.joined(separator: ", ")

    /// What a row needs to be read back as an entry (with `registerColumns`).
    static let liveColumns = "id, uuid, created_at, updated_at, " + registerList + ", " + tagsColumn
    static let removedColumns = "todo_id AS id, uuid, coalesce(created_at, removed_at) AS created_at, "
        + "coalesce(updated_at, removed_at) AS updated_at, " + registerList + ", " + tagsColumn

    /// A todo's tags as one column, `tags`: each tag's spelling, 1 (on) or 0 (off) and stamp,
    /// separated by U+001F, the tags by U+001E (no tag holds either); `uuid` is the outer row's,
    /// since `todo_tags` has none.
    static let tagsColumn = """
        (SELECT group_concat(tag || char(31) || is_on || char(31) || coalesce(clock, ''), char(30)) FROM todo_tags
         WHERE todo_uuid = uuid) AS tags
        """

    /// Between the names of an issue's labels in `seen_labels` (no label name holds it).
    static let labelSeparator = "\u{1F}"

    static func values(of entry: TodoEntry) -> [SQLValue] {
        let link = entry.issue.value, seen = entry.seen.value
        return [
            .integer(entry.repository.value), .text(entry.text.value), .bool(entry.done.value.done),
            .optional(entry.done.value.doneAt?.rfc3339), .text(entry.repository.stamp.text), .text(entry.text.stamp.text),
            .text(entry.done.stamp.text), optionalStamp(entry.removed.stamp),
            link.map { .integer($0.number) } ?? .null, .optional(link?.url), optionalStamp(entry.issue.stamp),
            seen.map { .integer($0.number) } ?? .null, .optional(seen?.state), .optional(seen?.title), .optional(seen?.url),
            .optional(seen?.updatedAt?.rfc3339), .optional(seen?.seenAt?.text), optionalStamp(entry.seen.stamp),
            .optional(seen?.labels?.joined(separator: labelSeparator)),
            .optional(entry.details.due.value?.text), .optional(entry.details.priority.value?.rawValue),
            .optional(entry.details.note.value), optionalStamp(entry.details.due.stamp), optionalStamp(entry.details.priority.stamp),
            optionalStamp(entry.details.tags.latestStamp ?? .zero), optionalStamp(entry.details.note.stamp),
            .optional(entry.details.author.value), .optional(entry.details.finishedBy.value), .optional(entry.details.assignee.value),
            optionalStamp(entry.details.author.stamp), optionalStamp(entry.details.finishedBy.stamp),
            optionalStamp(entry.details.assignee.stamp), .bool(entry.details.keptPrivate.value),
            optionalStamp(entry.details.keptPrivate.stamp),
        ]
    }

    /// NULL stands for the zero stamp: a field never written (never removed, never linked).
    static func optionalStamp(_ stamp: HybridTimestamp) -> SQLValue {
        stamp == .zero ? .null : .text(stamp.text)
    }

    /// A stamp column; a missing one (a row no stamping method wrote) counts as made here when
    /// the row last changed.
    static func stamp(_ row: Row, _ column: String, fallback: Timestamp, machine: String) throws(StoreError) -> HybridTimestamp {
        if let text = try row.optionalString(column) {
            guard let stamp = HybridTimestamp(text: text) else { throw .corrupt }
            return stamp
        }
        return HybridTimestamp(wall: fallback.millisecondsSinceEpoch, counter: 0, machine: machine)
    }

    static func optionalStamp(_ row: Row, _ column: String) throws(StoreError) -> HybridTimestamp {
        guard let text = try row.optionalString(column) else { return .zero }
        guard let stamp = HybridTimestamp(text: text) else { throw .corrupt }
        return stamp
    }

    /// The entry of a row read with `liveColumns` or `removedColumns`.
    static func entry(_ row: Row, removed: Bool, machine: String, commits: Set<String>) throws(StoreError) -> TodoEntry {
        let updated = try Store.timestamp(row, "updated_at")
        var removal = Register(removed, at: try optionalStamp(row, "removed_clock"))
        if removed && removal.stamp == .zero {
            // Removed before stamps existed: as removed here when it last changed.
            removal.stamp = HybridTimestamp(wall: updated.millisecondsSinceEpoch, counter: 0, machine: machine)
        }
        var link: LinkedIssue?
        if !(try row.isNull("issue_number")), let url = try row.optionalString("issue_url") {
            link = LinkedIssue(number: try row.int64("issue_number"), repository: try row.int64("repository_id"), url: url)
        }
        var seen: IssueObservation?
        if !(try row.isNull("seen_number")), let state = try row.optionalString("seen_state"), IssueObservation.states.contains(state),
           let url = try row.optionalString("seen_url") {
            var seenAt: HybridTimestamp?
            if let text = try row.optionalString("seen_at") {
                guard let stamp = HybridTimestamp(text: text) else { throw .corrupt }
                seenAt = stamp
            }
            seen = IssueObservation(number: try row.int64("seen_number"), state: state, title: try row.optionalString("seen_title"),
                                    url: url, updatedAt: try Store.optionalTimestamp(row, "seen_updated_at"), seenAt: seenAt,
                                    labels: try row.optionalString("seen_labels").map {
                                        $0.isEmpty ? [] : $0.split(separator: labelSeparator).map(String.init)
                                    })
        }
        var linkStamp = try optionalStamp(row, "issue_clock")
        if link != nil && linkStamp == .zero { linkStamp = HybridTimestamp(wall: updated.millisecondsSinceEpoch, counter: 0, machine: machine) }
        return TodoEntry(
            uuid: try row.string("uuid"), createdAt: try Store.timestamp(row, "created_at"),
            repository: Register(try row.int64("repository_id"), at: try stamp(row, "repository_clock", fallback: updated, machine: machine)),
            text: Register(try row.string("text"), at: try stamp(row, "text_clock", fallback: updated, machine: machine)),
            done: Register(DoneState(doneAt: try Store.optionalTimestamp(row, "done_at")),
                           at: try stamp(row, "done_clock", fallback: updated, machine: machine)),
            removed: removal, issue: Register(link, at: linkStamp),
            seen: Register(seen, at: try optionalStamp(row, "seen_clock")), commits: commits, details: try details(row))
    }

    /// Due date, priority, tags, note, who and privacy of a row read with `liveColumns` or `removedColumns`.
    static func details(_ row: Row) throws(StoreError) -> TodoDetails {
        var due: CalendarDate?
        if let text = try row.optionalString("due") {
            guard let date = CalendarDate(text: text) else { throw .corrupt }
            due = date
        }
        var states: [String: TagState] = [:]
        for tag in (try row.optionalString("tags") ?? "").split(separator: "\u{1E}") {
            let parts = tag.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty else { throw .corrupt }
            var stamp = HybridTimestamp.zero
            if !parts[2].isEmpty {
                guard let read = HybridTimestamp(text: String(parts[2])) else { throw .corrupt }
                stamp = read
            }
            let spelling = String(parts[0])
            states[TagSet.key(spelling)] = TagState(spelling: spelling, isOn: parts[1] == "1", stamp: stamp)
        }
        return TodoDetails(due: Register(due, at: try optionalStamp(row, "due_clock")),
                           priority: Register(try row.optionalString("priority").flatMap(Priority.init(rawValue:)),
                                              at: try optionalStamp(row, "priority_clock")),
                           tags: TagSet(states: states),
                           note: Register(try row.optionalString("note"), at: try optionalStamp(row, "note_clock")),
                           author: try login(row, "author"), finishedBy: try login(row, "finished_by"),
                           assignee: try login(row, "assignee"),
                           keptPrivate: Register(try row.bool("kept_private"), at: try optionalStamp(row, "kept_private_clock")))
    }

    /// A login column and its stamp (`author` and `author_clock`).
    private static func login(_ row: Row, _ column: String) throws(StoreError) -> Register<String?> {
        let login = try row.optionalString(column)
        if let login, !GitHubLogin.isValid(login) { throw .corrupt }
        return Register(login, at: try optionalStamp(row, column + "_clock"))
    }
}

extension ReplicaStore {
    /// One todo as stored here, live or removed; nil when this machine has never had it.
    func stored(_ uuid: String, machine: String) throws(StoreError) -> StoredTodo? {
        let commits = try self.commits(of: uuid)
        if let live = try database.query("SELECT \(TodoRows.liveColumns) FROM todos WHERE uuid = ?", [.text(uuid)], {
            row throws(StoreError) in
            StoredTodo(id: try row.int64("id"), entry: try TodoRows.entry(row, removed: false, machine: machine, commits: commits))
        }).first { return live }
        return try database.query("""
            SELECT \(TodoRows.removedColumns) FROM todo_tombstones WHERE uuid = ? AND text IS NOT NULL
            """, [.text(uuid)]) { row throws(StoreError) in
            StoredTodo(id: try row.isNull("id") ? nil : try row.int64("id"),
                       entry: try TodoRows.entry(row, removed: true, machine: machine, commits: commits))
        }.first
    }

    /// The commits whose trailer named the todo.
    func commits(of uuid: String) throws(StoreError) -> Set<String> {
        Set(try database.query("SELECT sha FROM todo_commits WHERE todo_uuid = ?", [.text(uuid)]) { row throws(StoreError) in
            try row.string("sha")
        })
    }

    /// A todo's tags, on and off, each with its stamp.
    func tags(of uuid: String) throws(StoreError) -> TagSet {
        var states: [String: TagState] = [:]
        _ = try database.query("SELECT tag, tag_key, is_on, clock FROM todo_tags WHERE todo_uuid = ?", [.text(uuid)]) {
            row throws(StoreError) in
            let stamp = try TodoRows.optionalStamp(row, "clock")
            states[try row.string("tag_key")] = TagState(spelling: try row.string("tag"), isOn: try row.bool("is_on"), stamp: stamp)
        }
        return TagSet(states: states)
    }

    /// Writes a todo's tags (on and off, each with its stamp) over those it had.
    func writeTags(_ tags: TagSet, of uuid: String) throws(StoreError) {
        try database.run("DELETE FROM todo_tags WHERE todo_uuid = ?", .text(uuid))
        for (key, state) in tags.states.sorted(by: { $0.key < $1.key }) {
            try database.run("INSERT INTO todo_tags (todo_uuid, tag, tag_key, is_on, clock) VALUES (?, ?, ?, ?, ?)", .text(uuid),
                             .text(state.spelling), .text(key), .bool(state.isOn), TodoRows.optionalStamp(state.stamp))
        }
    }

    func recordCommits(_ commits: Set<String>, of uuid: String) throws(StoreError) {
        for sha in commits.sorted() {
            try database.run("INSERT OR IGNORE INTO todo_commits (todo_uuid, sha) VALUES (?, ?)", .text(uuid), .text(sha))
        }
    }
}
