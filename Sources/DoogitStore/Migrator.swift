/// Brings a database's schema forward. Each migration and its version bump commit together in one
/// immediate transaction, so a crash never leaves a half-applied step; a database from a newer
/// doogit is refused and left untouched.
public enum Migrator {
    public static func currentVersion(of database: Database) throws(StoreError) -> Int {
        Int(try database.scalarInt("PRAGMA user_version") ?? 0)
    }

    public static func migrate(_ database: Database, to migrations: [Migration] = Migrations.all) throws {
        let known = migrations.count
        let found = try currentVersion(of: database)
        guard found != known else { return }
        guard found < known else { throw StoreError.newerSchema(found: found, known: known) }
        // A migration that rebuilds a table (create, copy, drop, rename) would cascade-delete every
        // row pointing at it while foreign keys are enforced. SQLite ignores this pragma inside a
        // transaction, so it is switched off around them, and each migration checks the keys
        // itself before it commits.
        try database.execute("PRAGMA foreign_keys = OFF")
        defer { try? database.execute("PRAGMA foreign_keys = ON") }
        for migration in migrations where migration.version > found {
            try database.transaction { () throws(StoreError) in
                // Another process may have migrated while this one waited for the lock.
                let version = try currentVersion(of: database)
                guard version < migration.version else { return }
                guard version == migration.version - 1 else {
                    throw StoreError.newerSchema(found: version, known: known)
                }
                try database.execute(migration.sql)
                let orphans = try database.query("PRAGMA foreign_key_check") { row throws(StoreError) in try row.string(0) }
                if let table = orphans.first { throw StoreError.foreignKeyViolation(table: table) }
                try database.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
