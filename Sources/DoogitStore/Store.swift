import DoogitSupport

/// The todo list on disk: repositories as sections, todos as items. Every change runs in one
/// immediate transaction and checks everything it needs before it writes anything, so a refused
/// or failed command leaves the database as it was. Changes compose: inside `transaction` several
/// of them commit or roll back together.
public final class Store {
    public let database: Database

    /// `PRAGMA application_id` of a doogit database ('doog').
    public static let applicationID: Int64 = 1_685_024_615

    /// Refuses a database from a newer doogit, or another program's, before anything is written
    /// to it; otherwise turns on WAL and brings the schema up to date. A read-only connection
    /// needs a schema that is already current.
    public init(database: Database) throws {
        self.database = database
        let found = try Migrator.currentVersion(of: database)
        guard found <= Migrations.latestVersion else {
            throw StoreError.newerSchema(found: found, known: Migrations.latestVersion)
        }
        try Self.requireDoogitFile(database, version: found)
        guard database.access == .readWrite else {
            guard found == Migrations.latestVersion else {
                throw StoreError.upgradeNeedsWriteAccess(found: found, known: Migrations.latestVersion)
            }
            return
        }
        try database.enableWriteAheadLog()
        try Migrator.migrate(database)
    }

    /// A file is doogit's when it says so (application_id), or is empty, or is an older doogit
    /// database (which predates the application_id) with doogit's tables.
    private static func requireDoogitFile(_ database: Database, version: Int) throws(StoreError) {
        let applicationID = try database.scalarInt("PRAGMA application_id") ?? 0
        if applicationID == Self.applicationID { return }
        guard applicationID == 0 else { throw .foreignDatabase }
        let tables = Set(try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") {
            row throws(StoreError) in try row.string(0)
        })
        if tables.isEmpty { return }
        guard version >= 1, tables.isSuperset(of: ["repositories", "todos"]) else { throw .foreignDatabase }
    }

    /// Opens (creating if needed) the database at `path`: missing parent folders are made with
    /// mode 0700 and a new file with mode 0600, before SQLite writes anything to it. With
    /// `readOnlyFallback` (commands that only read), a database that cannot be written, or that
    /// sits in a folder that cannot be written, is opened read-only instead.
    public static func open(path: String, readOnlyFallback: Bool = false) throws -> Store {
        if path != ":memory:" {
            if Files.isDirectory(path) { throw StoreError.isDirectory(path: path) }
            if !Files.exists(path) {
                let folder = Files.parentFolder(of: path)
                if let reason = Files.createDirectories(folder, mode: 0o700) {
                    throw StoreError.cannotCreateDirectory(path: folder, reason: reason)
                }
                if let reason = Files.createFileIfMissing(path, mode: 0o600) {
                    if Files.exists(folder) && !Files.isWritable(folder) { throw StoreError.readOnlyFolder(path: folder) }
                    throw StoreError.cannotCreateFile(path: path, reason: reason)
                }
            }
        }
        do {
            return try Store(database: try Database(path: path))
        } catch let error as StoreError {
            guard readOnlyFallback else { throw error }
            switch error {
            case .readOnlyFiles, .readOnlyFolder: break
            default: throw error
            }
            // Reading needs the write-ahead log's index file; where it cannot be made, the file is
            // read as it is on disk.
            if let store = try? Store(database: try Database(path: path, access: .readOnly)) { return store }
            do {
                return try Store(database: try Database(path: path, access: .immutable))
            } catch let fallback as StoreError {
                switch fallback {
                case .upgradeNeedsWriteAccess, .newerSchema, .foreignDatabase, .corrupt, .notADatabase: throw fallback
                default: throw error
                }
            }
        }
    }

    /// `syncedAt` of a repository that came from another machine and was not read from GitHub yet.
    public static let neverSynced = Timestamp(millisecondsSinceEpoch: 0)

    /// Runs several store operations as one transaction: all of them or none.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(body)
    }

    static func timestamp(_ row: Row, _ column: String) throws(StoreError) -> Timestamp {
        guard let value = try row.optionalTimestamp(column) else { throw .unexpectedNull(column: column) }
        return value
    }

    static func optionalTimestamp(_ row: Row, _ column: String) throws(StoreError) -> Timestamp? {
        try row.optionalTimestamp(column)
    }
}
