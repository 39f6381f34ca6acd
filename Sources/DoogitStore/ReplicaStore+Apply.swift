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
            asLocalChange ? try write(changes, at: now)
                : try withoutNotes { () throws(StoreError) -> AppliedChanges in try write(changes, at: now) }
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
        var applied = AppliedChanges()
        for change in changes.repositories where change.shown { try show(change, at: now) }
        let machine = try clock().machine
        var links: [ArrivingLink] = []
        // Many todos at once (a first pull): which are here is asked once, and those that arrive
        // last in their repositories (they come in order of arrival) are added at the end.
        var batch = Batch(known: changes.todos.count > 64 ? try allUUIDs() : nil)
        for change in changes.todos {
            try write(change, machine: machine, at: now, into: &applied, links: &links, batch: &batch)
        }
        // Links new to their todos last, once every link that left a todo has left it: an
        // issue is linked to one todo at a time.
        for link in links { try linkArriving(link, machine: machine, at: now) }
        for change in changes.repositories where !change.shown { try hide(change) }
        try purge(changes, into: &applied)
        return applied
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

    private func write(_ change: TodoChange, machine: String, at now: Timestamp, into applied: inout AppliedChanges,
                       links: inout [ArrivingLink], batch: inout Batch) throws(StoreError) {
        let incoming = change.entry
        try rememberIssues(of: incoming, at: now)
        let here = batch.known.map { $0.contains(incoming.uuid) } ?? true
        guard here, let current = try stored(incoming.uuid, machine: machine) else {
            var entry = incoming
            try dropForeignLink(&entry, at: now)
            try recordCommits(entry.commits, of: entry.uuid)
            if !entry.details.tags.states.isEmpty { try writeTags(entry.details.tags, of: entry.uuid) }
            if entry.isRemoved {
                // An ID here too, so that a todo removed elsewhere can be restored here.
                var id = try freeLocalID(change.preferredID)
                if id == nil { id = try nextLocalID() }
                try insertTombstone(entry, id: id, position: 0, at: now)
                applied.removed += 1
            } else {
                let id = try insertLive(entry, id: try freeLocalID(change.preferredID), at: now, arrivals: &batch.arrivals)
                if let link = entry.issue.value {
                    links.append(ArrivingLink(id: id, uuid: entry.uuid, issue: link, stamp: entry.issue.stamp,
                                              seen: entry.observation?.updatedAt))
                }
                applied.inserted += 1
            }
            return
        }
        let held = change.held
        var merged = current.entry
        if Self.takes(incoming.repository, over: merged.repository, held: held?.repository) { merged.repository = incoming.repository }
        if Self.takes(incoming.text, over: merged.text, held: held?.text) { merged.text = incoming.text }
        if Self.takes(incoming.done, over: merged.done, held: held?.done) { merged.done = incoming.done }
        if Self.takes(incoming.removed, over: merged.removed, held: held?.removed) { merged.removed = incoming.removed }
        if Self.takes(incoming.issue, over: merged.issue, held: held?.issue) { merged.issue = incoming.issue }
        if Self.takes(incoming.seen, over: merged.seen, held: held?.seen) { merged.seen = incoming.seen }
        let details = incoming.details, heldDetails = held?.details
        if Self.takes(details.due, over: merged.details.due, held: heldDetails?.due) { merged.details.due = details.due }
        if Self.takes(details.priority, over: merged.details.priority, held: heldDetails?.priority) {
            merged.details.priority = details.priority
        }
        merged.details.tags = Self.taking(details.tags, over: merged.details.tags, held: heldDetails?.tags)
        if Self.takes(details.note, over: merged.details.note, held: heldDetails?.note) { merged.details.note = details.note }
        merged.commits.formUnion(incoming.commits)
        // Made on two machines under one UUID (an issue's todo, imported on each): the first.
        merged.createdAt = min(merged.createdAt, incoming.createdAt)
        try dropForeignLink(&merged, at: now)
        guard !ReplicaChanges.sameRegisters(merged, current.entry) else { return }
        try recordCommits(merged.commits.subtracting(current.entry.commits), of: merged.uuid)
        if merged.details.tags != current.entry.details.tags { try writeTags(merged.details.tags, of: merged.uuid) }
        let moved = merged.repository != current.entry.repository || merged.removed != current.entry.removed
        let otherIssue = merged.issue.value.map { link in
            current.entry.issue.value.map { (link.repository, link.number) != ($0.repository, $0.number) } ?? true
        } ?? false

        switch (current.isLive, merged.isRemoved) {
        case (true, false):
            guard let id = current.id else { return }
            // A link to another issue goes first without its number, so that no other todo finds
            // that issue taken; the arriving link then takes it, or gives way.
            var row = merged
            if otherIssue { row.issue.value = nil }
            try updateLive(row, id: id, textOrStateChanged: Self.changesWhatTheListShows(current.entry, merged), at: now)
            if otherIssue, let link = merged.issue.value {
                links.append(ArrivingLink(id: id, uuid: merged.uuid, issue: link, stamp: merged.issue.stamp,
                                          seen: merged.observation?.updatedAt))
            }
            if moved {
                try placeByArrival(id)
                batch.arrivals[merged.repository.value] = nil
            }
            applied.updated += 1
        case (true, true):
            guard let id = current.id else { return }
            let position = try database.scalarInt("SELECT position FROM todos WHERE id = ?", .integer(id)) ?? 0
            try database.run("DELETE FROM todos WHERE id = ?", .integer(id))
            try insertTombstone(merged, id: id, position: position, at: now)
            applied.removed += 1
        case (false, false):
            // Restored elsewhere: back with its local ID when that is still free.
            try database.run("DELETE FROM todo_tombstones WHERE uuid = ?", .text(merged.uuid))
            var id = try freeLocalID(current.id)
            if id == nil { id = try freeLocalID(change.preferredID) }
            let inserted = try insertLive(merged, id: id, at: now)
            batch.arrivals[merged.repository.value] = nil
            if let link = merged.issue.value {
                links.append(ArrivingLink(id: inserted, uuid: merged.uuid, issue: link, stamp: merged.issue.stamp,
                                          seen: merged.observation?.updatedAt))
            }
            applied.inserted += 1
        case (false, true):
            try database.run("UPDATE todo_tombstones SET \(TodoRows.registerAssignments), created_at = ?, updated_at = ? WHERE uuid = ?",
                             TodoRows.values(of: merged) + [.text(merged.createdAt.rfc3339), .text(now.rfc3339), .text(merged.uuid)])
            applied.updated += 1
        }
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

    /// A link new to a live todo, written once every other todo's link has been applied.
    struct ArrivingLink {
        var id: Int64
        var uuid: String
        var issue: LinkedIssue
        var stamp: HybridTimestamp
        /// GitHub's time of the issue as last seen under this link (nil: not seen).
        var seen: Timestamp?
    }

    /// Links a todo to the issue a merge linked it to. An issue linked here to another todo
    /// stays with the later link (a tie goes to the larger UUID); the other todo is unlinked, a
    /// change of this machine's that every machine makes alike.
    private func linkArriving(_ link: ArrivingLink, machine: String, at now: Timestamp) throws(StoreError) {
        if let (other, otherUUID, otherStamp) = try database.query("""
            SELECT id, uuid, issue_clock, updated_at FROM todos WHERE repository_id = ? AND issue_number = ? AND id <> ?
            """, [.integer(link.issue.repository), .integer(link.issue.number), .integer(link.id)], { row throws(StoreError) in
            (try row.int64("id"), try row.string("uuid"),
             try TodoRows.stamp(row, "issue_clock", fallback: try Store.timestamp(row, "updated_at"), machine: machine))
        }).first {
            guard (link.stamp, link.uuid) > (otherStamp, otherUUID) else { return try unlink(link.id, at: now) }
            try unlink(other, at: now)
        }
        try database.run("UPDATE todos SET issue_number = ?, issue_url = ?, issue_clock = ? WHERE id = ?",
                         .integer(link.issue.number), .text(link.issue.url), .text(link.stamp.text), .integer(link.id))
        if let seen = link.seen { try rereadIssue(of: link.issue.repository, changedAfter: seen) }
    }

    /// A linked todo that becomes live here (restored, here or by a merge; arrived linked)
    /// catches up with its issue at the next sync: what the issue did meanwhile applies.
    func rereadIssue(of entry: TodoEntry) throws(StoreError) {
        guard let link = entry.issue.value, let seen = entry.observation?.updatedAt else { return }
        try rereadIssue(of: link.repository, changedAfter: seen)
    }

    /// Makes the repository's next issue listing show every issue changed since `seen` (GitHub's
    /// time): a todo restored here was skipped by the listings read while it was removed, which
    /// moved on (their ETag, perhaps their `since`), so its issue would wait for another to change.
    /// The listing starts no later than a second before `seen` (GitHub's `since` may or may not
    /// include its own second) and is asked without its ETag; one read in full stays so.
    func rereadIssue(of repositoryID: Int64, changedAfter seen: Timestamp) throws(StoreError) {
        let since = String(Timestamp(millisecondsSinceEpoch: seen.millisecondsSinceEpoch - 1000).rfc3339.prefix(19)) + "Z"
        try database.run("""
            UPDATE repositories SET issues_etag = NULL,
                issues_since = CASE WHEN issues_since IS NULL OR issues_since <= ?1 THEN issues_since ELSE ?1 END
            WHERE id = ?2
            """, .text(since), .integer(repositoryID))
    }

    /// Unlinks a live todo, a change of this machine's (waiting to be sent, whoever asked).
    func unlink(_ id: Int64, at now: Timestamp) throws(StoreError) {
        try database.run("UPDATE todos SET issue_number = NULL, issue_url = NULL WHERE id = ?", .integer(id))
        try stamp(.issue, todos: [id], at: now)
        try database.run("INSERT OR IGNORE INTO remote_pending_todos SELECT uuid, repository_id FROM todos WHERE id = ?", .integer(id))
    }

    /// Every issue a machine linked to the todo, even where that link has since lost or gone, so
    /// that import never makes another todo of it: the link's, and the one its observation was
    /// made under (an observation is stamped with its link, so one made after the todo's last move
    /// is of an issue of the todo's repository).
    private func rememberIssues(of entry: TodoEntry, at now: Timestamp) throws(StoreError) {
        if let link = entry.issue.value { try rememberIssue(repositoryID: link.repository, number: link.number, at: now) }
        if let seen = entry.seen.value, entry.seen.stamp >= entry.repository.stamp {
            try rememberIssue(repositoryID: entry.repository.value, number: seen.number, at: now)
        }
    }

    func rememberIssue(repositoryID: Int64, number: Int64, at now: Timestamp) throws(StoreError) {
        try database.run("INSERT OR IGNORE INTO known_issues (repository_id, issue_number, seen_at) VALUES (?, ?, ?)",
                         .integer(repositoryID), .integer(number), .text(now.rfc3339))
    }
}
