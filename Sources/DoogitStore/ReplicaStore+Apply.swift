import DoogitMerge
import DoogitSupport

extension ReplicaStore {
    /// Writes a merge (or an observation) into this machine's list, all in one transaction:
    /// repositories by GitHub id, todos by UUID. Each field is written only where this machine
    /// has not changed it since the merge read its list (`held`); without that knowledge, the
    /// later write wins. A todo removed there becomes a removed todo here (restorable), one
    /// restored there comes back with its local ID when that is free, and todos take their
    /// place in their repository's list by when they arrived there, the same order on every
    /// machine. With `asLocalChange`, what changed waits to be sent (what a sync saw on GitHub is
    /// this machine's news for the others); otherwise what is written came from the remote, and
    /// only what this machine changes itself on the way (a link it drops) waits to be sent.
    @discardableResult
    public func apply(_ changes: ReplicaChanges, at now: Timestamp, asLocalChange: Bool = false) throws -> AppliedChanges {
        try database.transaction { () throws(StoreError) -> AppliedChanges in
            if asLocalChange { return try write(changes, at: now) }
            // With the triggers off, those that keep each repository's counts are off too: the
            // repositories the merge's todos were in, and those they are in after it (as written,
            // which the merge decides), are counted again; all of them after many todos.
            let uuids = changes.todos.map(\.entry.uuid) + changes.purgedTodos.sorted()
            let many = uuids.count > 64
            var touched = Set(changes.repositories.map(\.entry.id))
            if !many { touched.formUnion(try repositories(ofTodos: uuids)) }
            let applied = try withoutNotes { () throws(StoreError) -> AppliedChanges in try write(changes, at: now) }
            if many {
                try recountAllTodos()
            } else {
                touched.formUnion(try repositories(ofTodos: uuids))
                try recountTodos(inRepositories: touched)
            }
            return applied
        }
    }

    private func repositories(ofTodos uuids: [String]) throws(StoreError) -> Set<Int64> {
        var ids = Set<Int64>()
        for uuid in uuids {
            if let id = try database.scalarInt("SELECT repository_id FROM todos WHERE uuid = ?", .text(uuid)) { ids.insert(id) }
        }
        return ids
    }

    /// Counts every repository's todos again, in one pass over the todos.
    func recountAllTodos() throws(StoreError) {
        try database.run("DELETE FROM todo_counts")
        try database.run("""
            INSERT INTO todo_counts (repository_id, open, done)
            SELECT repository_id, sum(done = 0), sum(done = 1) FROM todos GROUP BY repository_id
            """)
    }

    /// Counts the todos of each repository again, open and done, into `todo_counts` (which its
    /// triggers keep otherwise).
    func recountTodos(inRepositories ids: Set<Int64>) throws(StoreError) {
        for id in ids.sorted() {
            try database.run("""
                INSERT INTO todo_counts (repository_id, open, done)
                SELECT ?1, (SELECT count(*) FROM todos WHERE repository_id = ?1 AND done = 0),
                       (SELECT count(*) FROM todos WHERE repository_id = ?1 AND done = 1) WHERE true
                ON CONFLICT (repository_id) DO UPDATE SET open = excluded.open, done = excluded.done
                """, .integer(id))
        }
    }

    private func write(_ changes: ReplicaChanges, at now: Timestamp) throws(StoreError) -> AppliedChanges {
        // The stamps written here are seen first: a change made here from now on (the next
        // command, or a link this apply drops) is stamped after them, so it wins over them,
        // and a todo added next comes last in its repository's list, as on every other machine.
        var latest = HybridTimestamp.zero
        for change in changes.todos { latest = max(latest, change.entry.latestStamp) }
        for change in changes.repositories { latest = max(latest, change.entry.latestStamp) }
        if latest != .zero { try observe(latest) }
        for change in changes.repositories where change.shown { try show(change, at: now) }
        // Many todos at once (a first pull): which are here is asked once, and those that arrive
        // last in their repositories (they come in order of arrival) are added at the end.
        var applying = Applying(machine: try clock().machine, now: now,
                                batch: Batch(known: changes.todos.count > 64 ? try allUUIDs() : nil))
        for change in changes.todos { try write(change, in: &applying) }
        // Links new to their todos last, once every link that left a todo has left it: an
        // issue is linked to one todo at a time.
        for link in applying.links { try linkArriving(link, machine: applying.machine, at: now) }
        for change in changes.repositories where !change.shown { try hide(change) }
        try purge(changes, into: &applying.applied)
        return applying.applied
    }

