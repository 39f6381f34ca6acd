import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What exchanging the todos with the file on GitHub did (both exchanges of a sync together).
public struct RemoteSummary: Equatable, Sendable {
    /// The remote repository's name (its name now, when GitHub renamed or transferred it).
    public var repository: String
    /// Its name before, when the sync found it renamed or transferred on GitHub.
    public var formerName: String?
    /// Todos and repositories changed here by what other machines wrote.
    public var pulled = 0
    /// Lines of the file this machine's writes changed: only writes GitHub took count.
    public var pushed = 0
    /// Writes that lost a race with another machine and were read, merged and tried again.
    public var retries = 0
    /// Values of the file that were changed by hand (without their stamps), taken as changes.
    public var handEdits = 0
    /// How far ahead of GitHub's time this machine's clock was, when its stamps were clamped.
    public var thisClockAheadBy: Int64?
    /// How far ahead another machine's clock was, when stamps it wrote were clamped.
    public var otherClockAheadBy: Int64?
    /// Todos edited here whose removal had left the remote meanwhile: the edits were dropped.
    public var droppedEdits: [String: DroppedEdit] = [:]
    /// Repositories another machine stopped tracking (`repo remove --force`), by id: no longer
    /// tracked here either, their todos removed with them.
    public var untrackedElsewhere: [Int64: UntrackedElsewhere] = [:]
    /// Why the exchange failed (the rest of the sync went on); nil when it did not.
    public var failure: RemoteFailure?
    /// What the last attempt worked with, and how long its steps took (for `sync -v`).
    public var todos = 0
    public var fileBytes = 0
    public var milliseconds: [(step: String, milliseconds: Double)] = []

    public init(repository: String) {
        self.repository = repository
    }

    public static func == (lhs: RemoteSummary, rhs: RemoteSummary) -> Bool {
        lhs.repository == rhs.repository && lhs.formerName == rhs.formerName && lhs.pulled == rhs.pulled && lhs.pushed == rhs.pushed && lhs.retries == rhs.retries
            && lhs.handEdits == rhs.handEdits && lhs.thisClockAheadBy == rhs.thisClockAheadBy
            && lhs.otherClockAheadBy == rhs.otherClockAheadBy && lhs.droppedEdits == rhs.droppedEdits
            && lhs.untrackedElsewhere == rhs.untrackedElsewhere && lhs.failure == rhs.failure
    }

    /// Notes the repository's name as this machine knows it now: another than the summary's is
    /// GitHub's rename or transfer, and the name it had at the sync's start is its former one.
    mutating func noteName(_ name: String) {
        guard name != repository else { return }
        if formerName == nil { formerName = repository }
        repository = name
        if formerName == name { formerName = nil }
    }

    /// Notes the edits made here that an exchange's plan drops, by what the user knows them by.
    mutating func noteDropped(_ plan: RemoteExchange.Plan, here: Replica) {
        for uuid in plan.dropped {
            droppedEdits[uuid] = DroppedEdit(text: here.todos[uuid]?.text.value ?? "", restorable: plan.local.todos[uuid] != nil)
        }
    }
}

extension RemoteSummary {
    /// Notes the repositories tracked here that an exchange's plan stops tracking (another
    /// machine's `repo remove --force`), with the todos here it removes with them and how many
    /// of those changed here since they were last sent (`changedHere`).
    mutating func noteUntracked(_ plan: RemoteExchange.Plan, here: Replica, changedHere: Set<String>) {
        for (id, before) in here.repositories where before.tracked.value {
            guard plan.local.repositories[id]?.tracked.value != true else { continue }
            let removed = here.todos.filter { uuid, entry in
                entry.repository.value == id && !entry.isRemoved && plan.local.todos[uuid]?.isRemoved != false
            }.keys
            let name = plan.local.repositories[id]?.name.value.fullName ?? before.name.value.fullName
            untrackedElsewhere[id] = UntrackedElsewhere(fullName: name, todos: removed.count,
                                                        changedHere: removed.filter(changedHere.contains).count)
        }
    }
}

/// A repository another machine stopped tracking: its name, how many of its todos were removed
/// here with it, and how many of those had changed here since they were last sent.
public struct UntrackedElsewhere: Equatable, Sendable {
    public var fullName: String
    public var todos: Int
    public var changedHere: Int

    public init(fullName: String, todos: Int, changedHere: Int) {
        self.fullName = fullName
        self.todos = todos
        self.changedHere = changedHere
    }
}

