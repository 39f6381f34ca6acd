import DoogitMerge
import DoogitSupport

/// One of the board's issues as this machine last read or wrote it.
public struct BoardIssueRecord: Equatable, Sendable {
    public var part: Int
    public var number: Int64
    public var url: String
    public var body: String
    /// GitHub's `updated_at` of that body.
    public var updatedAt: Timestamp

    public init(part: Int, number: Int64, url: String, body: String, updatedAt: Timestamp) {
        self.part = part
        self.number = number
        self.url = url
        self.body = body
        self.updatedAt = updatedAt
    }
}

/// What this machine knows of the board: its issues, the ETag of their listing, when it read and
/// wrote them last, and what the last read that brought anything brought (in words).
public struct BoardState: Equatable, Sendable {
    public var issues: [BoardIssueRecord]
    public var etag: String?
    public var readAt: Timestamp?
    public var writtenAt: Timestamp?
    public var lastRead: String?
}

extension Store {
    /// Asks every machine of the remote to keep the board, or to stop: written to the remote
    /// by the next exchange.
    public func requestBoard(on: Bool, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE remote SET board_on = ?, board_clock = ? WHERE id = 1", .bool(on),
                             .text(try replica.nextStamp(at: now).text))
        }
    }

    public func boardState() throws -> BoardState? {
        try database.reading { () throws(StoreError) -> BoardState? in
            let issues = try database.query("SELECT part, number, url, body, updated_at FROM board_issues ORDER BY part") {
                row throws(StoreError) in
                BoardIssueRecord(part: Int(try row.int64("part")), number: try row.int64("number"), url: try row.string("url"),
                                 body: try row.string("body"), updatedAt: try Self.timestamp(row, "updated_at"))
            }
            return try database.query("""
                SELECT board_etag, board_read_at, board_written_at, board_last_read FROM remote WHERE id = 1
                """) { row throws(StoreError) in
                BoardState(issues: issues, etag: try row.optionalString("board_etag"),
                           readAt: try Self.optionalTimestamp(row, "board_read_at"),
                           writtenAt: try Self.optionalTimestamp(row, "board_written_at"),
                           lastRead: try row.optionalString("board_last_read"))
            }.first
        }
    }

    /// Records the board's issues as read (or written) now: `issues` replace those known; the
    /// listing's ETag, when the read was, and (when it brought anything) what it brought.
    public func recordBoard(issues: [BoardIssueRecord], etag: String?, readAt: Timestamp?, writtenAt: Timestamp? = nil,
                            lastRead: String? = nil) throws {
        try database.transaction { () throws(StoreError) in
            try database.run("DELETE FROM board_issues")
            for issue in issues {
                try database.run("INSERT INTO board_issues (part, number, url, body, updated_at) VALUES (?, ?, ?, ?, ?)",
                                 .integer(Int64(issue.part)), .integer(issue.number), .text(issue.url), .text(issue.body),
                                 .text(issue.updatedAt.rfc3339))
            }
            try database.run("UPDATE remote SET board_etag = ? WHERE id = 1", .optional(etag))
            if let readAt { try database.run("UPDATE remote SET board_read_at = ? WHERE id = 1", .text(readAt.rfc3339)) }
            if let writtenAt { try database.run("UPDATE remote SET board_written_at = ? WHERE id = 1", .text(writtenAt.rfc3339)) }
            if let lastRead { try database.run("UPDATE remote SET board_last_read = ? WHERE id = 1", .text(lastRead)) }
        }
    }
}

extension ReplicaStore {
    /// This machine's todos, live or removed, whose UUIDs start with one of `prefixes` (8 digits
    /// each, as the board names them), read by the index of UUIDs.
    public func entries(withPrefixes prefixes: Set<String>) throws -> [TodoEntry] {
        try database.reading { () throws(StoreError) -> [TodoEntry] in
            let machine = try clock().machine
            var found: [String: TodoEntry] = [:]
            for prefix in prefixes.sorted() {
                // Every UUID that starts with the digits sorts between them and them followed by `~`.
                let bounds: [SQLValue] = [.text(prefix), .text(prefix + "~")]
                _ = try database.query("SELECT \(TodoRows.liveColumns) FROM todos WHERE uuid >= ? AND uuid < ?", bounds) {
                    row throws(StoreError) in
                    let uuid = try row.string("uuid")
                    found[uuid] = try TodoRows.entry(row, removed: false, machine: machine, commits: try commits(of: uuid))
                }
                _ = try database.query("""
                    SELECT \(TodoRows.removedColumns) FROM todo_tombstones WHERE uuid >= ? AND uuid < ? AND text IS NOT NULL
                    """, bounds) { row throws(StoreError) in
                    let uuid = try row.string("uuid")
                    if found[uuid] == nil {
                        found[uuid] = try TodoRows.entry(row, removed: true, machine: machine, commits: try commits(of: uuid))
                    }
                }
            }
            return found.values.sorted { $0.uuid < $1.uuid }
        }
    }
}