    /// What an apply carries from one todo to the next.
    private struct Applying {
        let machine: String
        let now: Timestamp
        var applied = AppliedChanges()
        /// Links new to their todos, written once every todo is.
        var links: [ArrivingLink] = []
        var batch: Batch

        init(machine: String, now: Timestamp, batch: Batch) {
            (self.machine, self.now, self.batch) = (machine, now, batch)
        }

        mutating func link(_ entry: TodoEntry, id: Int64) {
            guard let link = entry.issue.value else { return }
            links.append(ArrivingLink(id: id, uuid: entry.uuid, issue: link, stamp: entry.issue.stamp, seen: entry.observation?.updatedAt))
        }
    }

    /// Removes for good what left the remote after a removal: todos (live or removed) and
    /// repositories no longer tracked.
    private func purge(_ changes: ReplicaChanges, into applied: inout AppliedChanges) throws(StoreError) {
        for uuid in changes.purgedTodos.sorted() {
            let rows = try database.run("DELETE FROM todos WHERE uuid = ?", .text(uuid))
                + database.run("DELETE FROM todo_tombstones WHERE uuid = ?", .text(uuid))
            try database.run("DELETE FROM todo_commits WHERE todo_uuid = ?", .text(uuid))
            try database.run("DELETE FROM todo_tags WHERE todo_uuid = ?", .text(uuid))
            try database.run("DELETE FROM remote_pending_todos WHERE uuid = ?", .text(uuid))
            if rows > 0 { applied.purged += 1 }
        }
        for id in changes.purgedRepositories.sorted() {
            guard try database.scalarInt("SELECT count(*) FROM todos WHERE repository_id = ?", .integer(id)) == 0 else { continue }
            let rows = try database.run("DELETE FROM untracked_repositories WHERE id = ?", .integer(id))
            try database.run("DELETE FROM remote_pending_repositories WHERE id = ?", .integer(id))
            if rows > 0 { applied.purged += 1 }
        }
    }

    /// Whether a field takes the incoming write: it differs, and this machine has not changed
    /// the field since the merge read it (without that knowledge, the later write wins).
    static func takes<Value>(_ incoming: Register<Value>, over current: Register<Value>, held: Register<Value>?) -> Bool {
        incoming != current && (held.map { $0 == current } ?? incoming.supersedes(current))
    }

    /// The same, tag by tag: each tag takes the incoming change unless changed here since.
    static func taking(_ incoming: TagSet, over current: TagSet, held: TagSet?) -> TagSet {
        var states = current.states
        for (key, state) in incoming.states where state != current.states[key] {
            let here = current.states[key]
            let take = held.map { $0.states[key] == here } ?? (here.map { state.supersedes($0) } ?? true)
            if take { states[key] = state }
        }
        return TagSet(states: states)
    }

    /// One todo: new here, or the fields that take the incoming write, then what it was here and
    /// what it becomes (live or removed, before and after).
    private func write(_ change: TodoChange, in applying: inout Applying) throws(StoreError) {
        try rememberIssues(of: change.entry, at: applying.now)
        let here = applying.batch.known.map { $0.contains(change.entry.uuid) } ?? true
        guard here, let current = try stored(change.entry.uuid, machine: applying.machine) else {
            return try insertNew(change, in: &applying)
        }
        var merged = Self.merging(change.entry, into: current.entry, held: change.held)
        try dropForeignLink(&merged, at: applying.now)
        guard !ReplicaChanges.sameRegisters(merged, current.entry) else { return }
        try recordCommits(merged.commits.subtracting(current.entry.commits), of: merged.uuid)
        if merged.details.tags != current.entry.details.tags { try writeTags(merged.details.tags, of: merged.uuid) }
        switch (current.isLive, merged.isRemoved) {
        case (true, false): try changeLive(current, to: merged, in: &applying)
        case (true, true): try removeLive(current, as: merged, in: &applying)
        case (false, false): try restoreRemoved(current, as: merged, preferredID: change.preferredID, in: &applying)
        case (false, true): try changeRemoved(merged, in: &applying)
        }
    }

