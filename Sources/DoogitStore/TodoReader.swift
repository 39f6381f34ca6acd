import DoogitMerge
import DoogitSupport

/// Reads todos from rows that have `Store.todoColumns` (or `listColumns`, or `ownColumns` with the
/// repository's name given): the columns are found by name at the first row and read by position
/// after it, since a listing reads thousands of rows of one statement.
struct TodoReader {
    private struct Columns {
        let id, uuid, repositoryID, text, done, position, createdAt, updatedAt, doneAt: Int32
        /// nil where the caller knows the repository's name (a read without the repositories).
        let fullName: Int32?
        let issueNumber, issueURL, issueState, issueLabels, due, priority, note, author, finishedBy, assignee: Int32
        /// nil where the tags are read apart (`listColumns`).
        let tags: Int32?
        /// The labels this machine takes off the issue at the next sync (nil: not read).
        let labelsLeaving: Int32?

        init(_ row: Row) throws(StoreError) {
            id = try row.index("todo_id")
            uuid = try row.index("uuid")
            repositoryID = try row.index("repository_id")
            fullName = row.position(of: "full_name")
            text = try row.index("text")
            done = try row.index("done")
            position = try row.index("position")
            createdAt = try row.index("created_at")
            updatedAt = try row.index("updated_at")
            doneAt = try row.index("done_at")
            issueNumber = try row.index("issue_number")
            issueURL = try row.index("issue_url")
            issueState = try row.index("issue_state")
            issueLabels = try row.index("issue_labels")
            due = try row.index("due")
            priority = try row.index("priority")
            note = try row.index("note")
            author = try row.index("author")
            finishedBy = try row.index("finished_by")
            assignee = try row.index("assignee")
            tags = row.position(of: "tags")
            labelsLeaving = row.position(of: "labels_leaving")
        }
    }

    private var columns: Columns?
    /// The repository name of the row before: rows come grouped by repository, and one string
    /// shared by all of them costs no allocation per row.
    private var lastFullName = ""

    private mutating func columns(of row: Row) throws(StoreError) -> Columns {
        if let columns { return columns }
        let found = try Columns(row)
        columns = found
        return found
    }

    /// The todo of `row`; `tags` (sorted) stand for the row's `tags` column when given, and
    /// `repositoryFullName` for its `full_name` column, which a row then need not have.
    mutating func read(_ row: Row, tags: [String]? = nil, repositoryFullName: String? = nil) throws(StoreError) -> TodoRecord {
        let c = try columns(of: row)
        let name: String
        if let repositoryFullName { name = repositoryFullName } else { name = try fullName(row, c.fullName) }
        return TodoRecord(
            id: try row.int64(c.id), uuid: try row.string(c.uuid), repositoryID: try row.int64(c.repositoryID),
            repositoryFullName: name, text: try row.string(c.text),
            done: try row.bool(c.done), position: try row.int64(c.position),
            createdAt: try row.timestamp(c.createdAt), updatedAt: try row.timestamp(c.updatedAt),
            doneAt: try row.optionalTimestamp(c.doneAt), issue: try Self.issueLink(row, c),
            due: row.withText(c.due, CalendarDate.init(utf8:)), priority: row.withText(c.priority, Priority.init(utf8:)),
            tags: tags ?? Self.tags(row, c), note: row.optionalString(c.note), labels: Self.labels(row, c),
            author: row.optionalString(c.author), finishedBy: row.optionalString(c.finishedBy), assignee: row.optionalString(c.assignee))
    }

    /// The ID of the repository of `row`'s todo, read before the todo is.
    mutating func repositoryID(_ row: Row) throws(StoreError) -> Int64 {
        try row.int64(try columns(of: row).repositoryID)
    }

    /// The todo of `row` as a list shows it: what a `TodoRecord` has less its UUID, repository
    /// name and times, which are not read.
    mutating func readLine(_ row: Row) throws(StoreError) -> TodoLine {
        let c = try columns(of: row)
        return TodoLine(
            id: try row.int64(c.id), repositoryID: try row.int64(c.repositoryID), done: try row.bool(c.done),
            position: try row.int64(c.position), text: try row.string(c.text), issue: try Self.issueLink(row, c),
            due: row.withText(c.due, CalendarDate.init(utf8:)), priority: row.withText(c.priority, Priority.init(utf8:)),
            tags: Self.tags(row, c), note: row.optionalString(c.note), labels: Self.labels(row, c),
            owner: row.optionalString(c.assignee) ?? row.optionalString(c.author))
    }

    /// The names of the row's `tags` column (joined by spaces), sorted without case.
    private static func tags(_ row: Row, _ c: Columns) -> [String] {
        guard let column = c.tags, let text = row.optionalString(column) else { return [] }
        return text.utf8.contains(UInt8(ascii: " "))
            ? text.split(separator: " ").map(String.init).sorted { TagSet.key($0) < TagSet.key($1) } : [text]
    }

    /// The issue's labels of the row as the list shows them (nil: none known).
    private static func labels(_ row: Row, _ c: Columns) -> [String]? {
        row.optionalString(c.issueLabels).map { labels($0, leaving: c.labelsLeaving.flatMap(row.optionalString)) }
    }

    private mutating func fullName(_ row: Row, _ column: Int32?) throws(StoreError) -> String {
        guard let column else { throw .unknownColumn("full_name") }
        if row.textEquals(column, lastFullName) { return lastFullName }
        lastFullName = try row.string(column)
        return lastFullName
    }

    /// The names of `seen_labels` less those this machine takes off the issue at the next sync
    /// (`leaving`, joined as they are): a label untagged here no longer shows meanwhile.
    static func labels(_ text: String, leaving: String?) -> [String] {
        let shown = labels(text)
        guard let leaving, !leaving.isEmpty else { return shown }
        let gone = Set(labels(leaving).map(TagSet.key))
        return shown.filter { !gone.contains(TagSet.key($0)) }
    }

    /// The names of `seen_labels`, sorted without case.
    static func labels(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: TodoRows.labelSeparator).map(String.init).sorted { TagSet.key($0) < TagSet.key($1) }
    }

    /// The linked issue of `row`; a link with missing parts is no link.
    private static func issueLink(_ row: Row, _ c: Columns) throws(StoreError) -> IssueLink? {
        guard !row.isNull(c.issueNumber), let url = row.optionalString(c.issueURL) else { return nil }
        return IssueLink(number: try row.int64(c.issueNumber), url: url,
                         state: row.optionalString(c.issueState).flatMap(IssueState.init(rawValue:)))
    }
}
