import DoogitMerge
import DoogitSupport

/// Where this machine exchanges its todos (`remote init`), and what it last knew of the remote.
public struct RemoteSettings: Equatable, Sendable {
    /// GitHub's id of the repository that holds the files.
    public var repositoryID: Int64
    public var fullName: String
    public var branch: String
    /// The branch's commit as last read or written (nil: never read).
    public var headCommit: String?
    /// The ETag of the last read of the branch, for a conditional one; nil after a write.
    public var refETag: String?
    /// Whether this machine sent this remote its list before.
    public var exchanged: Bool
    public var exchangedAt: Timestamp?
    public var addedAt: Timestamp
    /// The ETag of the remote repository as last checked (to be still private), for a free check,
    /// and whether that check found it public.
    public var repositoryETag: String?
    public var repositoryPublic: Bool
    /// What this machine asked of the remote's own settings, for its next exchange to write.
    public var forget: Set<String>
    public var horizonDays: Register<Int64>?
    /// Whether the board is kept, as asked here and not yet written to the remote (nil: not asked).
    public var board: Register<Bool>? = nil
}

/// A file or folder of the remote as this machine last read or wrote it: git's name for it and,
/// for a file doogit reads, its text and what it holds of removals waiting to leave.
public struct RemoteEntry: Equatable, Sendable {
    public var path: String
    public var sha: String
    /// Its mode as GitHub lists it (a folder's, an executable's, a submodule's...): part of its
    /// folder's name.
    public var mode: GitMode
    public var content: [UInt8]?
    public var removals: RemoteRemovals?

    public var isFolder: Bool { mode.isTree }

    public init(path: String, sha: String, mode: GitMode, content: [UInt8]? = nil, removals: RemoteRemovals? = nil) {
        self.path = path
        self.sha = sha
        self.mode = mode
        self.content = content
        self.removals = removals
    }

    /// The folder it is in ("" for the root's entries; nil for the root itself).
    public var parent: String? {
        guard !path.isEmpty else { return nil }
        return path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// Its name in its folder.
    public var name: Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
    }
}

/// The removals a file holds: their first and last generation, and when the oldest was made.
public struct RemoteRemovals: Equatable, Sendable {
    public var firstSince: Int64
    public var lastSince: Int64
    public var oldest: Timestamp

    public init(firstSince: Int64, lastSince: Int64, oldest: Timestamp) {
        self.firstSince = firstSince
        self.lastSince = lastSince
        self.oldest = oldest
    }
}

extension Store {
    public func remoteSettings() throws -> RemoteSettings? {
        try database.reading { () throws(StoreError) -> RemoteSettings? in try remoteSettingsRead() }
    }

    func remoteSettingsRead() throws(StoreError) -> RemoteSettings? {
        try database.query("""
            SELECT repository_id, full_name, branch, head_commit, ref_etag, exchanged, exchanged_at, added_at, repository_etag,
                   repository_public, forget, horizon_days, horizon_clock, board_on, board_clock
            FROM remote WHERE id = 1
            """) { row throws(StoreError) in
            var horizon: Register<Int64>?
            if let days = try row.optionalInt64("horizon_days") {
                guard let stamp = try row.optionalString("horizon_clock").flatMap(HybridTimestamp.init(text:)) else { throw .corrupt }
                horizon = Register(days, at: stamp)
            }
            var board: Register<Bool>?
            if let on = try row.optionalInt64("board_on") {
                guard let stamp = try row.optionalString("board_clock").flatMap(HybridTimestamp.init(text:)) else { throw .corrupt }
                board = Register(on == 1, at: stamp)
            }
            return RemoteSettings(
                repositoryID: try row.int64("repository_id"), fullName: try row.string("full_name"),
                branch: try row.string("branch"), headCommit: try row.optionalString("head_commit"),
                refETag: try row.optionalString("ref_etag"), exchanged: try row.bool("exchanged"),
                exchangedAt: try Self.optionalTimestamp(row, "exchanged_at"), addedAt: try Self.timestamp(row, "added_at"),
                repositoryETag: try row.optionalString("repository_etag"), repositoryPublic: try row.bool("repository_public"),
                forget: Set((try row.optionalString("forget") ?? "").split(separator: " ").map(String.init)), horizonDays: horizon,
                board: board)
        }.first
    }