/// An edit made here of a todo whose removal left the remote meanwhile: the todo's text here,
/// and whether the todo can still be restored here (its removal is not older than the horizon).
public struct DroppedEdit: Equatable, Sendable {
    public var text: String
    public var restorable: Bool

    public init(text: String, restorable: Bool) {
        self.text = text
        self.restorable = restorable
    }
}

/// Why an exchange with the file on GitHub failed. The local changes wait for the next one.
public enum RemoteFailure: Error, Equatable, Sendable {
    /// The file is not one this doogit can write (a bad line, or a newer major version).
    case unreadableFile(repository: String, path: String, TodoFileError)
    /// The repository is gone (deleted, or the token cannot see it any more).
    case repositoryMissing(repository: String)
    /// The branch the todos are kept on is gone; `defaultBranch` is the repository's now.
    case branchMissing(repository: String, branch: String, defaultBranch: String)
    /// The repository was made public: nothing is written there while it stays so.
    case madePublic(repository: String)
    /// A commit the branch names could not be read yet: GitHub's replicas lag right after a write.
    case lagging(repository: String)
    /// The tree GitHub made for a write did not keep every file the write did not mean to change:
    /// the branch was not moved (a last guard; this machine's knowledge of the remote is read anew).
    case wouldDropFiles(repository: String, paths: [String])
    /// GitHub refused to read or write it (403: no access, an archived repository).
    case refused(repository: String, message: String)
    /// The token reads the repository but may not write to it: GitHub answers a write without
    /// push access as not found (to a classic token) while the repository stays readable.
    case readOnly(repository: String)
    /// Every write lost a race with another writer; the merge is kept here and sent next time.
    case keptChanging(repository: String, attempts: Int)
    /// GitHub could not be reached or kept failing.
    case unavailable(repository: String, GitHubError)
    /// Anything else GitHub answered.
    case failed(repository: String, GitHubError)

    /// The failure a GitHub error means for the exchange with `repository`.
    static func of(_ error: GitHubError, repository: String) -> RemoteFailure {
        switch error {
        case .forbidden(let message, let hint): return .refused(repository: repository, message: message + (hint.map { " (\($0))" } ?? ""))
        case .notFound(.repository, _), .unavailable: return .repositoryMissing(repository: repository)
        case .network, .serverError, .outcomeUnknown: return .unavailable(repository: repository, error)
        default: return .failed(repository: repository, error)
        }
    }
}

/// What waits here to be sent to the remote, and what this machine knows of the remote.
public enum RemoteWaiting {
    /// How many lines of the remote's files (todos and repositories) this machine's next
    /// exchange would change, if nobody else wrote meanwhile: what `sync` then reports as sent.
    public static func count(store: Store, settings: RemoteSettings, now: Timestamp) throws -> Int {
        guard try store.replica.hasPending() else { return 0 }
        var attempt = try RemoteAttempt(
            settings: settings, known: RemoteTree(entries: try store.remoteEntries()), fresh: [:],
            pending: try store.replica.pendingTodos(), pendingRepositories: try store.replica.pendingRepositories(), now: now,
            store: store, machine: try store.replica.machineID())
        return try attempt.plan().changedLines
    }

    /// The remote's own line and its machines, as this machine last read them (nil: never read).
    public static func meta(store: Store) throws -> RemoteMeta? {
        guard let bytes = try store.remoteContent(RemoteLayout.metaPath) else { return nil }
        return try? RemoteMeta.decode(bytes, handEdit: .zero)
    }
}

extension RemotePhase {
    /// A commit message a `git log` of the remote reads well with: what changed, and from where
    /// (`host` empty: not said, as on a shared branch, whose readers have no need of it).
    static func commitMessage(_ plan: RemoteExchange.Plan, host: String = hostName()) -> String {
        var counts = [(plan.added, "added"), (plan.changed, "changed"), (plan.removed, "removed")].filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)" }
        if plan.droppedLines > 0 { counts.append("\(plan.droppedLines) old removal\(plan.droppedLines == 1 ? "" : "s") dropped") }
        let what = counts.isEmpty ? (plan.changedLines > 0 ? "repositories updated" : "machines updated") : counts.joined(separator: ", ")
        return "doogit: \(what)" + (host.isEmpty ? "" : " (from \(host))")
    }

    /// This machine's name, to know it by in commits and in the remote's list of machines.
    static func hostName() -> String {
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

    /// Milliseconds since the last lap (or the start), leaving the lap running.
    func elapsed() -> Double { Self.now() - last }

    /// Milliseconds since the last lap (or the start).
    mutating func lap() -> Double {
        let now = Self.now()
        defer { last = now }
        return now - last
    }
}
