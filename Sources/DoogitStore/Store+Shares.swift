import DoogitMerge
import DoogitSupport

/// A repository whose todos are shared from here (`repo share`), and what this machine last knew
/// of its branch.
public struct ShareSettings: Equatable, Sendable {
    public var repositoryID: Int64
    /// The repository's name as tracked here.
    public var fullName: String
    public var branch: String
    /// The branch's commit as last read or written (nil: never read), and the ETag of that read.
    public var headCommit: String?
    public var refETag: String?
    /// The repository as last read: its ETag, whether it was public, and whether the token may push.
    public var repositoryETag: String?
    public var isPublic: Bool
    /// Shared with `--public`: its todos may be public.
    public var publicAllowed: Bool
    public var canPush: Bool?
    /// Since when GitHub no longer shows the repository to the token (nil: it does).
    public var unreadableSince: Timestamp?
    /// How many changes waited the last time a sync said so.
    public var waitingNoted: Int
    public var addedAt: Timestamp
}

extension Store {
    /// The branch a repository's shared todos live on.
    public static let sharedBranch = "doogit-todos"

    /// Every repository whose todos are shared from here, by name.
    public func shares() throws -> [ShareSettings] {
        try database.reading { () throws(StoreError) -> [ShareSettings] in try sharesRead(where: nil) }
    }

    public func share(of repositoryID: Int64) throws -> ShareSettings? {
        try database.reading { () throws(StoreError) -> ShareSettings? in try sharesRead(where: repositoryID).first }
    }

    private func sharesRead(where id: Int64?) throws(StoreError) -> [ShareSettings] {
        try database.query("""
            SELECT s.repository_id, r.full_name, s.branch, s.head_commit, s.ref_etag, s.repository_etag, s.is_public,
                   s.public_allowed, s.can_push, s.unreadable_since, s.waiting_noted, s.added_at
            FROM shares s JOIN repositories r ON r.id = s.repository_id
            WHERE ?1 IS NULL OR s.repository_id = ?1
            ORDER BY r.full_name COLLATE NOCASE
            """, [id.map { .integer($0) } ?? .null]) { row throws(StoreError) in
            ShareSettings(
                repositoryID: try row.int64("repository_id"), fullName: try row.string("full_name"),
                branch: try row.string("branch"), headCommit: try row.optionalString("head_commit"),
                refETag: try row.optionalString("ref_etag"), repositoryETag: try row.optionalString("repository_etag"),
                isPublic: try row.bool("is_public"), publicAllowed: try row.bool("public_allowed"),
                canPush: try row.optionalInt64("can_push").map { $0 == 1 },
                unreadableSince: try Self.optionalTimestamp(row, "unreadable_since"),
                waitingNoted: Int(try row.int64("waiting_noted")), addedAt: try Self.timestamp(row, "added_at"))
        }
    }

