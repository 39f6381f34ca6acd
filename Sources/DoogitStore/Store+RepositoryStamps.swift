import DoogitMerge
import DoogitSupport

extension Store {
    /// Stamps what a local change did to a repository: tracked it (a new row), or saw it under
    /// another name on GitHub. A repository stopped being tracked elsewhere, added here again,
    /// is tracked again.
    func stampRepository(_ id: Int64, previousName: String?, at now: Timestamp) throws(StoreError) {
        let current = try database.scalarString("SELECT full_name FROM repositories WHERE id = ?", .integer(id))
        guard previousName == nil || previousName != current else { return }
        let stamp = try nextStamp(at: now).text
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
                let stamp = try nextStamp(at: now).text
                try database.run("UPDATE repositories SET tracked_clock = ? WHERE id = ?", .text(stamp), .integer(id))
                try database.run("DELETE FROM untracked_repositories WHERE id = ?", .integer(id))
            }
        }
    }

    /// Remembers that this machine stopped tracking the repository, so the other machines do too.
    func rememberUntracked(_ id: Int64, at now: Timestamp) throws(StoreError) {
        let stamp = try nextStamp(at: now).text
        try database.run("""
            INSERT OR REPLACE INTO untracked_repositories (id, full_name, html_url, name_clock, tracked_clock, push_issues,
                                                          import_issues, scan_commits, settings_clock)
            SELECT id, full_name, html_url, coalesce(name_clock, ?), ?, push_issues, import_issues, scan_commits, settings_clock
            FROM repositories WHERE id = ?
            """, .text(stamp), .text(stamp), .integer(id))
    }
}

extension Store {
    /// `syncedAt` of a repository that came from another machine and was not read from GitHub yet.
    public static let neverSynced = Timestamp(millisecondsSinceEpoch: 0)

    /// What this machine holds of a repository on its list, with the stamps of its fields.
    private struct HeldRepository {
        var fullName: String
        var name: HybridTimestamp
        var tracked: Bool
        var trackedStamp: HybridTimestamp
        var settingsStamp: HybridTimestamp
    }

    private func heldRepository(_ id: Int64) throws(StoreError) -> HeldRepository? {
        let machine = try clock().machine
        return try database.query("""
            SELECT r.full_name, r.synced_at, r.added_at, r.name_clock, r.tracked_clock, r.push_issues, r.import_issues,
                   r.scan_commits, r.settings_clock, u.tracked_clock AS untracked_clock
            FROM repositories r LEFT JOIN untracked_repositories u ON u.id = r.id WHERE r.id = ?
            """, [.integer(id)], { row throws(StoreError) -> HeldRepository in
            var tracked = true
            var trackedStamp = try Self.stamp(row, "tracked_clock", fallback: try Self.timestamp(row, "added_at"), machine: machine)
            if let untracked = try row.optionalString("untracked_clock") {
                guard let stamp = HybridTimestamp(text: untracked) else { throw .corrupt }
                (tracked, trackedStamp) = (false, stamp)
            }
            return HeldRepository(
                fullName: try row.string("full_name"),
                name: try Self.stamp(row, "name_clock", fallback: try Self.timestamp(row, "synced_at"), machine: machine),
                tracked: tracked, trackedStamp: trackedStamp, settingsStamp: try Self.settingsRegister(row).stamp)
        }).first
    }

    /// The settings of a row with `push_issues`, `import_issues`, `scan_commits` and
    /// `settings_clock`, at the zero stamp when no machine set them.
    static func settingsRegister(_ row: Row) throws(StoreError) -> Register<SharedSettings> {
        let settings = SharedSettings(pushIssues: try row.bool("push_issues"), importIssues: try row.string("import_issues"),
                                      scanCommits: try row.bool("scan_commits"))
        guard let text = try row.optionalString("settings_clock") else { return Register(settings, at: .zero) }
        guard let stamp = HybridTimestamp(text: text) else { throw .corrupt }
        return Register(settings, at: stamp)
    }

    /// Whether a field may take the incoming write (see `apply`).
    private static func takes(_ incoming: HybridTimestamp, over held: HybridTimestamp, expected: HybridTimestamp?) -> Bool {
        incoming != held && (expected.map { $0 == held } ?? (incoming > held))
    }

