import DoogitMerge
import DoogitSupport

/// What a command changes of a todo's details: nil leaves a field as it is.
public struct DetailsEdit: Equatable, Sendable {
    /// `.some(nil)` clears the due date.
    public var due: CalendarDate??
    public var priority: Priority??
    public var addTags: [String]
    public var removeTags: [String]
    public var note: String??
    /// The GitHub login it is assigned to (`.some(nil)`: to nobody).
    public var assignee: String??
    /// Kept private (never shared with its repository's team), or shared again.
    public var keptPrivate: Bool?

    public init(due: CalendarDate?? = nil, priority: Priority?? = nil, addTags: [String] = [], removeTags: [String] = [],
                note: String?? = nil, assignee: String?? = nil, keptPrivate: Bool? = nil) {
        self.due = due
        self.priority = priority
        self.addTags = addTags
        self.removeTags = removeTags
        self.note = note
        self.assignee = assignee
        self.keptPrivate = keptPrivate
    }

    public var isEmpty: Bool { self == DetailsEdit() }
}

/// How `todo list --due` and `next` pick todos by due date: all are "due by" a day.
public enum DueFilter: Equatable, Sendable {
    /// Open and due before today: what is done is never overdue.
    case overdue
    /// Due on or before the day (`today`, `week`: today and the 6 days after it, or a date).
    case by(CalendarDate)
}

/// The filters on details that `todo list` and `next` take. All kinds must hold; within a kind,
/// every tag must (a repeated `--tag` narrows), and any priority or due date may (a repeated
/// `--priority` or `--due` widens).
public struct DetailsFilter: Equatable, Sendable {
    public var tags: [String]
    public var priorities: [Priority]
    public var dues: [DueFilter]
    public var today: CalendarDate?
    /// Only the todos of this GitHub login (`--mine`): assigned to it, or unassigned and added by
    /// it or by nobody known (before authors were kept, or before any sign-in).
    public var mine: String?

    public init(tags: [String] = [], priorities: [Priority] = [], dues: [DueFilter] = [], today: CalendarDate? = nil,
                mine: String? = nil) {
        self.tags = tags
        self.priorities = priorities
        self.dues = dues
        self.today = today
        self.mine = mine
    }

    /// Whether it picks every todo: no tag, priority, due date or owner asked for.
    public var picksAll: Bool { tags.isEmpty && priorities.isEmpty && dues.isEmpty && mine == nil }

    /// The SQL condition that a todo of `t` is `login`'s (see `mine`), with `login` bound once:
    /// whose it is (its assignee, else its author) is nobody known, or `login`. Never NULL.
    static let ownedCondition = "(coalesce(t.assignee, t.author) IS NULL OR coalesce(t.assignee, t.author) = ? COLLATE NOCASE)"

    /// SQL conditions on the todos' table `t`, with their values.
    var conditions: (sql: [String], values: [SQLValue]) {
        var sql: [String] = [], values: [SQLValue] = []
        for tag in tags {
            // Its own tags, or its issue's labels as last seen; without case.
            // One list of IDs from two lookups by index (the tag's todos; the linked todos with
            // labels), so a filtered list reads only the todos it may show, each by its ID.
            sql.append("""
                t.id IN (SELECT tagged.id FROM todo_tags g JOIN todos tagged ON tagged.uuid = g.todo_uuid
                         WHERE g.tag_key = ? AND g.is_on = 1
                         UNION SELECT id FROM todos WHERE seen_labels IS NOT NULL AND seen_labels <> ''
                             AND seen_number = issue_number AND seen_clock = issue_clock
                             AND instr(char(31) || lower(seen_labels) || char(31), char(31) || ? || char(31)) > 0)
                """)
            values += [.text(TagSet.key(tag)), .text(TagSet.key(tag))]
        }
        if !priorities.isEmpty {
            sql.append("t.priority IN (\(priorities.map { _ in "?" }.joined(separator: ", ")))")
            values += priorities.map { .text($0.rawValue) }
        }
        var dueConditions: [String] = []
        for due in dues {
            switch due {
            case .overdue:
                dueConditions.append("(t.done = 0 AND t.due < ?)")
                values.append(.text(today?.text ?? ""))
            case .by(let date):
                dueConditions.append("t.due <= ?")
                values.append(.text(date.text))
            }
        }
        if !dueConditions.isEmpty { sql.append("(" + dueConditions.joined(separator: " OR ") + ")") }
        if let mine {
            sql.append(Self.ownedCondition)
            values.append(.text(mine))
        }
        return (sql, values)
    }
}

