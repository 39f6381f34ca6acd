import DoogitSupport

/// An issue being created for a todo: recorded before the POST, removed once it is linked.
public struct PendingIssue: Equatable, Sendable {
    public enum State: String, Sendable {
        /// The POST is being sent (a row left in this state: doogit stopped meanwhile).
        case sending
        /// The POST may have reached GitHub; its answer was lost.
        case unknown
    }

    public var todoUUID: String
    public var repositoryID: Int64
    public var title: String
    public var body: String
    public var labels: [String]
    public var marker: String
    public var state: State
    public var createdAt: Timestamp

    public init(todoUUID: String, repositoryID: Int64, title: String, body: String, labels: [String], marker: String,
                state: State = .sending, createdAt: Timestamp) {
        self.todoUUID = todoUUID
        self.repositoryID = repositoryID
        self.title = title
        self.body = body
        self.labels = labels
        self.marker = marker
        self.state = state
        self.createdAt = createdAt
    }
}

extension Store {
    public func beginPendingIssue(_ pending: PendingIssue) throws {
        let labels = JSONWriter.write(.array(pending.labels.map(JSONValue.string)))
        try database.transaction { () throws(StoreError) in
            _ = try database.run("""
                INSERT OR REPLACE INTO pending_issues (todo_uuid, repository_id, title, body, labels, marker, state, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, .text(pending.todoUUID), .integer(pending.repositoryID), .text(pending.title), .text(pending.body),
                .text(labels), .text(pending.marker), .text(pending.state.rawValue), .text(pending.createdAt.rfc3339))
        }
    }

    public func markPendingIssueUnknown(todoUUID: String) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE pending_issues SET state = 'unknown' WHERE todo_uuid = ?", .text(todoUUID))
        }
    }

    public func removePendingIssue(todoUUID: String) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("DELETE FROM pending_issues WHERE todo_uuid = ?", .text(todoUUID))
        }
    }

    /// Issues being created, for one todo or all, oldest first.
    public func pendingIssues(todoUUID: String? = nil) throws -> [PendingIssue] {
        try database.query("""
            SELECT todo_uuid, repository_id, title, body, labels, marker, state, created_at FROM pending_issues
            WHERE ? IS NULL OR todo_uuid = ? ORDER BY created_at, todo_uuid
            """, [.optional(todoUUID), .optional(todoUUID)]) { row throws(StoreError) in
            var labels: [String] = []
            if case .array(let values)? = try? JSONParser.parse(try row.string("labels")) {
                labels = values.compactMap { if case .string(let name) = $0 { name } else { nil } }
            }
            return PendingIssue(
                todoUUID: try row.string("todo_uuid"), repositoryID: try row.int64("repository_id"),
                title: try row.string("title"), body: try row.string("body"), labels: labels,
                marker: try row.string("marker"), state: PendingIssue.State(rawValue: try row.string("state")) ?? .unknown,
                createdAt: try Self.timestamp(row, "created_at"))
        }
    }

}
