import DoogitMerge
import DoogitSupport

/// The stamps of a todo's fields (see `TodoFields`); `removed` and `issue` are
/// `HybridTimestamp.zero` for a todo never removed, never linked.
public struct TodoStamps: Equatable, Sendable {
    public var repository: HybridTimestamp
    public var text: HybridTimestamp
    public var done: HybridTimestamp
    public var removed: HybridTimestamp
    public var issue: HybridTimestamp

    public init(repository: HybridTimestamp, text: HybridTimestamp, done: HybridTimestamp, removed: HybridTimestamp,
                issue: HybridTimestamp = .zero) {
        self.repository = repository
        self.text = text
        self.done = done
        self.removed = removed
        self.issue = issue
    }

    var latest: HybridTimestamp { max(repository, text, done, removed, issue) }
}

/// A todo as another copy of the list has it, identified by UUID: what merging with another
/// machine, importing a file and reading GitHub issues bring in.
public struct TodoState: Equatable, Sendable {
    public var uuid: String
    public var repositoryID: Int64
    public var text: String
    public var done: Bool
    public var createdAt: Timestamp
    public var updatedAt: Timestamp
    public var doneAt: Timestamp?
    /// The local ID to give a todo new to this machine, when it is free (an import of this
    /// machine's own export keeps its IDs); otherwise the next one.
    public var preferredID: Int64?
    /// The todo is removed there: here it becomes (or stays) a removed todo with these values.
    public var removed: Bool
    /// Its GitHub issue there (only from a merge: a state without stamps leaves links alone).
    public var issue: LinkedIssue?
    /// The stamps of its fields where it comes from. nil: the change is made here and now, and
    /// stamped as a local change.
    public var stamps: TodoStamps?
    /// The stamps this machine held when the merge that produced this state read its list (nil:
    /// it did not have the todo). A field changed here since then keeps its newer local value.
    public var expected: TodoStamps?

    public init(uuid: String, repositoryID: Int64, text: String, done: Bool, createdAt: Timestamp,
                updatedAt: Timestamp, doneAt: Timestamp?, preferredID: Int64? = nil, removed: Bool = false,
                issue: LinkedIssue? = nil, stamps: TodoStamps? = nil, expected: TodoStamps? = nil) {
        self.uuid = uuid
        self.repositoryID = repositoryID
        self.text = text
        self.done = done
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.doneAt = doneAt
        self.preferredID = preferredID
        self.removed = removed
        self.issue = issue
        self.stamps = stamps
        self.expected = expected
    }
}

/// A repository as a merged copy of the list has it, identified by GitHub's id.
public struct RepositoryState: Equatable, Sendable {
    public var id: Int64
    public var fullName: String
    public var url: String
    public var nameStamp: HybridTimestamp
    public var tracked: Bool
    public var trackedStamp: HybridTimestamp
    public var settings: SharedSettings
    /// `HybridTimestamp.zero`: no machine set them.
    public var settingsStamp: HybridTimestamp
    /// Whether the list shows it: tracked, or still holding a todo that is not removed.
    public var shown: Bool
    /// The stamps (name, tracked, settings) this machine held when the merge read its list; nil:
    /// it did not know the repository. A field changed here since keeps its local value.
    public var expectedNameStamp: HybridTimestamp?
    public var expectedTrackedStamp: HybridTimestamp?
    public var expectedSettingsStamp: HybridTimestamp?
    /// What is known of it from GitHub, for a repository new here (an import of an export);
    /// sync refreshes it from GitHub anyway.
    public var details: TodoFile.RepositoryDetails?

