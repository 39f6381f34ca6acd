import DoogitSupport

/// Where this machine exchanges its todos (`remote init`), and the file as last read or written.
public struct RemoteSettings: Equatable, Sendable {
    /// GitHub's id of the repository holding the file.
    public var repositoryID: Int64
    public var fullName: String
    public var branch: String
    public var path: String
    /// The blob sha of the file as last read or written, which the next write names.
    public var blobSHA: String?
    /// The ETag of the last read, for a conditional one; nil after a write (its ETag is unknown).
    public var etag: String?
    /// The file as last read or written: what an unchanged file (a 304) is merged with.
    public var content: [UInt8]?
    /// `Store.localChangeCount()` as of the last exchange: changes made since wait to be sent.
    public var exchangedChanges: Int64
    public var exchangedAt: Timestamp?
    public var addedAt: Timestamp
    /// The ETag of the remote repository as last checked (to be still private), for a free check.
    public var repositoryETag: String?
}

extension Store {
    public func remoteSettings() throws -> RemoteSettings? {
        try database.query("""
            SELECT repository_id, full_name, branch, path, blob_sha, etag, content, exchanged_changes, exchanged_at, added_at,
                   repository_etag
            FROM remote WHERE id = 1
            """) { row throws(StoreError) in
            RemoteSettings(
                repositoryID: try row.int64("repository_id"), fullName: try row.string("full_name"),
                branch: try row.string("branch"), path: try row.string("path"), blobSHA: try row.optionalString("blob_sha"),
                etag: try row.optionalString("etag"), content: try row.optionalString("content").map { Array($0.utf8) },
                exchangedChanges: try row.int64("exchanged_changes"), exchangedAt: try Self.optionalTimestamp(row, "exchanged_at"),
                addedAt: try Self.timestamp(row, "added_at"), repositoryETag: try row.optionalString("repository_etag"))
        }.first
    }

    /// Sets (or replaces) where the todos are exchanged; nothing is known yet of the file there.
    public func setRemote(repositoryID: Int64, fullName: String, branch: String, path: String, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("""
                INSERT OR REPLACE INTO remote (id, repository_id, full_name, branch, path, exchanged_changes, added_at)
                VALUES (1, ?, ?, ?, ?, 0, ?)
                """, .integer(repositoryID), .text(fullName), .text(branch), .text(path), .text(now.rfc3339))
        }
    }

    /// Stops exchanging; returns what was set.
    @discardableResult
    public func removeRemote() throws -> RemoteSettings? {
        try transaction {
            let settings = try remoteSettings()
            try database.run("DELETE FROM remote")
            return settings
        }
    }

    /// Records the file as read (or written): its sha, the ETag of the read (nil after a write)
    /// and its content. `exchangedChanges` and `at`, when given, record an exchange that sent
    /// every local change counted up to then.
    public func recordRemoteFile(sha: String?, etag: String?, content: [UInt8]?, exchangedChanges: Int64? = nil,
                                 at now: Timestamp? = nil) throws {
        try database.transaction { () throws(StoreError) in
            try database.run("UPDATE remote SET blob_sha = ?, etag = ?, content = ? WHERE id = 1",
                             .optional(sha), .optional(etag), .optional(content.map { String(decoding: $0, as: UTF8.self) }))
            if let exchangedChanges, let now {
                try database.run("UPDATE remote SET exchanged_changes = ?, exchanged_at = ? WHERE id = 1",
                                 .integer(exchangedChanges), .text(now.rfc3339))
            }
        }
    }

    /// Records the remote repository as checked (private), with the ETag of the check.
    public func recordRemoteRepository(etag: String?) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE remote SET repository_etag = ? WHERE id = 1", .optional(etag))
        }
    }

    /// Records an exchange that found nothing to send or receive.
    public func recordExchange(exchangedChanges: Int64, etag: String?, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("UPDATE remote SET exchanged_changes = ?, exchanged_at = ?, etag = coalesce(?, etag) WHERE id = 1",
                             .integer(exchangedChanges), .text(now.rfc3339), .optional(etag))
        }
    }
}
