import DoogitMerge
import DoogitSupport

// How a merge writes rows: live todos inserted in their place by arrival, updated, removed.
extension ReplicaStore {
    /// What a batch of changes learns once: the UUIDs here (nil: asked todo by todo), and the
    /// latest arrival in each repository's list.
    struct Batch {
        var known: Set<String>?
        var arrivals: [Int64: Arrivals] = [:]
    }

    func allUUIDs() throws(StoreError) -> Set<String> {
        Set(try database.query("SELECT uuid FROM todos UNION ALL SELECT uuid FROM todo_tombstones") { row throws(StoreError) in
            try row.string("uuid")
        })
    }

    /// Inserts a live todo, without its link (see `ArrivingLink`), in its place by arrival; its ID.
    /// `arrivals`: the latest arrival known in each repository, for a todo that comes last.
    func insertLive(_ entry: TodoEntry, id: Int64?, at now: Timestamp) throws(StoreError) -> Int64 {
        var arrivals: [Int64: Arrivals] = [:]
        return try insertLive(entry, id: id, at: now, arrivals: &arrivals)
    }

    func insertLive(_ entry: TodoEntry, id: Int64?, at now: Timestamp, arrivals: inout [Int64: Arrivals]) throws(StoreError)
        -> Int64 {
        var row = entry
        row.issue.value = nil
        let repository = entry.repository.value
        var known = arrivals[repository]
        if known == nil {
            known = try database.query("""
                SELECT max(\(Self.arrival)) AS latest, coalesce(max(position), 0) AS position FROM todos WHERE repository_id = ?
                """, [.integer(repository)]) { row throws(StoreError) in
                Arrivals(latest: try row.optionalString("latest") ?? "", position: try row.int64("position"))
            }.first
        }
        let last = known ?? Arrivals(latest: "", position: 0)
        var values: [SQLValue] = [id.map(SQLValue.integer) ?? .null, .text(entry.uuid), .text(entry.createdAt.rfc3339),
                                  .text(now.rfc3339), .integer(last.position + 1)]
        values += TodoRows.values(of: row)
        try database.run(Self.insertion, values)
        let inserted = database.lastInsertedRowID
        // Arriving last in its repository (as todos of a first pull do, in order): at the end.
        let arrival = entry.arrival.text
        if arrival <= last.latest {
            try placeByArrival(inserted)
            arrivals[repository] = nil
        } else {
            arrivals[repository] = Arrivals(latest: arrival, position: last.position + 1)
        }
        return inserted
    }

    /// The latest arrival in a repository's list, and its last position.
    struct Arrivals {
        var latest: String
        var position: Int64
    }

    private static let insertion = """
        INSERT INTO todos (id, uuid, created_at, updated_at, position, \(TodoRows.registerList))
        VALUES (?, ?, ?, ?, ?, \(TodoRows.registerPlaceholders))
        """

    func updateLive(_ entry: TodoEntry, id: Int64, textOrStateChanged: Bool, at now: Timestamp) throws(StoreError) {
        try database.run("""
            UPDATE todos SET \(TodoRows.registerAssignments), created_at = ?,
                updated_at = CASE WHEN ? THEN ? ELSE updated_at END WHERE id = ?
            """, TodoRows.values(of: entry) + [.text(entry.createdAt.rfc3339), .bool(textOrStateChanged), .text(now.rfc3339),
                                               .integer(id)])
    }

    func insertTombstone(_ entry: TodoEntry, id: Int64?, position: Int64, at now: Timestamp) throws(StoreError) {
        try database.run("""
            INSERT OR REPLACE INTO todo_tombstones (uuid, todo_id, removed_at, position, created_at, updated_at, \(TodoRows.registerList))
            VALUES (?, ?, ?, ?, ?, ?, \(TodoRows.registerPlaceholders))
            """, [.text(entry.uuid), id.map(SQLValue.integer) ?? .null, .text(entry.removed.stamp.timestamp.rfc3339),
                  .integer(position), .text(entry.createdAt.rfc3339), .text(now.rfc3339)] + TodoRows.values(of: entry))
        // An ID kept for a restore is never given to a new todo.
        if let id { try keepLocalID(id) }
    }

    /// When a todo arrived in its repository's list (its repository stamp, or its restore's).
    static let arrival = "max(coalesce(repository_clock, ''), coalesce(removed_clock, ''))"

    /// Puts a todo in its repository's list by when it arrived there, then (for todos that
    /// arrived at one stamp) when it was made: the order every machine shows, every day. A todo
    /// added here arrives last anyway.
    func placeByArrival(_ id: Int64) throws(StoreError) {
        let arrival = Self.arrival
        guard let (repositoryID, key, created, uuid) = try database.query("""
            SELECT repository_id, \(arrival) AS arrival, created_at, uuid FROM todos WHERE id = ?
            """, [.integer(id)], { row throws(StoreError) in
            (try row.int64("repository_id"), try row.string("arrival"), try row.string("created_at"), try row.string("uuid"))
        }).first else { return }
        let next = try database.scalarInt("""
            SELECT min(position) FROM todos WHERE repository_id = ?1 AND id <> ?2
                AND (\(arrival) > ?3 OR (\(arrival) = ?3 AND (created_at > ?4 OR (created_at = ?4 AND uuid > ?5))))
            """, .integer(repositoryID), .integer(id), .text(key), .text(created), .text(uuid))
        if let next {
            try database.run("UPDATE todos SET position = position + 1 WHERE repository_id = ? AND position >= ? AND id <> ?",
                             .integer(repositoryID), .integer(next), .integer(id))
            try database.run("UPDATE todos SET position = ? WHERE id = ?", .integer(next), .integer(id))
        } else {
            try database.run("""
                UPDATE todos SET position = (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ? AND id <> ?)
                WHERE id = ?
                """, .integer(repositoryID), .integer(id), .integer(id))
        }
    }
}