    public init(id: Int64, fullName: String, url: String, nameStamp: HybridTimestamp, tracked: Bool,
                trackedStamp: HybridTimestamp, settings: SharedSettings = .defaults, settingsStamp: HybridTimestamp = .zero,
                shown: Bool, expectedNameStamp: HybridTimestamp? = nil, expectedTrackedStamp: HybridTimestamp? = nil,
                expectedSettingsStamp: HybridTimestamp? = nil, details: TodoFile.RepositoryDetails? = nil) {
        self.id = id
        self.fullName = fullName
        self.url = url
        self.nameStamp = nameStamp
        self.tracked = tracked
        self.trackedStamp = trackedStamp
        self.settings = settings
        self.settingsStamp = settingsStamp
        self.shown = shown
        self.expectedNameStamp = expectedNameStamp
        self.expectedTrackedStamp = expectedTrackedStamp
        self.expectedSettingsStamp = expectedSettingsStamp
        self.details = details
    }
}

/// A batch of changes to apply at once.
public struct StoreChanges: Equatable, Sendable {
    public var repositories: [RepositoryRecord]
    /// Repositories from a merge, with their stamps.
    public var repositoryStates: [RepositoryState]
    public var todos: [TodoState]
    /// UUIDs of todos removed elsewhere.
    public var removedTodos: [String]

    public init(repositories: [RepositoryRecord] = [], repositoryStates: [RepositoryState] = [], todos: [TodoState] = [],
                removedTodos: [String] = []) {
        self.repositories = repositories
        self.repositoryStates = repositoryStates
        self.todos = todos
        self.removedTodos = removedTodos
    }

    public var isEmpty: Bool { repositories.isEmpty && repositoryStates.isEmpty && todos.isEmpty && removedTodos.isEmpty }
}

/// What applying a batch did.
public struct AppliedChanges: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var removed = 0

    public init() {}
}

extension Store {
    /// Inserts or updates repositories (by GitHub id) and todos (by UUID), and removes todos (by
    /// UUID), all in one transaction: every change or none. A todo whose state is already the
    /// one given is left alone; a new one goes at the end of its repository, with its preferred
    /// local ID when that is free. A removal leaves a tombstone; an inserted todo clears one.
    ///
    /// A state without stamps is a change made here now, stamped as a local change. A state with
    /// stamps (a merge's result) is written field by field, each field only where this machine
    /// has not changed it since the merge read it, and todos take their place in their
    /// repository's list by when they arrived there, the same order on every machine.
    @discardableResult
    public func apply(_ changes: StoreChanges, at now: Timestamp) throws -> AppliedChanges {
        try database.transaction { () throws(StoreError) -> AppliedChanges in
            // The stamps written here are seen first: a change made here from now on (the next
            // command, or a link this apply drops) is stamped after them, so it wins over them,
            // and a todo added next comes last in its repository's list, as on every other machine.
            var latest = HybridTimestamp.zero
            for todo in changes.todos {
                if let stamps = todo.stamps { latest = max(latest, stamps.latest) }
            }
            for state in changes.repositoryStates { latest = max(latest, state.nameStamp, state.trackedStamp, state.settingsStamp) }
            if latest != .zero { try observe(latest) }
            var applied = AppliedChanges()
            for repository in changes.repositories { try upsert(repository) }
            for state in changes.repositoryStates where state.shown { try showRepository(state, at: now) }
            let machine = try clock().machine
            var links: [ArrivingLink] = []
            for todo in changes.todos {
                if let stamps = todo.stamps {
                    try applyStamped(todo, stamps: stamps, machine: machine, at: now, into: &applied, links: &links)
                } else {
                    try applyLocal(todo, at: now, into: &applied)
                }
            }
            // Links new to their todos last, once every link that left a todo has left it: an
            // issue is linked to one todo at a time.
            for link in links { try linkArriving(link, at: now) }
            for uuid in changes.removedTodos {
                applied.removed += try entomb(where: "uuid = ?", [.text(uuid)], at: now)
            }
            for state in changes.repositoryStates where !state.shown { try hideRepository(state, at: now) }
            return applied
        }
    }

