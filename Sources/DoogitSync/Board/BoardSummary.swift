import DoogitMerge
import DoogitStore

/// What keeping the board did in a sync: what its reads brought, and what was written.
public struct BoardSummary: Equatable, Sendable {
    public var finished = 0, reopened = 0, edited = 0, added = 0, removed = 0
    /// The texts of the todos removed by deleting their lines (restorable).
    public var removedTexts: [String] = []
    /// Lines that stay on the board as written (they cannot be read, or name no todo here),
    /// told the first time they are read.
    public var unplaced: [String] = []
    /// Bodies written, issues made (a board new, or grown, or made again), and closed.
    public var written = 0, created = 0, closed = 0

    public init() {}

    var changed: Int { finished + reopened + edited + added + removed }

    /// What a read brought, in words (`1 done, 2 added`); nil when it brought nothing.
    public var words: String? {
        var parts: [String] = []
        for (count, what) in [(finished, "done"), (reopened, "open again"), (edited, "edited"), (added, "added"), (removed, "removed")]
        where count > 0 {
            parts.append("\(count) \(what)")
        }
        if !unplaced.isEmpty { parts.append("\(unplaced.count) line\(unplaced.count == 1 ? "" : "s") left as written") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    mutating func add(_ other: BoardSummary) {
        finished += other.finished
        reopened += other.reopened
        edited += other.edited
        added += other.added
        removed += other.removed
        removedTexts += other.removedTexts
        unplaced += other.unplaced
        written += other.written
        created += other.created
        closed += other.closed
    }

    mutating func add(_ report: BoardReading.Report, unplaced new: [String]) {
        finished += report.finished
        reopened += report.reopened
        edited += report.edited
        added += report.added
        removed += report.removed
        removedTexts += report.removedTexts
        unplaced += new
    }
}

/// Whether every machine of the remote keeps the board: as asked here and not yet sent, else as
/// the remote's file says.
public enum BoardSwitch {
    public static func isOn(_ store: Store) throws -> Bool {
        guard let settings = try store.remoteSettings() else { return false }
        var register = try RemoteWaiting.meta(store: store)?.board ?? Register(false, at: .zero)
        if let asked = settings.board { register = register.merged(with: asked) }
        return register.value
    }
}