    /// A repository the merged list shows: added with what is known of it (sync reads the rest
    /// from GitHub), or renamed as the later stamp says; tracking as the later stamp says.
    func showRepository(_ state: RepositoryState, at now: Timestamp) throws(StoreError) {
        let held = try heldRepository(state.id)
        if let held {
            if Self.takes(state.nameStamp, over: held.name, expected: state.expectedNameStamp) {
                let name = RepositoryName(fullName: state.fullName, url: state.url)
                try database.run("UPDATE repositories SET owner = ?, name = ?, full_name = ?, html_url = ?, name_clock = ? WHERE id = ?",
                                 .text(name.owner), .text(name.name), .text(name.fullName), .text(name.url),
                                 .text(state.nameStamp.text), .integer(state.id))
                try database.run("DELETE FROM repository_names WHERE full_name = ?", .text(state.fullName))
                if held.fullName.lowercased() != state.fullName.lowercased() {
                    try rememberName(held.fullName, forRepository: state.id, at: now)
                }
            }
        } else {
            let name = RepositoryName(fullName: state.fullName, url: state.url)
            try database.run("""
                INSERT INTO repositories (id, owner, name, full_name, description, html_url, private, archived, gone, added_at,
                                          synced_at, name_clock, tracked_clock)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, .integer(state.id), .text(name.owner), .text(name.name), .text(name.fullName),
                .optional(state.details?.description), .text(name.url), .bool(state.details?.isPrivate ?? false),
                .bool(state.details?.archived ?? false), .bool(state.details?.gone ?? false), .text(now.rfc3339),
                .text(Self.neverSynced.rfc3339), .text(state.nameStamp.text), .text(state.trackedStamp.text))
        }
        if state.settingsStamp != .zero,
           held.map({ Self.takes(state.settingsStamp, over: $0.settingsStamp, expected: state.expectedSettingsStamp) }) ?? true {
            let settings = RepositorySettings(pushIssues: state.settings.pushIssues,
                                              importIssues: IssueImport(rawValue: state.settings.importIssues) ?? .off,
                                              scanCommits: state.settings.scanCommits)
            try writeSettings(settings, repositoryID: state.id, stamp: state.settingsStamp)
        }
        guard held.map({ Self.takes(state.trackedStamp, over: $0.trackedStamp, expected: state.expectedTrackedStamp) }) ?? true
        else { return }
        if state.tracked {
            try database.run("UPDATE repositories SET tracked_clock = ? WHERE id = ?", .text(state.trackedStamp.text), .integer(state.id))
            try database.run("DELETE FROM untracked_repositories WHERE id = ?", .integer(state.id))
        } else {
            try rememberUntracked(state)
        }
    }

    /// A repository the merged list no longer shows: another machine stopped tracking it. It
    /// leaves the list unless this machine tracked it again, or added a todo to it, meanwhile.
    func hideRepository(_ state: RepositoryState, at now: Timestamp) throws(StoreError) {
        guard let held = try heldRepository(state.id) else {
            let untracked = try database.scalarString("SELECT tracked_clock FROM untracked_repositories WHERE id = ?", .integer(state.id))
            let heldStamp = untracked.flatMap { HybridTimestamp(text: $0) } ?? .zero
            if untracked == nil || Self.takes(state.trackedStamp, over: heldStamp, expected: state.expectedTrackedStamp) {
                try rememberUntracked(state)
            } else if state.settingsStamp != .zero {
                try database.run("""
                    UPDATE untracked_repositories SET push_issues = ?, import_issues = ?, scan_commits = ?, settings_clock = ?
                    WHERE id = ? AND coalesce(settings_clock, '') < ?
                    """, .bool(state.settings.pushIssues), .text(state.settings.importIssues), .bool(state.settings.scanCommits),
                    .text(state.settingsStamp.text), .integer(state.id), .text(state.settingsStamp.text))
            }
            return
        }
        guard Self.takes(state.trackedStamp, over: held.trackedStamp, expected: state.expectedTrackedStamp) || !held.tracked else { return }
        try rememberUntracked(state)
        guard try database.scalarInt("SELECT count(*) FROM todos WHERE repository_id = ?", .integer(state.id)) == 0 else { return }
        try database.run("DELETE FROM repository_names WHERE repository_id = ?", .integer(state.id))
        try database.run("DELETE FROM repositories WHERE id = ?", .integer(state.id))
    }

    private func rememberUntracked(_ state: RepositoryState) throws(StoreError) {
        try database.run("""
            INSERT OR REPLACE INTO untracked_repositories (id, full_name, html_url, name_clock, tracked_clock, push_issues,
                                                          import_issues, scan_commits, settings_clock)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, .integer(state.id), .text(state.fullName), .text(state.url), .text(state.nameStamp.text),
            .text(state.trackedStamp.text), .bool(state.settings.pushIssues), .text(state.settings.importIssues),
            .bool(state.settings.scanCommits), state.settingsStamp == .zero ? .null : .text(state.settingsStamp.text))
    }
}