extension Store {
    /// One repository's todos in the order of the list (as `sections` gives them): open first,
    /// then by `orderByPressing`, else as they arrived.
    public static func listOrder(_ todos: inout [TodoRecord]) {
        todos.sort { lhs, rhs in
            lhs.done != rhs.done ? !lhs.done : lhs.position != rhs.position ? lhs.position < rhs.position : lhs.id < rhs.id
        }
        orderByPressing(&todos)
    }

    /// Whether the todos are in the order `listOrder` gives them: each key before the next.
    static func isInPressingOrder(_ todos: [TodoRecord]) -> Bool {
        todos.indices.dropFirst().allSatisfy { ListKey.precedes(todos[$0 - 1], todos[$0]) }
    }

    /// Puts a section's todos (open ones first, each part in list order) in the order of what is
    /// pressing: open ones by due date (none last), then priority, keeping list order.
    /// Positions are sorted by small keys, then the records are swapped into place: a record is
    /// large, and moving one costs less than copying it.
    static func orderByPressing(_ todos: inout [TodoRecord]) {
        let open = todos.firstIndex(where: \.done) ?? todos.endIndex
        guard todos[..<open].contains(where: { $0.due != nil || $0.priority != nil }) else { return }
        let keys = todos[..<open].map { (due: $0.due, rank: $0.priority?.rank ?? 3) }
        var order = Array(0..<open)
        order.sort { lhs, rhs in
            let left = keys[lhs], right = keys[rhs]
            if (left.due == nil) != (right.due == nil) { return left.due != nil }
            if let a = left.due, let b = right.due, a != b { return a < b }
            return left.rank != right.rank ? left.rank < right.rank : lhs < rhs
        }
        // The record for place i is at order[i]: follow each cycle of the permutation, swapping.
        todos.withUnsafeMutableBufferPointer { records in
            for start in 0..<open where order[start] != start {
                var place = start
                while order[place] != start {
                    let source = order[place]
                    records.swapAt(place, source)
                    order[place] = place
                    place = source
                }
                order[place] = place
            }
        }
    }

    /// Every live todo's tags, sorted, by the todo's id: one read for a whole listing (ids hash
    /// far faster than UUIDs).
    /// The tags of every todo, or of the todos `conditions` pick (on `t`, the todo, and `r`, its
    /// repository): a filtered list reads only the tags it shows.
    func tagsByTodoID(where conditions: [String] = [], _ values: [SQLValue] = []) throws(StoreError) -> [Int64: [String]] {
        var tags: [Int64: [String]] = [:]
        let repositories = conditions.isEmpty ? "" : " JOIN repositories r ON r.id = t.repository_id"
        _ = try database.query("""
            SELECT t.id, g.tag FROM todo_tags g JOIN todos t ON t.uuid = g.todo_uuid\(repositories)
            WHERE g.is_on = 1\(conditions.map { " AND " + $0 }.joined())
            ORDER BY g.todo_uuid, g.tag_key
            """, values) { row throws(StoreError) in
            tags[try row.int64(0), default: []].append(try row.string(1))
        }
        return tags
    }

    /// Changes a todo's details, each field stamped only when it changed. Returns the todo.
    public func editDetails(id: Int64, _ edit: DetailsEdit, at now: Timestamp) throws -> TodoRecord {
        try database.transaction { () throws(StoreError) -> TodoRecord in
            let before = try requireTodos([id])[0]
            try writeDetails(of: before, edit, at: now)
            return try requireTodos([id])[0]
        }
    }

    /// Assigns the todos to a GitHub login (nil: to nobody); all ids are checked first. Returns
    /// the todos as they are afterwards.
    public func assign(_ ids: [Int64], to login: String?, at now: Timestamp) throws -> [TodoRecord] {
        try database.transaction { () throws(StoreError) -> [TodoRecord] in
            for todo in try requireTodos(ids) { try writeDetails(of: todo, DetailsEdit(assignee: .some(login)), at: now) }
            return try requireTodos(ids)
        }
    }