    /// A todo new here, live or removed.
    private func insertNew(_ change: TodoChange, in applying: inout Applying) throws(StoreError) {
        var entry = change.entry
        try dropForeignLink(&entry, at: applying.now)
        try recordCommits(entry.commits, of: entry.uuid)
        if !entry.details.tags.states.isEmpty { try writeTags(entry.details.tags, of: entry.uuid) }
        if entry.isRemoved {
            // An ID here too, so that a todo removed elsewhere can be restored here.
            var id = try freeLocalID(change.preferredID)
            if id == nil { id = try nextLocalID() }
            try insertTombstone(entry, id: id, position: 0, at: applying.now)
            applying.applied.removed += 1
        } else {
            let id = try insertLive(entry, id: try freeLocalID(change.preferredID), at: applying.now, arrivals: &applying.batch.arrivals)
            applying.link(entry, id: id)
            applying.applied.inserted += 1
        }
    }

    /// The todo as the incoming write leaves it: each field that takes it (`takes`), the commits
    /// of both, and the first time it was made.
    static func merging(_ incoming: TodoEntry, into current: TodoEntry, held: TodoEntry?) -> TodoEntry {
        var merged = current
        if takes(incoming.repository, over: merged.repository, held: held?.repository) { merged.repository = incoming.repository }
        if takes(incoming.text, over: merged.text, held: held?.text) { merged.text = incoming.text }
        if takes(incoming.done, over: merged.done, held: held?.done) { merged.done = incoming.done }
        if takes(incoming.removed, over: merged.removed, held: held?.removed) { merged.removed = incoming.removed }
        if takes(incoming.issue, over: merged.issue, held: held?.issue) { merged.issue = incoming.issue }
        if takes(incoming.seen, over: merged.seen, held: held?.seen) { merged.seen = incoming.seen }
        let details = incoming.details, heldDetails = held?.details
        if takes(details.due, over: merged.details.due, held: heldDetails?.due) { merged.details.due = details.due }
        if takes(details.priority, over: merged.details.priority, held: heldDetails?.priority) {
            merged.details.priority = details.priority
        }
        merged.details.tags = taking(details.tags, over: merged.details.tags, held: heldDetails?.tags)
        if takes(details.note, over: merged.details.note, held: heldDetails?.note) { merged.details.note = details.note }
        if takes(details.author, over: merged.details.author, held: heldDetails?.author) { merged.details.author = details.author }
        if takes(details.finishedBy, over: merged.details.finishedBy, held: heldDetails?.finishedBy) {
            merged.details.finishedBy = details.finishedBy
        }
        if takes(details.assignee, over: merged.details.assignee, held: heldDetails?.assignee) {
            merged.details.assignee = details.assignee
        }
        if takes(details.keptPrivate, over: merged.details.keptPrivate, held: heldDetails?.keptPrivate) {
            merged.details.keptPrivate = details.keptPrivate
        }
        merged.commits.formUnion(incoming.commits)
        // Made on two machines under one UUID (an issue's todo, imported on each): the first.
        merged.createdAt = min(merged.createdAt, incoming.createdAt)
        return merged
    }

