import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What exchanging the todos with the file on GitHub did.
public struct RemoteSummary: Equatable, Sendable {
    public var repository: String
    /// Todos and repositories changed here by what other machines wrote.
    public var pulled = 0
    /// Lines of the file this machine's write changed.
    public var pushed = 0
    /// Writes that lost a race with another machine and were read, merged and tried again.
    public var retries = 0
    /// How far ahead of GitHub's time this machine's clock was, when its stamps were clamped.
    public var thisClockAheadBy: Int64?
    /// How far ahead another machine's clock was, when stamps it wrote were clamped.
    public var otherClockAheadBy: Int64?
    /// What the last attempt worked with, and how long its steps took (for `sync -v`).
    public var todos = 0
    public var fileBytes = 0
    public var milliseconds: [(step: String, milliseconds: Double)] = []

    public init(repository: String) {
        self.repository = repository
    }

    public static func == (lhs: RemoteSummary, rhs: RemoteSummary) -> Bool {
        lhs.repository == rhs.repository && lhs.pulled == rhs.pulled && lhs.pushed == rhs.pushed && lhs.retries == rhs.retries
            && lhs.thisClockAheadBy == rhs.thisClockAheadBy && lhs.otherClockAheadBy == rhs.otherClockAheadBy
    }
}

/// Why exchanging with the file on GitHub stopped.
public enum RemoteError: Error, Equatable, Sendable {
    /// The file is not one doogit can read (a bad line, or a newer major version); nothing was changed.
    case unreadableFile(repository: String, path: String, TodoFileError)
    /// Every write lost a race with another writer; the merge is kept here and sent next time.
    case keptChanging(repository: String, attempts: Int)
}

/// Exchanges the todo list with the file on GitHub that `remote init` chose (`todos.jsonl`):
/// read it (conditional on the last ETag, so an unchanged file is one free 304), merge it with
/// this machine's list, commit the merge here in one transaction, and write it back over the
/// blob sha read. A write that lost a race (409, 422) is read, merged and tried again, at most
/// 5 times with jittered pauses, then the sync exits 75; nothing is lost, as the merge is
/// already kept here. Once machines have settled, a sync with nothing new on either side is one
/// 304 and no write.
struct RemotePhase: SyncPhase {
    static let maximumRetries = 5