    /// A change made here: written as given, and the fields it changed stamped now.
    private func applyLocal(_ todo: TodoState, at now: Timestamp, into applied: inout AppliedChanges) throws(StoreError) {
        let doneAt: Timestamp? = todo.done ? (todo.doneAt ?? todo.updatedAt) : nil
        if let existing = try database.query("SELECT \(Self.todoColumns) FROM todos t JOIN repositories r ON r.id = t.repository_id WHERE t.uuid = ?",
                                             [.text(todo.uuid)], { row throws(StoreError) in try Self.readTodo(row) }).first {
            // As `moveTodos`: a linked issue belongs to the repository the todo leaves.
            if existing.repositoryID != todo.repositoryID && existing.issue != nil {
                try database.run("UPDATE todos SET \(Self.unlinkedColumns) WHERE id = ?", .integer(existing.id))
            }
            let changed = try database.run("""
                UPDATE todos SET repository_id = ?, text = ?, done = ?, done_at = ?, created_at = ?, updated_at = ?,
                    position = CASE WHEN repository_id = ? THEN position
                        ELSE (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?) END
                WHERE id = ? AND NOT (repository_id = ? AND text = ? AND done = ? AND done_at IS ?
                                      AND created_at = ? AND updated_at = ?)
                """, [.integer(todo.repositoryID), .text(todo.text), .bool(todo.done), .optional(doneAt?.rfc3339),
                      .text(todo.createdAt.rfc3339), .text(todo.updatedAt.rfc3339), .integer(todo.repositoryID),
                      .integer(todo.repositoryID), .integer(existing.id), .integer(todo.repositoryID), .text(todo.text),
                      .bool(todo.done), .optional(doneAt?.rfc3339), .text(todo.createdAt.rfc3339),
                      .text(todo.updatedAt.rfc3339)])
            var fields: TodoFields = []
            if existing.repositoryID != todo.repositoryID { fields.insert(.repository) }
            if fields.contains(.repository) && existing.issue != nil { fields.insert(.issue) }
            if existing.text != todo.text { fields.insert(.text) }
            if existing.done != todo.done || existing.doneAt != doneAt { fields.insert(.done) }
            try stamp(fields, todos: [existing.id], at: now)
            applied.updated += changed
            return
        }
        let wasRemoved = try database.scalarInt("SELECT count(*) FROM todo_tombstones WHERE uuid = ?", .text(todo.uuid)) == 1
        try database.run("""
            INSERT INTO todos (id, uuid, repository_id, text, done, position, created_at, updated_at, done_at)
            VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?), ?, ?, ?)
            """, [try freeLocalID(todo.preferredID).map(SQLValue.integer) ?? .null, .text(todo.uuid), .integer(todo.repositoryID),
                  .text(todo.text), .bool(todo.done), .integer(todo.repositoryID), .text(todo.createdAt.rfc3339),
                  .text(todo.updatedAt.rfc3339), .optional(doneAt?.rfc3339)])
        try stamp(wasRemoved ? TodoFields.added.union(.removed) : .added, todos: [database.lastInsertedRowID], at: now)
        try database.run("DELETE FROM todo_tombstones WHERE uuid = ?", .text(todo.uuid))
        applied.inserted += 1
    }

    /// `id` when it is a positive ID no todo has, else nil (the next one is taken).
    private func freeLocalID(_ id: Int64?) throws(StoreError) -> Int64? {
        guard let id, id > 0 else { return nil }
        return try database.scalarInt("SELECT count(*) FROM todos WHERE id = ?", .integer(id)) == 0 ? id : nil
    }

    /// A todo's values and stamps as this machine holds them, live or removed.
    private struct HeldTodo {
        var id: Int64?
        var repositoryID: Int64
        var text: String
        var doneAt: Timestamp?
        var createdAt: Timestamp
        var issue: LinkedIssue?
        var stamps: TodoStamps
    }