    /// Live before and after.
    private func changeLive(_ current: StoredTodo, to merged: TodoEntry, in applying: inout Applying) throws(StoreError) {
        guard let id = current.id else { return }
        let moved = merged.repository != current.entry.repository || merged.removed != current.entry.removed
        let otherIssue = merged.issue.value.map { link in
            current.entry.issue.value.map { (link.repository, link.number) != ($0.repository, $0.number) } ?? true
        } ?? false
        // A link to another issue goes first without its number, so that no other todo finds
        // that issue taken; the arriving link then takes it, or gives way.
        var row = merged
        if otherIssue { row.issue.value = nil }
        try updateLive(row, id: id, textOrStateChanged: Self.changesWhatTheListShows(current.entry, merged), at: applying.now)
        if otherIssue { applying.link(merged, id: id) }
        if moved {
            try placeByArrival(id)
            applying.batch.arrivals[merged.repository.value] = nil
        }
        applying.applied.updated += 1
    }

    /// Live before, removed after: its tombstone keeps its ID and place.
    private func removeLive(_ current: StoredTodo, as merged: TodoEntry, in applying: inout Applying) throws(StoreError) {
        guard let id = current.id else { return }
        let position = try database.scalarInt("SELECT position FROM todos WHERE id = ?", .integer(id)) ?? 0
        try database.run("DELETE FROM todos WHERE id = ?", .integer(id))
        try insertTombstone(merged, id: id, position: position, at: applying.now)
        applying.applied.removed += 1
    }

    /// Removed before, live after: restored elsewhere, back with its local ID when that is still free.
    private func restoreRemoved(_ current: StoredTodo, as merged: TodoEntry, preferredID: Int64?,
                                in applying: inout Applying) throws(StoreError) {
        try database.run("DELETE FROM todo_tombstones WHERE uuid = ?", .text(merged.uuid))
        var id = try freeLocalID(current.id)
        if id == nil { id = try freeLocalID(preferredID) }
        let inserted = try insertLive(merged, id: id, at: applying.now)
        applying.batch.arrivals[merged.repository.value] = nil
        applying.link(merged, id: inserted)
        applying.applied.inserted += 1
    }

    /// Removed before and after.
    private func changeRemoved(_ merged: TodoEntry, in applying: inout Applying) throws(StoreError) {
        try database.run("UPDATE todo_tombstones SET \(TodoRows.registerAssignments), created_at = ?, updated_at = ? WHERE uuid = ?",
                         TodoRows.values(of: merged) + [.text(merged.createdAt.rfc3339), .text(applying.now.rfc3339), .text(merged.uuid)])
        applying.applied.updated += 1
    }

    static func changesWhatTheListShows(_ before: TodoEntry, _ after: TodoEntry) -> Bool {
        before.text.value != after.text.value || before.done.value != after.done.value
            || before.repository.value != after.repository.value
    }

    /// A link to an issue of another repository than the todo's (moved on one machine while linked
    /// on another) is dropped, as a move drops it: a change of this machine's.
    private func dropForeignLink(_ entry: inout TodoEntry, at now: Timestamp) throws(StoreError) {
        guard let link = entry.issue.value, link.repository != entry.repository.value else { return }
        entry.issue = Register(nil, at: try nextStamp(at: now))
        try note(todo: entry.uuid, repository: entry.repository.value)
    }

    /// `id` when it is a positive ID no todo has, else nil (the next one is taken).
    func freeLocalID(_ id: Int64?) throws(StoreError) -> Int64? {
        guard let id, id > 0 else { return nil }
        return try database.scalarInt("SELECT count(*) FROM todos WHERE id = ?", .integer(id)) == 0 ? id : nil
    }

    /// An ID no todo has had here, taken: the next of the todos' sequence.
    func nextLocalID() throws(StoreError) -> Int64 {
        let next = max(try database.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'todos'") ?? 0,
                       try database.scalarInt("SELECT max(todo_id) FROM todo_tombstones") ?? 0,
                       try database.scalarInt("SELECT max(id) FROM todos") ?? 0) + 1
        try keepLocalID(next)
        return next
    }

    /// Keeps an ID for a removed todo: never given to a new one.
    func keepLocalID(_ id: Int64) throws(StoreError) {
        if try database.run("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'todos'", .integer(id)) == 0 {
            try database.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('todos', ?)", .integer(id))
        }
    }
}
