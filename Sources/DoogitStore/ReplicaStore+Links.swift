import DoogitMerge
import DoogitSupport

extension ReplicaStore {
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
    func linkArriving(_ link: ArrivingLink, machine: String, at now: Timestamp) throws(StoreError) {
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
    func rememberIssues(of entry: TodoEntry, at now: Timestamp) throws(StoreError) {
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
