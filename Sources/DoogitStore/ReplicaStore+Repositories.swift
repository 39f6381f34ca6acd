import DoogitMerge
import DoogitSupport

extension ReplicaStore {
    /// A repository on this machine's list (tracked, or stopped being tracked but still listed for
    /// a todo left in it), with its stamps.
    private func heldRepository(_ id: Int64) throws(StoreError) -> RepositoryEntry? {
        let machine = try clock().machine
        return try database.query("""
            SELECT r.full_name, r.html_url, r.synced_at, r.added_at, r.name_clock, r.tracked_clock, r.push_issues, r.import_issues,
                   r.scan_commits, r.settings_clock, u.tracked_clock AS untracked_clock
            FROM repositories r LEFT JOIN untracked_repositories u ON u.id = r.id WHERE r.id = ?
            """, [.integer(id)], { row throws(StoreError) -> RepositoryEntry in
            var entry = try Self.trackedRepository(row, id: id, machine: machine)
            if let untracked = try row.optionalString("untracked_clock") {
                guard let stamp = HybridTimestamp(text: untracked) else { throw .corrupt }
                entry.tracked = Register(false, at: stamp)
            }
            return entry
        }).first
    }

    /// A repository the merged list shows: added with what is known of it (sync reads the rest
    /// from GitHub), or renamed as the later stamp says; tracking as the later stamp says.
    func show(_ change: RepositoryChange, at now: Timestamp) throws(StoreError) {
        let state = change.entry
        let held = try heldRepository(state.id)
        if let held {
            if Self.takes(state.name, over: held.name, held: change.held?.name) {
                let name = state.name.value
                try database.run("UPDATE repositories SET owner = ?, name = ?, full_name = ?, html_url = ?, name_clock = ? WHERE id = ?",
                                 .text(name.owner), .text(name.name), .text(name.fullName), .text(name.url),
                                 .text(state.name.stamp.text), .integer(state.id))
                try database.run("DELETE FROM repository_names WHERE full_name = ?", .text(name.fullName))
                if held.name.value.fullName.lowercased() != name.fullName.lowercased() {
                    try database.run("""
                        INSERT INTO repository_names (full_name, repository_id, seen_at) VALUES (?, ?, ?)
                        ON CONFLICT (full_name) DO UPDATE SET repository_id = excluded.repository_id, seen_at = excluded.seen_at
                        """, .text(held.name.value.fullName), .integer(state.id), .text(now.rfc3339))
                }
            }
        } else {
            let name = state.name.value
            let details = change.details
            try database.run("""
                INSERT INTO repositories (id, owner, name, full_name, description, html_url, private, archived, gone, added_at,
                                          synced_at, name_clock, tracked_clock)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, .integer(state.id), .text(name.owner), .text(name.name), .text(name.fullName),
                .optional(details?.description), .text(name.url), .bool(details?.isPrivate ?? false),
                .bool(details?.archived ?? false), .bool(details?.gone ?? false), .text(now.rfc3339),
                .text(Store.neverSynced.rfc3339), .text(state.name.stamp.text), .text(state.tracked.stamp.text))
        }
        if state.settings.stamp != .zero,
           held.map({ Self.takes(state.settings, over: $0.settings, held: change.held?.settings) }) ?? true {
            try writeSettings(state.settings, repositoryID: state.id)
        }
        guard held.map({ Self.takes(state.tracked, over: $0.tracked, held: change.held?.tracked) }) ?? true else { return }
        if state.tracked.value {
            try database.run("UPDATE repositories SET tracked_clock = ? WHERE id = ?", .text(state.tracked.stamp.text), .integer(state.id))
            try database.run("DELETE FROM untracked_repositories WHERE id = ?", .integer(state.id))
        } else {
            try rememberUntracked(state)
        }
    }

    /// A repository the merged list no longer shows: another machine stopped tracking it. It
    /// leaves the list unless this machine tracked it again, or added a todo to it, meanwhile.
    func hide(_ change: RepositoryChange) throws(StoreError) {
        let state = change.entry
        guard let held = try heldRepository(state.id) else {
            let untracked = try database.scalarString("SELECT tracked_clock FROM untracked_repositories WHERE id = ?", .integer(state.id))
            let heldStamp = untracked.flatMap { HybridTimestamp(text: $0) } ?? .zero
            if untracked == nil || Self.takes(state.tracked, over: Register(false, at: heldStamp), held: change.held?.tracked) {
                try rememberUntracked(state)
            } else if state.settings.stamp != .zero {
                try database.run("""
                    UPDATE untracked_repositories SET push_issues = ?, import_issues = ?, scan_commits = ?, settings_clock = ?
                    WHERE id = ? AND coalesce(settings_clock, '') < ?
                    """, .bool(state.settings.value.pushIssues), .text(state.settings.value.importIssues),
                    .bool(state.settings.value.scanCommits), .text(state.settings.stamp.text), .integer(state.id),
                    .text(state.settings.stamp.text))
            }
            return
        }
        guard Self.takes(state.tracked, over: held.tracked, held: change.held?.tracked) || !held.tracked.value else { return }
        try rememberUntracked(state)
        guard try database.scalarInt("SELECT count(*) FROM todos WHERE repository_id = ?", .integer(state.id)) == 0 else { return }
        try database.run("DELETE FROM repository_names WHERE repository_id = ?", .integer(state.id))
        try database.run("DELETE FROM repositories WHERE id = ?", .integer(state.id))
    }

    private func rememberUntracked(_ state: RepositoryEntry) throws(StoreError) {
        let settings = state.settings
        try database.run("""
            INSERT OR REPLACE INTO untracked_repositories (id, full_name, html_url, name_clock, tracked_clock, push_issues,
                                                          import_issues, scan_commits, settings_clock)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, .integer(state.id), .text(state.name.value.fullName), .text(state.name.value.url), .text(state.name.stamp.text),
            .text(state.tracked.stamp.text), .bool(settings.value.pushIssues), .text(settings.value.importIssues),
            .bool(settings.value.scanCommits), TodoRows.optionalStamp(settings.stamp))
    }

    /// Writes a repository's settings with their stamp. Widening what is imported (off to
    /// assigned, or to all) makes the next sync read the repository's issues in full: issues
    /// that did not change since the last read are the ones the new setting now covers.
    func writeSettings(_ settings: Register<SharedSettings>, repositoryID id: Int64) throws(StoreError) {
        try database.run("""
            UPDATE repositories SET push_issues = ?1, import_issues = ?2, scan_commits = ?3, settings_clock = ?4,
                issues_since = CASE WHEN \(Self.widens) THEN NULL ELSE issues_since END,
                issues_etag = CASE WHEN \(Self.widens) THEN NULL ELSE issues_etag END
            WHERE id = ?5
            """, .bool(settings.value.pushIssues), .text(settings.value.importIssues), .bool(settings.value.scanCommits),
            .text(settings.stamp.text), .integer(id))
    }

    /// Whether import_issues ?2 covers more than the row's.
    private static let widens = "(import_issues = 'off' AND ?2 <> 'off') OR (import_issues = 'assigned' AND ?2 = 'all')"
}