    private func heldTodo(_ uuid: String, removed: Bool, machine: String) throws(StoreError) -> HeldTodo? {
        let sql = removed
            ? """
              SELECT todo_id AS id, repository_id, text, done_at, created_at, coalesce(updated_at, removed_at) AS updated_at,
                     repository_clock, text_clock, done_clock, removed_clock, issue_number, issue_url, issue_state, issue_clock
              FROM todo_tombstones WHERE uuid = ? AND text IS NOT NULL
              """
            : """
              SELECT id, repository_id, text, done_at, created_at, updated_at, repository_clock, text_clock, done_clock,
                     removed_clock, issue_number, issue_url, issue_state, issue_clock FROM todos WHERE uuid = ?
              """
        return try database.query(sql, [.text(uuid)]) { row throws(StoreError) -> HeldTodo in
            let updated = try Self.timestamp(row, "updated_at")
            let (issue, issueStamp) = try Self.linkedIssue(row, machine: machine)
            return HeldTodo(
                id: try row.isNull("id") ? nil : try row.int64("id"), repositoryID: try row.int64("repository_id"),
                text: try row.string("text"), doneAt: try Self.optionalTimestamp(row, "done_at"),
                createdAt: try Self.timestamp(row, "created_at"), issue: issue,
                stamps: TodoStamps(repository: try Self.stamp(row, "repository_clock", fallback: updated, machine: machine),
                                   text: try Self.stamp(row, "text_clock", fallback: updated, machine: machine),
                                   done: try Self.stamp(row, "done_clock", fallback: updated, machine: machine),
                                   removed: try row.isNull("removed_clock") ? .zero
                                       : try Self.stamp(row, "removed_clock", fallback: updated, machine: machine),
                                   issue: issueStamp))
        }.first
    }

    /// Whether a field may take the incoming write: it differs, and this machine has not changed
    /// the field since the merge read it (without that knowledge, the later write wins).
    private static func takes(_ incoming: HybridTimestamp, over held: HybridTimestamp, expected: HybridTimestamp?) -> Bool {
        incoming != held && (expected.map { $0 == held } ?? (incoming > held))
    }

