@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing

/// A fresh folder of its own per test (so tests can run in parallel), removed when released.
final class ScratchDirectory {
    let path: String

    init() throws {
        var base = NSTemporaryDirectory()
        if !base.hasSuffix("/") { base += "/" }
        var template = Array((base + "doogit-store-tests-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        path = try #require(made.map { String(cString: $0) })
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}

/// A fixed moment plus `seconds`, so tests never depend on the clock.
func moment(_ seconds: Int64) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: 1_780_000_000_000 + seconds * 1000 + 123)
}

/// A repository record for `owner/name` with the given GitHub id.
func repository(_ id: Int64, _ fullName: String, addedAt: Timestamp = moment(0), description: String? = nil,
                gone: Bool = false) -> RepositoryRecord {
    let parts = fullName.split(separator: "/", maxSplits: 1).map(String.init)
    return RepositoryRecord(id: id, owner: parts[0], name: parts[1], fullName: fullName, description: description,
                            url: "https://github.com/\(fullName)", isPrivate: false, archived: false, gone: gone,
                            addedAt: addedAt, syncedAt: addedAt)
}

/// A store in memory: for tests where WAL and files do not matter.
/// As after an exchange: nothing waits to be sent to the remote.
func settleRemote(_ store: Store) throws {
    try store.database.execute("DELETE FROM remote_pending_todos; DELETE FROM remote_pending_repositories")
}

/// The todos that wait to be sent to the remote.
func waitingTodos(_ store: Store) throws -> Set<String> {
    Set(try store.replica.pendingTodos().keys)
}

func memoryStore() throws -> Store {
    try Store.open(path: ":memory:")
}

extension Store {
    /// A single number from SQL, e.g. a count.
    func count(_ sql: String) throws -> Int64 {
        try database.scalarInt(sql) ?? -1
    }

    /// Every row of every table (including the AUTOINCREMENT counter) and the schema version, as
    /// text: equal snapshots mean nothing was changed.
    func snapshot() throws -> [String] {
        var lines: [String] = []
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            row throws(StoreError) in try row.string(0)
        }
        for table in tables {
            let columns = Int32(try database.scalarInt("SELECT count(*) FROM pragma_table_info(?)", .text(table)) ?? 0)
            lines += try database.query("SELECT * FROM \"\(table)\" ORDER BY 1") { row in
                table + ": " + (0..<columns).map { row.optionalString($0) ?? "NULL" }.joined(separator: "|")
            }
        }
        lines.append("user_version: \(try count("PRAGMA user_version"))")
        return lines
    }

    /// The tombstones as (uuid, repository id, removed at), ordered by uuid.
    func tombstones() throws -> [Tombstone] {
        try database.query("SELECT uuid, repository_id, removed_at FROM todo_tombstones ORDER BY uuid") {
            row throws(StoreError) in
            Tombstone(uuid: try row.string(0), repositoryID: try row.int64(1), removedAt: try row.string(2))
        }
    }

    /// Every todo, by id.
    func allTodos() throws -> [TodoRecord] {
        try sections(includeEmpty: false).flatMap(\.todos).sorted { $0.id < $1.id }
    }
}

struct Tombstone: Equatable {
    var uuid: String
    var repositoryID: Int64
    var removedAt: String
}

/// The permission bits of a file or folder.
func permissions(_ path: String) throws -> mode_t {
    var info = stat()
    try #require(stat(path, &info) == 0, "stat \(path)")
    return info.st_mode & 0o7777
}

/// The extended SQLite result code of a thrown error, if it is one.
func sqliteCode(_ body: () throws -> Void) -> Int32? {
    do {
        try body()
        return nil
    } catch let error as StoreError {
        if case .sqlite(let code, _, _) = error { return code }
        return nil
    } catch {
        return nil
    }
}

/// SQLite's extended result codes that the tests expect.
enum SQLiteCode {
    static let error: Int32 = 1
    static let constraint: Int32 = 19
    static let constraintCheck: Int32 = 275
    static let constraintForeignKey: Int32 = 787
    static let constraintNotNull: Int32 = 1299
    static let constraintUnique: Int32 = 2067
}