    func run(_ session: inout SyncSession) throws {
        guard let settings = try session.store.remoteSettings() else { return }
        var summary = RemoteSummary(repository: settings.fullName)
        defer { session.summary.remote = summary }
        var cached = settings
        var attempt = 0
        while true {
            try session.checkBudget()
            let conditional = attempt == 0 && cached.content != nil ? cached.etag : nil
            let read: FileRead
            do {
                read = try session.github.readFile(repository: settings.fullName, path: settings.path, branch: settings.branch,
                                                   ifNoneMatch: conditional)
            } catch {
                throw SyncSession.stop(for: error) ?? .failed(error)
            }
            let pending = try session.store.localChangeCount() - cached.exchangedChanges
            var remoteBytes: [UInt8]?
            var remoteSHA: String?
            var etag: String?
            switch read.answer {
            case .notModified:
                // Unchanged there; only changes made here decide whether to write.
                guard pending > 0 else {
                    if !session.dryRun {
                        try session.store.recordExchange(exchangedChanges: cached.exchangedChanges, etag: nil, at: session.clock())
                    }
                    return
                }
                (remoteBytes, remoteSHA, etag) = (cached.content, cached.blobSHA, cached.etag)
            case .file(let file, let tag):
                // This machine's own last write, read back: nothing new unless it changed something since.
                if file.sha == cached.blobSHA && pending <= 0 {
                    if !session.dryRun {
                        try session.store.recordRemoteFile(sha: file.sha, etag: tag, content: file.content,
                                                           exchangedChanges: cached.exchangedChanges, at: session.clock())
                    }
                    return
                }
                (remoteBytes, remoteSHA, etag) = (file.content, file.sha, tag)
            case .missing:
                break
            }
            var stopwatch = Stopwatch()
            summary.milliseconds = []
            let remote: Replica
            do {
                remote = try remoteBytes.map { bytes throws(TodoFileError) in try TodoFile.decode(bytes).replica } ?? .empty
            } catch {
                throw SyncStop.failed(RemoteError.unreadableFile(repository: settings.fullName, path: settings.path, error))
            }
            summary.milliseconds.append(("read the file", stopwatch.lap()))

            // Merge, clamping stamps from clocks far ahead of GitHub's.
            let local = try session.store.localReplica()
            summary.milliseconds.append(("read the list here", stopwatch.lap()))
            var (mine, theirs) = (local.replica, remote)
            if let reference = read.date {
                let clampedMine = mine.clamped(to: reference), clampedTheirs = theirs.clamped(to: reference)
                (mine, theirs) = (clampedMine.replica, clampedTheirs.replica)
                if let ahead = clampedMine.aheadBy { summary.thisClockAheadBy = ahead }
                if let ahead = clampedTheirs.aheadBy { summary.otherClockAheadBy = ahead }
            }
            let merged = merge(mine, theirs)
            summary.milliseconds.append(("merge", stopwatch.lap()))
            let changes = Store.changes(from: local.replica, to: merged)
            summary.pulled = changes.todos.count + changes.repositoryStates.count
            let bytes = TodoFile.encode(merged)
            summary.milliseconds.append(("write the file", stopwatch.lap()))
            (summary.todos, summary.fileBytes) = (merged.todos.count, bytes.count)
            // Compared as lists, not bytes: a newer doogit may order what it adds otherwise, and
            // two versions must not rewrite each other's file on every sync.
            let needsWrite = remoteBytes == nil || merged != remote
            summary.pushed = needsWrite ? Self.changedLines(from: remote, to: merged) : 0
            if session.dryRun { return }

            // The merge is committed here before anything is written there: a sync killed at any
            // point loses nothing, and the next one sends what this one did not.
            try session.store.transaction {
                try session.store.apply(changes, at: session.clock())
                try session.store.observeClock(merged.latestStamp, reference: read.date)
                try session.store.recordRemoteFile(sha: remoteSHA, etag: etag, content: remoteBytes)
            }
            summary.milliseconds.append(("commit here", stopwatch.lap()))
            guard needsWrite else {
                try session.store.recordExchange(exchangedChanges: local.changeCount, etag: etag, at: session.clock())
                return
            }
            let written: String
            do throws(GitHubError) {
                written = try session.github.writeFile(
                    repository: settings.fullName, path: settings.path, branch: settings.branch, content: bytes, sha: remoteSHA,
                    message: Self.commitMessage(from: remote, to: merged))
            } catch where GitHubClient.isLostRace(error) {
                attempt += 1
                summary.retries = attempt
                guard attempt <= Self.maximumRetries else {
                    throw SyncStop.interrupted(RemoteError.keptChanging(repository: settings.fullName, attempts: attempt))
                }
                cached.content = nil
                // Apart, so that two machines racing do not keep colliding.
                usleep(UInt32(Int.random(in: 20...120) * attempt) * 1000)
                continue
            } catch {
                throw SyncSession.stop(for: error) ?? .failed(error)
            }
            try session.store.recordRemoteFile(sha: written, etag: nil, content: bytes, exchangedChanges: local.changeCount,
                                               at: session.clock())
            return
        }
    }

    /// How many lines of the file a write changes: repositories and todos added or changed.
    static func changedLines(from remote: Replica, to merged: Replica) -> Int {
        merged.todos.filter { remote.todos[$0.key] != $0.value }.count
            + merged.repositories.filter { remote.repositories[$0.key] != $0.value }.count
    }

    /// A commit message a `git log` of the file reads well with: what changed, and from where.
    static func commitMessage(from remote: Replica, to merged: Replica) -> String {
        var added = 0, changed = 0, removed = 0
        for (uuid, todo) in merged.todos {
            guard let before = remote.todos[uuid] else {
                if todo.isRemoved { removed += 1 } else { added += 1 }
                continue
            }
            if before == todo { continue }
            if todo.isRemoved && !before.isRemoved { removed += 1 } else { changed += 1 }
        }
        let counts = [(added, "added"), (changed, "changed"), (removed, "removed")].filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)" }
        let what = counts.isEmpty ? "repositories updated" : counts.joined(separator: ", ")
        let host = hostName()
        return "doogit: \(what)" + (host.isEmpty ? "" : " (from \(host))")
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, 255) == 0 else { return "" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Elapsed time of the steps of an exchange, on the monotonic clock.
struct Stopwatch {
    private var last = Stopwatch.now()

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds since the last lap (or the start).
    mutating func lap() -> Double {
        let now = Self.now()
        defer { last = now }
        return now - last
    }
}
