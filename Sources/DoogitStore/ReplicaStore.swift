import DoogitMerge
import DoogitSupport

/// This machine's todo list as a replica, the side of the store that other copies meet: the
/// hybrid logical clock that stamps every change, the whole list read with its stamps, and a
/// merge written back field by field (`ReplicaStore+Apply.swift`). `Store`'s commands stamp
/// their changes through it.
public struct ReplicaStore {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// This machine's id in stamps (twelve hex digits, made when the database was).
    public func machineID() throws -> String {
        try clock().machine
    }

    /// This machine's hybrid logical clock as stored.
    func clock() throws(StoreError) -> HybridClock {
        guard let row = try database.query("SELECT machine_id, clock FROM replica WHERE id = 1", [], { row throws(StoreError) in
            (try row.string("machine_id"), try row.string("clock"))
        }).first, HybridTimestamp.isMachineID(row.0), let latest = HybridTimestamp(text: row.1) else { throw .corrupt }
        return HybridClock(machine: row.0, latest: latest)
    }

    /// The stamp for a change made here now, later than every stamp made or seen here. (What it
    /// changed is noted as waiting to be sent by the triggers of the tables it writes.)
    func nextStamp(at now: Timestamp) throws(StoreError) -> HybridTimestamp {
        var clock = try clock()
        let stamp = clock.tick(now: now)
        try database.run("UPDATE replica SET clock = ? WHERE id = 1", .text(stamp.text))
        return stamp
    }

    /// Stamps the fields a local change wrote on these todos: the one call every change of a
    /// todo makes, so that the change wins over older ones when machines exchange their lists.
    /// The stamp (nil when there was nothing to stamp).
    @discardableResult
    func stamp(_ fields: TodoFields, todos ids: [Int64], at now: Timestamp) throws(StoreError) -> HybridTimestamp? {
        guard !ids.isEmpty, !fields.isEmpty else { return nil }
        let stamp = try nextStamp(at: now)
        let columns = fields.columns
        let sql = "UPDATE todos SET " + columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?"
        for id in ids {
            try database.run(sql, columns.map { _ in SQLValue.text(stamp.text) } + [.integer(id)])
        }
        return stamp
    }

    /// Takes in the latest stamp seen in an exchange, so the next local change is stamped after
    /// it (a machine an hour behind still wins with its later edit); a clock that ran more than
    /// `HybridClock.tolerance` ahead of `reference` (GitHub's time) is brought back to it.
    public func observeClock(_ latest: HybridTimestamp, reference: Timestamp?) throws {
        try database.transaction { () throws(StoreError) in try observe(latest, reference: reference) }
    }

    func observe(_ latest: HybridTimestamp, reference: Timestamp? = nil) throws(StoreError) {
        var clock = try clock()
        clock.observe(latest, reference: reference)
        if let reference { clock.clampLatest(reference: reference) }
        try database.run("UPDATE replica SET clock = ? WHERE id = 1", .text(clock.latest.text))
    }

}

extension Store {
    /// The list as a replica: its clock, the list with its stamps, merges written back.
    public var replica: ReplicaStore { ReplicaStore(database: database) }
}

/// The fields of a todo that a change wrote, each with a stamp of its own.
struct TodoFields: OptionSet, Sendable {
    let rawValue: Int

    static let repository = TodoFields(rawValue: 1)
    static let text = TodoFields(rawValue: 2)
    static let done = TodoFields(rawValue: 4)
    /// Removed or restored.
    static let removed = TodoFields(rawValue: 8)
    /// Linked to an issue, or unlinked.
    static let issue = TodoFields(rawValue: 16)
    static let due = TodoFields(rawValue: 32)
    static let priority = TodoFields(rawValue: 64)
    static let tags = TodoFields(rawValue: 128)
    static let note = TodoFields(rawValue: 256)
    static let author = TodoFields(rawValue: 512)
    /// Who finished it: written with `done`, at its stamp.
    static let finishedBy = TodoFields(rawValue: 1024)
    static let assignee = TodoFields(rawValue: 2048)
    static let keptPrivate = TodoFields(rawValue: 4096)
    /// Everything a new todo has.
    static let added: TodoFields = [.repository, .text, .done]

    var columns: [String] {
        [(TodoFields.repository, "repository_clock"), (.text, "text_clock"), (.done, "done_clock"), (.removed, "removed_clock"),
         (.issue, "issue_clock"), (.due, "due_clock"), (.priority, "priority_clock"), (.tags, "tags_clock"),
         (.note, "note_clock"), (.author, "author_clock"), (.finishedBy, "finished_by_clock"), (.assignee, "assignee_clock"),
         (.keptPrivate, "kept_private_clock")]
            .filter { contains($0.0) }.map(\.1)
    }
}
