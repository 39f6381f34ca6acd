import DoogitSupport

extension Store {
    /// Stamps what a local change did to a repository: tracked it (a new row), or saw it under
    /// another name on GitHub. A repository stopped being tracked elsewhere, added here again,
    /// is tracked again.
    func stampRepository(_ id: Int64, previousName: String?, at now: Timestamp) throws(StoreError) {
        let current = try database.scalarString("SELECT full_name FROM repositories WHERE id = ?", .integer(id))
        guard previousName == nil || previousName != current else { return }
        let stamp = try replica.nextStamp(at: now).text
        if previousName == nil {
            try database.run("UPDATE repositories SET name_clock = ?, tracked_clock = ? WHERE id = ?",
                             .text(stamp), .text(stamp), .integer(id))
            // Tracked again: with the settings it had (as every machine still has them).
            try database.run("""
                UPDATE repositories SET (push_issues, import_issues, scan_commits, settings_clock) =
                    (SELECT push_issues, import_issues, scan_commits, settings_clock FROM untracked_repositories u WHERE u.id = ?1)
                WHERE id = ?1 AND EXISTS (SELECT 1 FROM untracked_repositories u WHERE u.id = ?1 AND u.settings_clock IS NOT NULL)
                """, .integer(id))
            try database.run("DELETE FROM untracked_repositories WHERE id = ?", .integer(id))
        } else {
            try database.run("UPDATE repositories SET name_clock = ? WHERE id = ?", .text(stamp), .integer(id))
        }
    }

    /// Marks repositories the user asked to track (`repo add`) as tracked, also those still
    /// listed only because a todo of theirs was left when another machine stopped tracking them.
    public func markTracked(ids: [Int64], at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            for id in ids where try database.scalarInt("SELECT count(*) FROM untracked_repositories WHERE id = ?", .integer(id)) == 1 {
                let stamp = try replica.nextStamp(at: now).text
                try database.run("UPDATE repositories SET tracked_clock = ? WHERE id = ?", .text(stamp), .integer(id))
                try database.run("DELETE FROM untracked_repositories WHERE id = ?", .integer(id))
            }
        }
    }

    /// Remembers that this machine stopped tracking the repository, so the other machines do too.
    func rememberUntracked(_ id: Int64, at now: Timestamp) throws(StoreError) {
        let stamp = try replica.nextStamp(at: now).text
        try database.run("""
            INSERT OR REPLACE INTO untracked_repositories (id, full_name, html_url, name_clock, tracked_clock, push_issues,
                                                          import_issues, scan_commits, settings_clock)
            SELECT id, full_name, html_url, coalesce(name_clock, ?), ?, push_issues, import_issues, scan_commits, settings_clock
            FROM repositories WHERE id = ?
            """, .text(stamp), .text(stamp), .integer(id))
    }
}