    /// Shares a tracked repository's todos. Asked again, it starts afresh but for what was last
    /// read of the branch (what differs from it here is news): the branch is read whole, made
    /// again if it was deleted, and a write GitHub refused is tried again.
    public func addShare(repositoryID: Int64, publicAllowed: Bool, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("""
                INSERT INTO shares (repository_id, branch, public_allowed, added_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (repository_id) DO UPDATE SET public_allowed = excluded.public_allowed, head_commit = NULL,
                    ref_etag = NULL, repository_etag = NULL, can_push = NULL
                """, .integer(repositoryID), .text(Self.sharedBranch), .bool(publicAllowed), .text(now.rfc3339))
            try forgetShareFolders(repositoryID)
        }
    }

    /// Stops sharing a repository's todos here (they stay, private again); false when it was not
    /// shared. The branch's files as last read stay: shared again, only what changed here since goes.
    @discardableResult
    public func removeShare(repositoryID: Int64) throws -> Bool {
        try database.transaction { () throws(StoreError) -> Bool in
            try database.run("DELETE FROM shares WHERE repository_id = ?", .integer(repositoryID)) > 0
        }
    }

    /// The shared branch's files and folders as last read or written, without their texts.
    public func shareEntries(_ repositoryID: Int64) throws -> [String: RemoteEntry] {
        var entries: [String: RemoteEntry] = [:]
        _ = try database.query("""
            SELECT path, sha, mode, first_since, last_since, oldest_removal FROM share_files WHERE repository_id = ?
            """, [.integer(repositoryID)]) { row throws(StoreError) in
            guard let mode = GitMode(try row.string("mode")) else { throw .corrupt }
            let entry = RemoteEntry(path: try row.string("path"), sha: try row.string("sha"), mode: mode, removals: try Self.removals(row))
            entries[entry.path] = entry
        }
        return entries
    }

    /// A file's text as last read or written.
    public func shareContent(_ repositoryID: Int64, _ path: String) throws -> [UInt8]? {
        try database.scalarString("SELECT content FROM share_files WHERE repository_id = ? AND path = ?", .integer(repositoryID),
                                  .text(path)).map { Array($0.utf8) }
    }

    /// Records the branch's files as read or written, and where the branch is.
    public func recordShare(_ repositoryID: Int64, set: [RemoteEntry], removed: Set<String>, head: String?, refETag: String?) throws {
        try database.transaction { () throws(StoreError) in
            for path in removed.sorted() {
                try database.run("DELETE FROM share_files WHERE repository_id = ? AND path = ?", .integer(repositoryID), .text(path))
            }
            for entry in set {
                try database.run("""
                    INSERT OR REPLACE INTO share_files (repository_id, path, sha, mode, content, first_since, last_since, oldest_removal)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, .integer(repositoryID), .text(entry.path), .text(entry.sha), .text(entry.mode.text),
                    .optional(entry.content.map { String(decoding: $0, as: UTF8.self) }),
                    entry.removals.map { .integer($0.firstSince) } ?? .null, entry.removals.map { .integer($0.lastSince) } ?? .null,
                    .optional(entry.removals?.oldest.rfc3339))
            }
            try database.run("""
                UPDATE shares SET head_commit = ?, ref_etag = ?, unreadable_since = NULL WHERE repository_id = ?
                """, .optional(head), .optional(refETag), .integer(repositoryID))
        }
    }

    /// Forgets the branch's folders as last read, so that the next exchange reads its ref and
    /// lists it whole. Its commit stays (the branch was read: gone later, it was deleted), and so
    /// do its files: what differs from them here is what waits to be sent, and a file whose git
    /// name did not change is not read again.
    public func forgetShareTree(_ repositoryID: Int64) throws {
        try database.transaction { () throws(StoreError) in
            try forgetShareFolders(repositoryID)
            try database.run("UPDATE shares SET ref_etag = NULL WHERE repository_id = ?", .integer(repositoryID))
        }
    }

    private func forgetShareFolders(_ repositoryID: Int64) throws(StoreError) {
        try database.run("DELETE FROM share_files WHERE repository_id = ? AND mode = ?", .integer(repositoryID), .text(GitMode.tree.text))
    }

    /// Records what a read of the repository said: its ETag, whether it is public, and whether the token may push.
    public func recordShareRepository(_ repositoryID: Int64, etag: String?, isPublic: Bool, canPush: Bool?) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("""
                UPDATE shares SET repository_etag = ?, is_public = ?, can_push = ?, unreadable_since = NULL WHERE repository_id = ?
                """, .optional(etag), .bool(isPublic), canPush.map { .bool($0) } ?? .null, .integer(repositoryID))
        }
    }

    /// Records that GitHub no longer shows the repository to the token (kept from the first time).
    public func recordShareUnreadable(_ repositoryID: Int64, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("""
                UPDATE shares SET unreadable_since = coalesce(unreadable_since, ?), repository_etag = NULL WHERE repository_id = ?
                """, .text(now.rfc3339), .integer(repositoryID))
        }
    }

    /// Records how many changes wait here, as a sync last said (0: none).
    public func noteShareWaiting(_ repositoryID: Int64, count: Int) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE shares SET waiting_noted = ? WHERE repository_id = ?", .integer(Int64(count)), .integer(repositoryID))
        }
    }

    // MARK: Shared branches of others

    /// A tracked repository to look at for a shared branch, with the ETag of the last look.
    public struct ShareCandidate: Equatable, Sendable {
        public var id: Int64
        public var fullName: String
        public var pushedAt: String?
        public var etag: String?

        public init(id: Int64, fullName: String, pushedAt: String?, etag: String?) {
            self.id = id
            self.fullName = fullName
            self.pushedAt = pushedAt
            self.etag = etag
        }
    }

    /// Tracked repositories not shared from here, not gone, pushed to since they were last looked
    /// at for a shared branch, the longest waiting first, at most `limit`.
    public func shareCandidates(limit: Int) throws -> [ShareCandidate] {
        try database.query("""
            SELECT r.id, r.full_name, r.pushed_at, c.etag FROM repositories r LEFT JOIN share_checks c ON c.repository_id = r.id
            WHERE r.gone = 0 AND r.pushed_at IS NOT NULL AND c.pushed_at IS NOT r.pushed_at
              AND NOT EXISTS (SELECT 1 FROM shares s WHERE s.repository_id = r.id)
            ORDER BY c.pushed_at IS NOT NULL, c.pushed_at, r.id LIMIT ?
            """, [.integer(Int64(limit))]) { row throws(StoreError) in
            ShareCandidate(id: try row.int64("id"), fullName: try row.string("full_name"), pushedAt: try row.optionalString("pushed_at"),
                           etag: try row.optionalString("etag"))
        }
    }

    /// Records what a look for a repository's shared branch found (nil: the same as last time, a
    /// 304); returns whether it is to be said (found, and never said before).
    @discardableResult
    public func recordShareCheck(_ repositoryID: Int64, pushedAt: String?, found: Bool?, etag: String?) throws -> Bool {
        try database.transaction { () throws(StoreError) -> Bool in
            let row = try database.query("SELECT found, noted, etag FROM share_checks WHERE repository_id = ?",
                                         [.integer(repositoryID)]) { row throws(StoreError) in
                (found: try row.bool("found"), noted: try row.bool("noted"), etag: try row.optionalString("etag"))
            }.first
            let isFound = found ?? row?.found ?? false
            let noted = row?.noted ?? false
            try database.run("""
                INSERT INTO share_checks (repository_id, pushed_at, etag, found, noted) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (repository_id) DO UPDATE SET pushed_at = ?2, etag = ?3, found = ?4, noted = ?5
                """, .integer(repositoryID), .optional(pushedAt), .optional(found == nil ? row?.etag : etag), .bool(isFound),
                .bool(noted || isFound))
            return isFound && !noted
        }
    }
}
