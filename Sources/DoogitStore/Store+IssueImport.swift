import DoogitMerge
import DoogitSupport

extension Store {
    /// The numbers of every issue of the repository that was ever linked to a todo here.
    public func knownIssueNumbers(repositoryID: Int64) throws -> Set<Int64> {
        Set(try database.query("SELECT issue_number FROM known_issues WHERE repository_id = ?", [.integer(repositoryID)]) {
            row throws(StoreError) in try row.int64("issue_number")
        })
    }

    /// Remembers an issue as belonging to a todo, so import never makes another of it.
    public func rememberIssue(repositoryID: Int64, number: Int64, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            try replica.rememberIssue(repositoryID: repositoryID, number: number, at: now)
        }
    }

    /// Makes a linked todo of an issue, at the end of its repository, unless that issue was
    /// linked here before (even to a todo since removed), or its todo is here already: then nil.
    /// `uuid` is the new todo's: by default the same on every machine (`importedTodoUUID`), so
    /// that machines importing one issue make one todo between them; an issue made by doogit for
    /// a todo names that todo's (its marker), and becomes that todo.
    public func importIssue(repositoryID: Int64, issue: IssueSnapshot, uuid: String? = nil,
                            at now: Timestamp) throws -> TodoRecord? {
        let uuid = uuid ?? Self.importedTodoUUID(repositoryID: repositoryID, issueNumber: issue.number)
        // A todo of this issue made by a doogit that derived its UUID otherwise.
        let legacy = Self.legacyImportedTodoUUID(repositoryID: repositoryID, issueNumber: issue.number)
        return try database.transaction { () throws(StoreError) -> TodoRecord? in
            guard try database.scalarInt("SELECT count(*) FROM known_issues WHERE repository_id = ? AND issue_number = ?",
                                         .integer(repositoryID), .integer(issue.number)) == 0 else { return nil }
            // Its todo came from another machine, and was unlinked there before the link reached this one.
            guard try database.scalarInt("""
                SELECT (SELECT count(*) FROM todos WHERE uuid IN (?1, ?2)) + (SELECT count(*) FROM todo_tombstones WHERE uuid IN (?1, ?2))
                """, .text(uuid), .text(legacy)) == 0 else {
                try replica.rememberIssue(repositoryID: repositoryID, number: issue.number, at: now)
                return nil
            }
            let text = issue.title.trimmingSpaces.isEmpty ? "#\(issue.number)" : issue.title
            let done = issue.state == .closed
            try database.run("""
                INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, .text(uuid), .integer(repositoryID), .text(text), .bool(done), .integer(try nextPosition(inRepository: repositoryID)),
                .text(now.rfc3339), .text(now.rfc3339), done ? .text(now.rfc3339) : .null)
            let id = database.lastInsertedRowID
            guard let stamp = try replica.stamp(TodoFields.added.union(.issue), todos: [id], at: now) else { throw .corrupt }
            try writeLink(todoID: id, issue: issue, stamp: stamp)
            try replica.rememberIssue(repositoryID: repositoryID, number: issue.number, at: now)
            return try requireTodos([id])[0]
        }
    }

    /// The UUID of the todo that importing an issue makes: the same on every machine, made from
    /// the repository's id and the issue's number by a hash (`UUIDv4.named`), so that two
    /// machines importing one issue make one todo, and its first digits are as unique as a random
    /// UUID's (a short `Doogit-Done:` trailer names it).
    public static func importedTodoUUID(repositoryID: Int64, issueNumber: Int64) -> String {
        UUIDv4.named("doogit issue \(repositoryID)#\(issueNumber)")
    }

    /// The UUID an earlier doogit gave an imported issue's todo (the repository's id and the issue's
    /// number as its bits, so its first digits are mostly zeros): recognised, never made.
    public static func legacyImportedTodoUUID(repositoryID: Int64, issueNumber: Int64) -> String {
        let repository = UInt64(bitPattern: repositoryID) & (1 << 60 - 1)
        let number = UInt64(bitPattern: issueNumber) & (1 << 62 - 1)
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let high = hex(repository >> 12, 12), low = hex(number & (1 << 60 - 1), 15)
        return "\(high.prefix(8))-\(high.suffix(4))-8\(hex(repository & 0xFFF, 3))-"
            + "\(hex(0x8 | number >> 60, 1))\(low.prefix(3))-\(low.suffix(12))"
    }
}