    /// Writes `edit` over the details `todo` has (inside a transaction).
    func writeDetails(of todo: TodoRecord, _ edit: DetailsEdit, at now: Timestamp) throws(StoreError) {
        var changed: TodoFields = []
        if let due = edit.due, due != todo.due {
            try database.run("UPDATE todos SET due = ? WHERE id = ?", .optional(due?.text), .integer(todo.id))
            changed.insert(.due)
        }
        if let priority = edit.priority, priority != todo.priority {
            try database.run("UPDATE todos SET priority = ? WHERE id = ?", .optional(priority?.rawValue), .integer(todo.id))
            changed.insert(.priority)
        }
        if let note = edit.note, note != todo.note {
            try database.run("UPDATE todos SET note = ? WHERE id = ?", .optional(note), .integer(todo.id))
            changed.insert(.note)
        }
        if let assignee = edit.assignee, assignee != todo.assignee {
            try database.run("UPDATE todos SET assignee = ? WHERE id = ?", .optional(assignee), .integer(todo.id))
            changed.insert(.assignee)
        }
        if let kept = edit.keptPrivate,
           try database.run("UPDATE todos SET kept_private = ?1 WHERE id = ?2 AND kept_private <> ?1", .bool(kept), .integer(todo.id)) > 0 {
            changed.insert(.keptPrivate)
        }
        // Tags added that it lacks (without case); tags and labels of its issue taken off.
        let labels = todo.labels ?? []
        var keys = Set(todo.tags.map(TagSet.key))
        let adding = edit.addTags.filter { keys.insert(TagSet.key($0)).inserted }
        let removing = edit.removeTags.filter { tag in
            (todo.tags + labels).contains { TagSet.key($0) == TagSet.key(tag) } && !adding.contains { TagSet.key($0) == TagSet.key(tag) }
        }
        if !adding.isEmpty || !removing.isEmpty { changed.insert(.tags) }
        guard !changed.isEmpty else { return }
        try database.run("UPDATE todos SET updated_at = ? WHERE id = ?", .text(now.rfc3339), .integer(todo.id))
        guard let stamp = try replica.stamp(changed, todos: [todo.id], at: now), changed.contains(.tags) else { return }
        var tags = try replica.tags(of: todo.uuid)
        let spellings = try labelSpellings(repositoryID: todo.repositoryID)
        tags.add(adding, at: stamp) { spellings[TagSet.key($0)] ?? $0 }
        tags.remove(removing, at: stamp)
        try replica.writeTags(tags, of: todo.uuid)
        try noteLabelChanges(of: todo, adding: adding.map { spellings[TagSet.key($0)] ?? $0 }, removing: removing)
    }

    /// The labels seen on the repository's issues, by folded name: a tag that names one takes
    /// its spelling.
    private func labelSpellings(repositoryID: Int64) throws(StoreError) -> [String: String] {
        var spellings: [String: String] = [:]
        _ = try database.query("""
            SELECT seen_labels FROM todos WHERE repository_id = ? AND seen_labels IS NOT NULL AND seen_labels <> ''
            """, [.integer(repositoryID)]) { row throws(StoreError) in
            for label in TodoReader.labels(try row.string(0)) { spellings[TagSet.key(label)] = label }
        }
        return spellings
    }

    /// With pushing on, the tags added to a linked todo, and the tags and labels taken off it,
    /// wait to be added to or removed from its issue's labels by the next sync: as changes, so
    /// that a label someone else gave the issue meanwhile stays.
    private func noteLabelChanges(of todo: TodoRecord, adding: [String], removing: [String]) throws(StoreError) {
        guard todo.issue != nil, try database.scalarInt("SELECT push_issues FROM repositories WHERE id = ?",
                                                        .integer(todo.repositoryID)) == 1 else { return }
        let labels = todo.labels ?? []
        let onIssue = Set(labels.map(TagSet.key))
        for (names, isAdding) in [(adding, true), (removing, false)] {
            // What the issue has as last seen needs no adding; what it lacks, no taking off.
            for name in names where onIssue.contains(TagSet.key(name)) != isAdding {
                // Taken off: the label as the issue spells it.
                let label = isAdding ? name : labels.first { TagSet.key($0) == TagSet.key(name) } ?? name
                try database.run("DELETE FROM label_changes WHERE todo_uuid = ? AND lower(label) = lower(?)", .text(todo.uuid),
                                 .text(label))
                try database.run("INSERT INTO label_changes (todo_uuid, label, adding) VALUES (?, ?, ?)", .text(todo.uuid),
                                 .text(label), .bool(isAdding))
            }
        }
    }

    /// The tags in use on live todos, with how many todos carry each (for completion and help).
    public func tagsInUse() throws -> [(tag: String, count: Int)] {
        try database.query("""
            SELECT min(tag) AS tag, count(*) AS uses FROM todo_tags WHERE is_on = 1 AND todo_uuid IN (SELECT uuid FROM todos)
            GROUP BY tag_key ORDER BY tag_key
            """) { row throws(StoreError) in (try row.string("tag"), Int(try row.int64("uses"))) }
    }
}

extension Store {
    /// Whether a live todo is kept private (`--private`): never shared with its repository's team.
    public func isKeptPrivate(_ id: Int64) throws -> Bool {
        try database.reading { () throws(StoreError) -> Bool in
            try database.scalarInt("SELECT kept_private FROM todos WHERE id = ?", .integer(id)) == 1
        }
    }
}