    /// Sets (or replaces) where the todos are exchanged: nothing is known of the remote yet, and
    /// everything here waits to be sent there.
    public func setRemote(repositoryID: Int64, fullName: String, branch: String, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            try database.run("""
                INSERT OR REPLACE INTO remote (id, repository_id, full_name, branch, path, exchanged_changes, added_at)
                VALUES (1, ?, ?, ?, ?, 0, ?)
                """, .integer(repositoryID), .text(fullName), .text(branch), .text(RemoteLayout.stubPath), .text(now.rfc3339))
            try database.run("DELETE FROM remote_files")
            try replica.noteEverything()
        }
    }

    /// Keeps the todos on another branch of the same remote (one that another machine already
    /// writes): nothing is known of it yet.
    public func setRemoteBranch(_ branch: String) throws {
        try database.transaction { () throws(StoreError) in
            try database.run("UPDATE remote SET branch = ?, head_commit = NULL, ref_etag = NULL WHERE id = 1", .text(branch))
            try database.run("DELETE FROM remote_files")
        }
    }

    /// Stops exchanging; returns what was set.
    @discardableResult
    public func removeRemote() throws -> RemoteSettings? {
        try transaction {
            let settings = try remoteSettings()
            try database.run("DELETE FROM remote")
            try database.run("DELETE FROM remote_files")
            try database.run("DELETE FROM board_issues")
            return settings
        }
    }

    /// Forgets the remote's files and commit as last read or written, so that the next exchange
    /// reads the branch whole: after a write that failed once GitHub had made its tree, what was
    /// known here of the tree may be what was wrong. The list stays exchanged; what waits, waits.
    public func forgetRemoteTree() throws {
        try database.transaction { () throws(StoreError) in
            try database.run("DELETE FROM remote_files")
            try database.run("UPDATE remote SET head_commit = NULL, ref_etag = NULL WHERE id = 1")
        }
    }

    /// Records the remote repository as checked, with the ETag of the check (what a 304 means next
    /// time) and its name as GitHub gave it: renamed or transferred on GitHub, it keeps its id.
    public func recordRemoteRepository(etag: String?, isPublic: Bool, fullName: String) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE remote SET repository_etag = ?, repository_public = ?, full_name = ? WHERE id = 1",
                                 .optional(etag), .bool(isPublic), .text(fullName))
        }
    }

    /// Asks the remote, at the next exchange, to forget machines or keep removals for `horizonDays`.
    public func requestRemoteSettings(forget: Set<String>, horizonDays: Int64?, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            guard let settings = try remoteSettingsRead() else { return }
            let ids = settings.forget.union(forget).sorted().joined(separator: " ")
            try database.run("UPDATE remote SET forget = ? WHERE id = 1", ids.isEmpty ? .null : .text(ids))
            if let horizonDays {
                try database.run("UPDATE remote SET horizon_days = ?, horizon_clock = ? WHERE id = 1", .integer(horizonDays),
                                 .text(try replica.nextStamp(at: now).text))
            }
        }
    }

    // MARK: The remote as last read or written

    /// Every file and folder of the remote as last read or written, without their texts.
    public func remoteEntries() throws -> [String: RemoteEntry] {
        var entries: [String: RemoteEntry] = [:]
        _ = try database.query("""
            SELECT path, sha, is_folder, mode, first_since, last_since, oldest_removal FROM remote_files
            """) { row throws(StoreError) in
            let isFolder = try row.bool("is_folder")
            // Rows kept before modes were (schema 9) are plain files; their folders were dropped.
            let mode = try row.optionalString("mode").flatMap(GitMode.init) ?? (isFolder ? .tree : .file)
            let entry = RemoteEntry(path: try row.string("path"), sha: try row.string("sha"), mode: mode,
                                    removals: try Self.removals(row))
            entries[entry.path] = entry
        }
        return entries
    }

    /// A file's text as last read or written.
    public func remoteContent(_ path: String) throws -> [UInt8]? {
        try database.scalarString("SELECT content FROM remote_files WHERE path = ?", .text(path)).map { Array($0.utf8) }
    }

    /// Records files and folders as read or written (`set`, with their texts where given) and
    /// gone (`removed`), with where the branch is (and the ETag of that read, nil after a write).
    /// `exchanged`: this machine's list went there (and the settings it asked for).
    public func recordRemote(set: [RemoteEntry], removed: Set<String>, head: String?, refETag: String?, exchanged: Bool,
                             at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in try recordingRemote(set: set, removed: removed, head: head,
                                                                                 refETag: refETag, exchanged: exchanged, at: now) }
    }

    func recordingRemote(set: [RemoteEntry], removed: Set<String>, head: String?, refETag: String?, exchanged: Bool,
                         at now: Timestamp) throws(StoreError) {
        for path in removed.sorted() { try database.run("DELETE FROM remote_files WHERE path = ?", .text(path)) }
        for entry in set {
            try database.run("""
                INSERT OR REPLACE INTO remote_files (path, parent, sha, is_folder, mode, content, first_since, last_since,
                                                     oldest_removal)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, .text(entry.path), .optional(entry.parent), .text(entry.sha), .bool(entry.isFolder), .text(entry.mode.text),
                .optional(entry.content.map { String(decoding: $0, as: UTF8.self) }),
                entry.removals.map { .integer($0.firstSince) } ?? .null, entry.removals.map { .integer($0.lastSince) } ?? .null,
                .optional(entry.removals?.oldest.rfc3339))
        }
        try database.run("UPDATE remote SET head_commit = ?, ref_etag = ?, exchanged_at = ? WHERE id = 1",
                         .optional(head), .optional(refETag), .text(now.rfc3339))
        if exchanged {
            try database.run("""
                UPDATE remote SET exchanged = 1, forget = NULL, horizon_days = NULL, horizon_clock = NULL, board_on = NULL,
                                  board_clock = NULL
                WHERE id = 1
                """)
        }
    }

    static func removals(_ row: Row) throws(StoreError) -> RemoteRemovals? {
        guard let first = try row.optionalInt64("first_since"), let last = try row.optionalInt64("last_since"),
              let oldest = try optionalTimestamp(row, "oldest_removal") else { return nil }
        return RemoteRemovals(firstSince: first, lastSince: last, oldest: oldest)
    }
}