    private func applyStamped(_ todo: TodoState, stamps: TodoStamps, machine: String, at now: Timestamp,
                              into applied: inout AppliedChanges, links: inout [ArrivingLink]) throws(StoreError) {
        let expected = todo.expected
        let doneAt: Timestamp? = todo.done ? (todo.doneAt ?? todo.updatedAt) : nil
        let live = try heldTodo(todo.uuid, removed: false, machine: machine)
        let removed = live == nil ? try heldTodo(todo.uuid, removed: true, machine: machine) : nil
        guard let held = live ?? removed else {
            // A link to another repository's issue (see below) is dropped, as a change of this machine's.
            let validLink = todo.issue.map { $0.repository == todo.repositoryID } ?? true
            var placed = stamps
            if !validLink { placed.issue = try nextStamp(at: now) }
            if todo.removed {
                try insertTombstone(todo, stamps: placed, doneAt: doneAt, at: now)
                try writeRemovedLink(validLink ? todo.issue : nil, stamp: placed.issue, uuid: todo.uuid, at: now)
                applied.removed += 1
            } else {
                try insertLive(todo, stamps: placed, doneAt: doneAt, id: try freeLocalID(todo.preferredID), at: now)
                if validLink, let issue = todo.issue { links.append(ArrivingLink(uuid: todo.uuid, issue: issue, stamp: stamps.issue)) }
                applied.inserted += 1
            }
            return
        }
        // Field by field: the incoming value where it may be taken, else the one held here.
        var merged = held
        let takesRepository = Self.takes(stamps.repository, over: held.stamps.repository, expected: expected?.repository)
        if takesRepository { merged.repositoryID = todo.repositoryID; merged.stamps.repository = stamps.repository }
        let takesText = Self.takes(stamps.text, over: held.stamps.text, expected: expected?.text)
        if takesText {
            merged.text = todo.text
            merged.stamps.text = stamps.text
        }
        let takesDone = Self.takes(stamps.done, over: held.stamps.done, expected: expected?.done)
        if takesDone {
            merged.doneAt = doneAt
            merged.stamps.done = stamps.done
        }
        let takesRemoval = Self.takes(stamps.removed, over: held.stamps.removed, expected: expected?.removed)
        if takesRemoval { merged.stamps.removed = stamps.removed }
        if Self.takes(stamps.issue, over: held.stamps.issue, expected: expected?.issue) {
            merged.issue = todo.issue
            merged.stamps.issue = stamps.issue
        }
        let endsRemoved = takesRemoval ? todo.removed : live == nil
        // A link to an issue of the repository the todo left (moved on one machine while linked
        // on another) is dropped here, as a move drops it; the drop is a change of this machine's.
        var dropsLink = false
        if let issue = merged.issue, issue.repository != merged.repositoryID {
            merged.issue = nil
            dropsLink = true
        }
        let linkChanged = merged.issue != held.issue || merged.stamps.issue != held.stamps.issue

        switch (live != nil, endsRemoved) {
        case (true, _):
            guard let id = held.id else { return }
            guard merged.repositoryID != held.repositoryID || merged.text != held.text || merged.doneAt != held.doneAt
                || merged.stamps != held.stamps || dropsLink else { return }
            // A link that leaves goes first, so that no other todo finds its issue taken.
            let sameIssue = merged.issue.map { $0.number == held.issue?.number && $0.repository == held.issue?.repository } ?? false
            if linkChanged && !sameIssue {
                try database.run("UPDATE todos SET \(Self.unlinkedColumns), issue_clock = ? WHERE id = ?",
                                 Self.removalValue(merged.stamps.issue), .integer(id))
            }
            try database.run("""
                UPDATE todos SET repository_id = ?, text = ?, done = ?, done_at = ?, updated_at = ?, repository_clock = ?,
                    text_clock = ?, done_clock = ?, removed_clock = ? WHERE id = ?
                """, [.integer(merged.repositoryID), .text(merged.text), .bool(merged.doneAt != nil),
                      .optional(merged.doneAt?.rfc3339), .text(now.rfc3339), .text(merged.stamps.repository.text),
                      .text(merged.stamps.text.text), .text(merged.stamps.done.text), Self.removalValue(merged.stamps.removed),
                      .integer(id)])
            if sameIssue, let issue = merged.issue {
                // The same issue, seen elsewhere in another state or at another address. A text or
                // state that came from there is that machine's to push: the baseline follows it.
                try database.run("""
                    UPDATE todos SET issue_state = ?, issue_url = ?, issue_clock = ?,
                        issue_synced_text = CASE WHEN ? THEN text ELSE issue_synced_text END,
                        issue_synced_done = CASE WHEN ? THEN done ELSE issue_synced_done END
                    WHERE id = ?
                    """, .text(issue.state), .text(issue.url), .text(merged.stamps.issue.text), .bool(takesText),
                    .bool(takesDone), .integer(id))
            }
            if dropsLink { try stamp(.issue, todos: [id], at: now) }
            if endsRemoved {
                applied.removed += try entomb(where: "id = ?", [.integer(id)], at: now, stamp: merged.stamps.removed)
                if !sameIssue, let issue = merged.issue {
                    try writeRemovedLink(issue, stamp: merged.stamps.issue, uuid: todo.uuid, at: now)
                }
                return
            }
            if !sameIssue, let issue = merged.issue { links.append(ArrivingLink(uuid: todo.uuid, issue: issue, stamp: merged.stamps.issue)) }
            if merged.repositoryID != held.repositoryID || merged.stamps.removed != held.stamps.removed {
                try placeByArrival(id)
            }
            applied.updated += 1
        case (false, false):
            // Restored elsewhere: back with its local ID when that is still free.
            try database.run("DELETE FROM todo_tombstones WHERE uuid = ?", .text(todo.uuid))
            var state = todo
            state.repositoryID = merged.repositoryID
            state.text = merged.text
            var id = try freeLocalID(held.id)
            if id == nil { id = try freeLocalID(todo.preferredID) }
            var placed = merged.stamps
            if dropsLink { placed.issue = .zero }
            try insertLive(state, stamps: placed, doneAt: merged.doneAt, id: id, at: now)
            if dropsLink { try stamp(.issue, todos: [database.lastInsertedRowID], at: now) }
            if let issue = merged.issue { links.append(ArrivingLink(uuid: todo.uuid, issue: issue, stamp: merged.stamps.issue)) }
            applied.inserted += 1
        case (false, true):
            guard merged.repositoryID != held.repositoryID || merged.text != held.text || merged.doneAt != held.doneAt
                || merged.stamps != held.stamps || merged.issue != held.issue else { return }
            try database.run("""
                UPDATE todo_tombstones SET repository_id = ?, text = ?, done = ?, done_at = ?, updated_at = ?, repository_clock = ?,
                    text_clock = ?, done_clock = ?, removed_clock = ? WHERE uuid = ?
                """, [.integer(merged.repositoryID), .text(merged.text), .bool(merged.doneAt != nil),
                      .optional(merged.doneAt?.rfc3339), .text(now.rfc3339), .text(merged.stamps.repository.text),
                      .text(merged.stamps.text.text), .text(merged.stamps.done.text), .text(merged.stamps.removed.text),
                      .text(todo.uuid)])
            if linkChanged || dropsLink {
                try writeRemovedLink(merged.issue, stamp: dropsLink ? try nextStamp(at: now) : merged.stamps.issue,
                                     uuid: todo.uuid, at: now)
            }
            applied.updated += 1
        }
    }

    private static func removalValue(_ stamp: HybridTimestamp) -> SQLValue {
        stamp == .zero ? .null : .text(stamp.text)
    }

    private func insertLive(_ todo: TodoState, stamps: TodoStamps, doneAt: Timestamp?, id: Int64?, at now: Timestamp) throws(StoreError) {
        try database.run("""
            INSERT INTO todos (id, uuid, repository_id, text, done, position, created_at, updated_at, done_at, repository_clock,
                               text_clock, done_clock, removed_clock, issue_clock)
            VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM todos WHERE repository_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)
            """, [id.map(SQLValue.integer) ?? .null, .text(todo.uuid), .integer(todo.repositoryID), .text(todo.text),
                  .bool(doneAt != nil), .integer(todo.repositoryID), .text(todo.createdAt.rfc3339), .text(now.rfc3339),
                  .optional(doneAt?.rfc3339), .text(stamps.repository.text), .text(stamps.text.text), .text(stamps.done.text),
                  Self.removalValue(stamps.removed), Self.removalValue(stamps.issue)])
        try placeByArrival(database.lastInsertedRowID)
    }

    private func insertTombstone(_ todo: TodoState, stamps: TodoStamps, doneAt: Timestamp?, at now: Timestamp) throws(StoreError) {
        // Its local ID, when the file is this machine's export and no todo has taken the ID since.
        let id = try freeLocalID(todo.preferredID)
        try database.run("""
            INSERT OR REPLACE INTO todo_tombstones (uuid, repository_id, removed_at, todo_id, text, done, position, created_at,
                                                    updated_at, done_at, repository_clock, text_clock, done_clock, removed_clock)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(todo.uuid), .integer(todo.repositoryID), .text(stamps.removed.timestamp.rfc3339),
                  id.map(SQLValue.integer) ?? .null, .text(todo.text), .bool(doneAt != nil), .text(todo.createdAt.rfc3339),
                  .text(now.rfc3339), .optional(doneAt?.rfc3339), .text(stamps.repository.text), .text(stamps.text.text),
                  .text(stamps.done.text), .text(stamps.removed.text)])
        // An ID kept for a restore is never given to a new todo.
        if let id {
            try database.run("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'todos'", .integer(id))
        }
    }

    /// A link that a merge brought to a todo not linked to that issue here, written once every
    /// other todo's link has been applied.
    struct ArrivingLink {
        var uuid: String
        var issue: LinkedIssue
        var stamp: HybridTimestamp
    }

    /// Links a todo to an issue that another machine linked it to. Nothing of the issue but its
    /// number, state and address travels, so the baselines are set to make the next sync neither
    /// push nor pull: the todo's side is its text and state as they are (the machine that changed
    /// them pushes its own changes), the issue's state is the one seen there, and its title is
    /// unknown (NULL), so the next read of the issue takes the title as it is without retitling
    /// the todo. The issue becomes known (never imported). An issue linked here to another todo
    /// stays with the later link (a tie goes to the larger UUID); the other todo is unlinked, a
    /// change of this machine's that every machine makes alike.
    private func linkArriving(_ link: ArrivingLink, at now: Timestamp) throws(StoreError) {
        guard let id = try database.scalarInt("SELECT id FROM todos WHERE uuid = ? AND repository_id = ?",
                                              .text(link.uuid), .integer(link.issue.repository)) else { return }
        let machine = try clock().machine
        if let (other, otherUUID, otherStamp) = try database.query("""
            SELECT id, uuid, issue_clock, updated_at FROM todos WHERE repository_id = ? AND issue_number = ? AND id <> ?
            """, [.integer(link.issue.repository), .integer(link.issue.number), .integer(id)], { row throws(StoreError) in
            (try row.int64("id"), try row.string("uuid"),
             try Self.stamp(row, "issue_clock", fallback: try Self.timestamp(row, "updated_at"), machine: machine))
        }).first {
            guard (link.stamp, link.uuid) > (otherStamp, otherUUID) else {
                try stamp(.issue, todos: [id], at: now)
                return
            }
            try database.run("UPDATE todos SET \(Self.unlinkedColumns) WHERE id = ?", .integer(other))
            try stamp(.issue, todos: [other], at: now)
        }
        try database.run("""
            UPDATE todos SET issue_number = ?, issue_url = ?, issue_state = ?, issue_title = NULL, issue_synced_text = text,
                issue_synced_done = done, issue_synced_at = NULL, issue_clock = ?
            WHERE id = ?
            """, .integer(link.issue.number), .text(link.issue.url), .text(link.issue.state), .text(link.stamp.text),
            .integer(id))
        try rememberIssue(repositoryID: link.issue.repository, number: link.issue.number, at: now)
    }

    /// The link of a removed todo, as a merge has it (with the baselines of `linkArriving`).
    private func writeRemovedLink(_ issue: LinkedIssue?, stamp: HybridTimestamp, uuid: String, at now: Timestamp) throws(StoreError) {
        guard let issue else {
            try database.run("UPDATE todo_tombstones SET \(Self.unlinkedColumns), issue_clock = ? WHERE uuid = ?",
                             Self.removalValue(stamp), .text(uuid))
            return
        }
        try database.run("""
            UPDATE todo_tombstones SET issue_number = ?, issue_url = ?, issue_state = ?, issue_title = NULL,
                issue_synced_text = text, issue_synced_done = done, issue_synced_at = NULL, issue_clock = ?
            WHERE uuid = ?
            """, .integer(issue.number), .text(issue.url), .text(issue.state), .text(stamp.text), .text(uuid))
        try rememberIssue(repositoryID: issue.repository, number: issue.number, at: now)
    }

    /// Puts a todo in its repository's list by when it arrived there (its repository stamp, or
    /// its restore's): the order every machine shows. A todo added here arrives last anyway.
    func placeByArrival(_ id: Int64) throws(StoreError) {
        let arrival = "max(coalesce(repository_clock, ''), coalesce(removed_clock, ''))"
        guard let (repositoryID, key) = try database.query("SELECT repository_id, \(arrival) AS arrival FROM todos WHERE id = ?",
                                                           [.integer(id)], { row throws(StoreError) in
            (try row.int64("repository_id"), try row.string("arrival"))
        }).first else { return }
        let next = try database.scalarInt("""
            SELECT min(position) FROM todos WHERE repository_id = ? AND id <> ? AND \(arrival) > ?
            """, .integer(repositoryID), .integer(id), .text(key))
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
