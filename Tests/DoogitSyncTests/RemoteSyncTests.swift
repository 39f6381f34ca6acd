import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// One machine: its own database and clock, the shared fake GitHub, and `sync` as the CLI runs it.
final class Machine: @unchecked Sendable {
    let folder = TemporaryDirectory()
    let store: Store
    let github: FakeGitHub
    /// This machine's clock: true time plus its skew.
    var now: Timestamp

    static let dataRepository = "octocat/doogit-data"

    init(_ github: FakeGitHub, now: Timestamp) throws {
        self.github = github
        self.now = now
        store = try Store.open(path: folder.file("doogit.sqlite3"))
        try store.setRemote(repositoryID: 4242, fullName: Self.dataRepository, branch: "master", at: now)
    }

    func client() throws -> GitHubClient { try SyncerTests.client(github) }

    @discardableResult
    func sync(dryRun: Bool = false) throws -> SyncSummary {
        let lock = try #require(try FileLock(path: folder.file("doogit.sqlite3.sync-lock"), wait: true))
        let syncer = Syncer(store: store, github: try client(), lock: lock, clock: { [unowned self] in now })
        return try syncer.run(dryRun: dryRun)
    }

    func advance(seconds: Int64) { now = Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch + seconds * 1000) }

    func track(_ id: Int64, _ fullName: String) throws {
        let parts = fullName.split(separator: "/").map(String.init)
        try store.saveRepository(RepositoryRecord(id: id, owner: parts[0], name: parts[1], fullName: fullName, description: nil,
                                                  url: "https://github.com/\(fullName)", isPrivate: false, archived: false,
                                                  addedAt: now, syncedAt: now))
    }

    func add(_ text: String, to repository: Int64 = 1) throws -> TodoRecord {
        try store.addTodo(repositoryID: repository, text: text, at: now)
    }

    func todo(_ uuid: String) throws -> TodoRecord? {
        try store.sections().flatMap(\.todos).first { $0.uuid == uuid }
    }

    func id(_ uuid: String) throws -> Int64 {
        try #require(try todo(uuid)?.id)
    }

    /// The list as `todo list --json` shows it, local IDs aside.
    func list() throws -> [String] {
        try store.sections().map { section in
            "\(section.repository.fullName): " + section.todos.map { "\($0.text)\($0.done ? " [done]" : "")" }.joined(separator: ", ")
        }
    }
}

/// Sync with the file on GitHub, machine against machine, in-process with clocks the tests set.
@Suite(.serialized)
struct RemoteSyncTests {
    static let t0 = Timestamp(secondsSinceEpoch: 1_780_000_000)

    func world(_ count: Int = 2) throws -> (FakeGitHub, [Machine]) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        github.addRepository(id: 4242, name: "doogit-data", description: nil, isPrivate: true)
        github.contents.setDate(Date(timeIntervalSince1970: Double(Self.t0.millisecondsSinceEpoch) / 1000))
        let machines = try (0..<count).map { _ in try Machine(github, now: Self.t0) }
        try machines[0].track(1, "octocat/app")
        return (github, machines)
    }

    static let todosPath = RemoteLayout.todosPath(1)

    /// Requests for the remote's files (the Git Data API, the Contents API).
    func remoteRequests(_ github: FakeGitHub) -> [ReceivedRequest] {
        github.requests.filter { $0.path.hasPrefix("/repos/\(Machine.dataRepository)/") && !$0.path.hasSuffix("/doogit-data") }
    }

    func refUpdates(_ github: FakeGitHub) -> Int {
        github.requests.filter { $0.method == "PATCH" && $0.path.contains("/git/refs/heads/") }.count
    }

    /// The files a machine holding `replica` would write to a remote of its own: what another
    /// writer commits in the tests.
    static func files(of replica: Replica) -> [String: String?] {
        var files: [String: String?] = [RemoteLayout.repositoriesPath: text(RemotePiece(replica: Replica(repositories: replica.repositories)).encode())]
        var pieces: [Int64: RemotePiece] = [:]
        for (uuid, entry) in replica.todos { pieces[entry.repository.value, default: RemotePiece()].replica.todos[uuid] = entry }
        for (id, piece) in pieces { files[RemoteLayout.todosPath(id)] = text(piece.encode()) }
        return files
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aTodoAddedOnOneMachineReachesTheOtherWithItsRepository() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        let todo = try a.add("write the release notes")
        let pushed = try a.sync()
        #expect(pushed.remote?.pushed == 2 && pushed.remote?.retries == 0)
        #expect(github.contents.file(Machine.dataRepository, Self.todosPath)?.text.contains("\"text\":\"write the release notes\"") == true)
        #expect(github.contents.file(Machine.dataRepository)?.text == Self.text(RemoteLayout.stub), "todos.jsonl: the header alone")
        let pulled = try b.sync()
        #expect(pulled.remote?.pulled == 2 && pulled.remote?.pushed == 0)
        #expect(try b.list() == ["octocat/app: write the release notes"])
        #expect(try b.todo(todo.uuid)?.createdAt == todo.createdAt)
        #expect(try b.store.repositories().first?.description == "the app", "read from GitHub in the same sync")
        #expect(github.contents.messages.contains { $0.hasPrefix("doogit: 1 added") }, "\(github.contents.messages)")
    }

    @Test func aSyncWithNothingNewOnEitherSideIsOne304AndNoWrite() throws {
        let (github, machines) = try world()
        _ = try machines[0].add("one")
        try machines[0].sync()
        try machines[0].sync()  // reads the branch after its own write, once, to learn its ETag
        github.resetCounters()
        let writes = github.contents.writes
        let summary = try machines[0].sync()
        #expect(remoteRequests(github).count == 1)
        #expect(github.rateLimitUsed == 0, "the ref's 304 costs nothing")
        #expect(summary.remote?.pulled == 0 && summary.remote?.pushed == 0)
        #expect(github.contents.writes == writes)
        // The one request was a 304 of the branch's ref: conditional, and free.
        #expect(remoteRequests(github).first?.path.contains("/git/ref/heads/") == true)
        #expect(remoteRequests(github).first?.headers["if-none-match"] != nil)
        // A machine that only reads settles too, at once: it writes nothing, so the next sync has nothing to read.
        try machines[1].sync()
        github.resetCounters()
        try machines[1].sync()
        try machines[0].sync()
        #expect(remoteRequests(github).count == 2 && github.rateLimitUsed == 0)
    }

    /// A machine that joins with nothing of its own reads and writes nothing back: the remote
    /// learns of it with its first change.
    @Test func aMachineThatJoinsWithNothingOfItsOwnWritesNothing() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        _ = try a.add("one")
        try a.sync()
        github.resetCounters()
        let writes = github.contents.writes
        let joined = try b.sync()
        #expect(joined.remote?.pulled == 2 && joined.remote?.pushed == 0)
        #expect(github.contents.writes == writes && refUpdates(github) == 0, "nothing written")
        #expect(github.requests.allSatisfy { $0.method == "GET" })
        #expect(try b.list() == a.list())
        #expect(github.contents.file(Machine.dataRepository, RemoteLayout.metaPath)?.text.split(separator: "\n").count == 3,
                "remote.jsonl: the header, the remote, a's line")
        _ = try b.add("b's first")
        let sent = try b.sync()
        #expect(sent.remote?.pushed == 1 && refUpdates(github) == 1)
        #expect(github.contents.file(Machine.dataRepository, RemoteLayout.metaPath)?.text.split(separator: "\n").count == 4,
                "b's line came with its first change")
        try a.sync()
        #expect(try a.list() == b.list())
    }

    /// A machine's first read lists the todos folder whole, in one request; where GitHub cuts
    /// that listing short (over 100,000 entries), a level at a time, to the same list.
    @Test(arguments: [100_000, 2])
    func aFirstReadListsTheTodosFolderWhole(limit: Int) throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        for id: Int64 in 2...3 {
            github.addRepository(id: id, name: "app\(id)")
            try a.track(id, "octocat/app\(id)")
        }
        for id: Int64 in 1...3 { _ = try a.add("one in \(id)", to: id) }
        try a.sync()
        github.contents.recursiveListingLimit = limit
        github.resetCounters()
        try b.sync()
        #expect(try b.list() == a.list() && a.list().count == 3)
        let trees = remoteRequests(github).filter { $0.method == "GET" && $0.path.contains("/git/trees/") }
        #expect(trees.filter { $0.target.contains("recursive=1") }.count == 1)
        // The root (asked by the commit) and the todos folder whole; cut short: then the folder and its three buckets.
        #expect(trees.count == (limit == 2 ? 6 : 2), "\(trees.map(\.target))")
    }

    /// At 20 repositories, an edit in one is read by the other machine as that one file: the
    /// branch, the root, the todos folder, its bucket, and the blob.
    @Test func anEditIsReadAsTheOneFileThatChanged() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        for id in Int64(10)..<30 {
            github.addRepository(id: id, name: "repo\(id)", description: nil)
            try a.track(id, "octocat/repo\(id)")
            for index in 0..<5 { _ = try a.add("todo \(index) of \(id)", to: id) }
        }
        try a.sync()
        try b.sync()
        #expect(try b.list() == a.list())
        let edited = try #require(try a.store.sections(repositoryIDs: [17]).first?.todos.first)
        _ = try a.store.editTodo(id: edited.id, text: "edited", at: a.now)
        github.resetCounters()
        try a.sync()
        let written = github.requests.first { $0.method == "POST" && $0.path.hasSuffix("/git/trees") }
        let paths = (try? JSONParser.parse(written?.body ?? []).array("tree").map { try $0.string("path") }) ?? []
        #expect(paths == ["remote.jsonl", RemoteLayout.todosPath(17)], "the todo's file and the generation")
        github.resetCounters()
        try b.sync()
        let blobs = github.requests.filter { $0.path.contains("/git/blobs/") }
        #expect(blobs.count == 2, "remote.jsonl and the one todos file: \(blobs.map(\.path))")
        #expect(github.requests.filter { $0.path.contains("/git/trees/") }.count == 3, "the root, todos/, its bucket")
        #expect(try b.list() == a.list())
    }

    @Test(arguments: [true, false])
    func editsOnBothMachinesMergeFieldByField(aSyncsFirst: Bool) throws {
        let (_, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        let first = try a.add("text from a")
        let second = try a.add("second")
        let third = try a.add("third")
        try a.sync()
        try b.sync()
        a.advance(seconds: 10)
        b.advance(seconds: 20)
        // Different fields: a's edit and b's done both survive.
        _ = try a.store.editTodo(id: a.id(first.uuid), text: "edited on a", at: a.now)
        _ = try b.store.setDone([b.id(first.uuid)], done: true, at: b.now)
        // The same field: the later stamp (b's) wins everywhere.
        _ = try a.store.editTodo(id: a.id(second.uuid), text: "a's version", at: a.now)
        _ = try b.store.editTodo(id: b.id(second.uuid), text: "b's version", at: b.now)
        // Removal and a later edit: the removal wins, the edit is kept in the removed todo.
        _ = try a.store.removeTodos([a.id(third.uuid)], at: a.now)
        _ = try b.store.editTodo(id: b.id(third.uuid), text: "edited after the removal", at: b.now)
        for machine in aSyncsFirst ? [a, b, a] : [b, a, b] { try machine.sync() }
        let expected = ["octocat/app: b's version, edited on a [done]"]
        #expect(try a.list() == expected)
        #expect(try b.list() == expected)
        for machine in [a, b] {
            let removed = try #require(try machine.store.replica.read().replica.todos[third.uuid])
            #expect(removed.isRemoved && removed.text.value == "edited after the removal")
        }
    }

    @Test(arguments: [true, false])
    func doneAndUndoAtOnceEndTheSameOnBoth(aSyncsFirst: Bool) throws {
        let (_, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        let todo = try a.add("flip")
        _ = try a.store.setDone([a.id(todo.uuid)], done: true, at: a.now)
        try a.sync()
        try b.sync()
        a.advance(seconds: 5)
        b.advance(seconds: 5)
        _ = try a.store.setDone([a.id(todo.uuid)], done: false, at: a.now)
        _ = try b.store.setDone([b.id(todo.uuid)], done: false, at: b.now)
        _ = try b.store.setDone([b.id(todo.uuid)], done: true, at: b.now)
        for machine in aSyncsFirst ? [a, b, a] : [b, a, b] { try machine.sync() }
        #expect(try a.list() == b.list())
    }

    @Test func aMachineAnHourBehindThatSyncsThenEditsWinsItsLaterEdit() throws {
        let (_, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        b.now = Timestamp(millisecondsSinceEpoch: Self.t0.millisecondsSinceEpoch - 3_600_000)
        let todo = try a.add("original")
        try a.sync()
        try b.sync()
        a.advance(seconds: 60)
        _ = try a.store.editTodo(id: a.id(todo.uuid), text: "a at noon", at: a.now)
        try a.sync()
        b.advance(seconds: 120)  // two minutes after a's edit, by the true time; an hour earlier by b's clock
        try b.sync()
        _ = try b.store.editTodo(id: b.id(todo.uuid), text: "b, later", at: b.now)
        try b.sync()
        try a.sync()
        #expect(try a.todo(todo.uuid)?.text == "b, later")
        #expect(try b.todo(todo.uuid)?.text == "b, later")
    }

    @Test func aClockSetTo2099IsClampedToGitHubsTimeAndReported() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        let todo = try a.add("original")
        try a.sync()
        b.now = try #require(Timestamp(rfc3339: "2099-06-01T00:00:00.000Z"))
        try b.sync()
        _ = try b.store.editTodo(id: b.id(todo.uuid), text: "from 2099", at: b.now)
        let summary = try b.sync()
        #expect((summary.remote?.thisClockAheadBy ?? 0) > 70 * 365 * 86_400_000)
        let file = try #require(github.contents.file(Machine.dataRepository, Self.todosPath)?.text)
        #expect(!file.contains("2099-"), "no stamp from 2099 reaches the file")
        // The machine with the right clock edits later, by the true time: its edit wins.
        a.advance(seconds: 30)
        github.contents.setDate(Date(timeIntervalSince1970: Double(a.now.millisecondsSinceEpoch) / 1000))
        try a.sync()
        _ = try a.store.editTodo(id: a.id(todo.uuid), text: "on time", at: a.now)
        try a.sync()
        try b.sync()
        #expect(try a.todo(todo.uuid)?.text == "on time")
        #expect(try b.todo(todo.uuid)?.text == "on time")
    }

    /// The closing exchange reads nothing, yet clamps as the first one did: a todo imported by a
    /// machine whose clock says 2099 reaches the file dated by GitHub's time.
    @Test func theClosingExchangeClampsAsTheFirstDid() throws {
        let (github, machines) = try world(1)
        let a = machines[0]
        github.activity.setClock(Self.t0.millisecondsSinceEpoch / 1000)
        try a.store.setSettings(repositoryIDs: [1], pushIssues: nil, importIssues: .all, scanCommits: false, at: a.now)
        try a.sync()
        a.now = try #require(Timestamp(rfc3339: "2099-06-01T00:00:00.000Z"))
        github.activity.addIssue(repository: 1, title: "Imported in 2099")
        let summary = try a.sync()
        #expect(summary.issues.imported == 1)
        let file = try #require(github.contents.file(Machine.dataRepository, Self.todosPath)?.text)
        #expect(file.contains("Imported in 2099"), "the closing exchange sent it")
        #expect(!file.contains("2099-06-01T00:00:00.000Z/"), "no stamp from 2099 reaches the file (its creation time is data)")
    }

    /// Another machine's commit lands between this one's read and its move of the branch (or
    /// between its read of the tree and its commit): the move is not a fast forward (422), and
    /// this machine reads what changed, merges and writes again.
    @Test(arguments: [false, true])
    func aWriteThatLosesARaceIsReadMergedAndRetried(afterTheTreeRead: Bool) throws {
        let (github, machines) = try world(3)
        let (a, b, c) = (machines[0], machines[1], machines[2])
        _ = try a.add("from a")
        try a.sync()
        try b.sync()
        try c.sync()
        _ = try b.add("from b")
        _ = try c.add("from c")
        // The branch moves, so that b's exchange reads the tree.
        _ = try a.add("later from a")
        try a.sync()
        // c's write lands in the middle of b's exchange.
        let cWrites = Self.files(of: try c.store.replica.read().replica)
        if afterTheTreeRead {
            github.contents.changeFilesAfterNextTreeRead(Machine.dataRepository, files: cWrites)
        } else {
            github.contents.moveRefBeforeNextUpdate(Machine.dataRepository, files: cWrites)
        }
        github.resetCounters()
        let summary = try b.sync()
        #expect(summary.remote?.retries == 1)
        #expect(refUpdates(github) == 2, "b's refused move, b's retry")
        for machine in [c, a, b, c] { try machine.sync() }
        #expect(try a.list().map { $0.split(separator: ",").count } == [4])
        #expect(try b.list() == a.list() && c.list() == a.list())
    }

    @Test func aRemoteThatKeepsChangingStopsAfterFiveRetriesAndLosesNothing() throws {
        let (github, machines) = try world()
        let a = machines[0]
        _ = try a.add("kept here")
        let writer = Counter()
        github.script { request in
            guard request.method == "PATCH", request.path.contains("/git/refs/heads/") else { return nil }
            // Another writer gets in before every move of the branch.
            github.contents.commitFiles(Machine.dataRepository, ["notes.txt": "writer \(writer.next())"])
            return nil
        }
        do {
            try a.sync()
            Issue.record("the sync succeeded")
        } catch let error as SyncError {
            guard case .exchangeFailed(let failure, let summary) = error else { Issue.record("\(error)"); return }
            #expect(failure == .keptChanging(repository: Machine.dataRepository, attempts: 6))
            #expect(summary.remote?.retries == 6)
        }
        #expect(refUpdates(github) == 6)
        github.script(nil)
        try a.sync()
        #expect(github.contents.file(Machine.dataRepository, Self.todosPath)?.text.contains("kept here") == true)
    }

    @Test func bothMachinesWritingTheFirstFilesAtOnceMerge() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        try b.track(1, "octocat/app")
        _ = try a.add("from a")
        _ = try b.add("from b")
        // b's first files land between a's read (none yet) and a's move of the branch.
        github.contents.moveRefBeforeNextUpdate(Machine.dataRepository, files: Self.files(of: try b.store.replica.read().replica))
        let summary = try a.sync()
        #expect(summary.remote?.retries == 1)
        try b.sync()
        try a.sync()
        #expect(try a.list() == ["octocat/app: from a, from b"] || a.list() == ["octocat/app: from b, from a"])
        #expect(try a.list() == b.list())
    }

    @Test func aFileDoogitCannotReadChangesNothing() throws {
        let (github, machines) = try world()
        let a = machines[0]
        _ = try a.add("mine")
        try a.sync()
        _ = try a.add("waiting")
        let header5 = #"{"format":"doogit","version":"5.0"}"# + "\n"
        // Numbers edited by hand beyond what the commands allow: a bad line, never an overflow.
        let meta = try #require(github.contents.file(Machine.dataRepository, RemoteLayout.metaPath)?.text)
        let hugeHorizon = meta.replacingOccurrences(of: #""horizonDays":90"#, with: #""horizonDays":200000000000"#)
        let lastGeneration = meta.replacingOccurrences(of: #"{"type":"remote","generation":1"#,
                                                       with: #"{"type":"remote","generation":9223372036854775807"#)
        #expect(hugeHorizon != meta && lastGeneration != meta)
        for (path, text, expected) in [(Self.todosPath, "not json\n", "line: 1"), (RemoteLayout.metaPath, header5, "5.0"),
                                       (RemoteLayout.stubPath, header5, "5.0"), (RemoteLayout.todosPath(1), header5, "5.0"),
                                       (RemoteLayout.metaPath, hugeHorizon, "horizonDays"),
                                       (RemoteLayout.metaPath, lastGeneration, "generation")] {
            let before = github.contents.files(Machine.dataRepository)
            github.contents.commitFiles(Machine.dataRepository, [path: text])
            let remote = github.contents.files(Machine.dataRepository)
            let here = try a.store.replica.read()
            do {
                try a.sync()
                Issue.record("accepted \(path): \(text)")
            } catch let error as SyncError {
                guard case .exchangeFailed(.unreadableFile(_, let named, let problem), _) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(named == path)
                #expect("\(problem)".contains(expected))
            }
            #expect(github.contents.files(Machine.dataRepository) == remote, "the remote is left as it is")
            #expect(try a.store.replica.read().replica == here.replica)
            github.contents.commitFiles(Machine.dataRepository, [path: before[path]])
        }
        try a.sync()
        #expect(github.contents.file(Machine.dataRepository, Self.todosPath)?.text.contains("waiting") == true)
    }

    @Test func aNewerDoogitsFileIsKeptAsItIsAndItsFieldsTravel() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        let todo = try a.add("shared")
        try a.sync()
        try b.sync()
        // A newer doogit rewrote the file: a minor version up, a field of its own (stamped), keys in its order.
        let file = try #require(github.contents.file(Machine.dataRepository, Self.todosPath)?.text)
        let stamp = "2026-01-01T00:00:00.000Z/0000/cccccccccccc"
        let newer = file.replacingOccurrences(of: #"{"format":"doogit","version":"4.0","#, with: #"{"version":"4.2","format":"doogit","#)
            .replacingOccurrences(of: #"{"type":"todo","#, with: #"{"estimate":{"hours":2},"type":"todo","#)
            .replacingOccurrences(of: #""clock":{"repository""#, with: #""clock":{"estimate":"\#(stamp)","repository""#)
        github.contents.commitFiles(Machine.dataRepository, [Self.todosPath: newer])
        let writes = github.contents.writes
        try a.sync()
        try b.sync()
        #expect(github.contents.writes == writes, "the same list in another order is not written again")
        #expect(github.contents.file(Machine.dataRepository, Self.todosPath)?.text == newer)
        // A change here is written with the newer doogit's field and version kept.
        _ = try b.store.editTodo(id: b.id(todo.uuid), text: "shared, edited", at: b.now)
        try b.sync()
        let written = try #require(github.contents.file(Machine.dataRepository, Self.todosPath)?.text)
        #expect(written.hasPrefix(#"{"format":"doogit","version":"4.2""#))
        #expect(written.contains(#""estimate":{"hours":2}"#) && written.contains(#""estimate":"\#(stamp)""#))
        #expect(written.contains("shared, edited"))
    }

    @Test func aDryRunReadsAndChangesNothing() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        _ = try a.add("one")
        try a.sync()
        let writes = github.contents.writes
        let summary = try b.sync(dryRun: true)
        #expect(summary.remote?.pulled == 2)
        #expect(try b.list().isEmpty)
        #expect(github.contents.writes == writes)
    }

    @Test func withoutARemoteThereIsNoExchange() throws {
        let (github, machines) = try world()
        try machines[0].store.removeRemote()
        let summary = try machines[0].sync()
        #expect(summary.remote == nil)
        #expect(remoteRequests(github).isEmpty)
    }

    /// A line taken out of a file by hand is written back (this machine held it before); once
    /// written, nothing waits to be sent, though the todo did not wait here before the exchange.
    @Test func aLineDeletedByHandIsWrittenBackAndNothingWaitsAfterTheWrite() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        github.addRepository(id: 4242, name: "doogit-data", description: nil, isPrivate: true)
        github.contents.setDate(Date(timeIntervalSince1970: Double(Self.t0.millisecondsSinceEpoch) / 1000))
        let a = try Machine(github, now: Self.t0)
        let b = try Machine(github, now: Self.t0)
        try a.track(1, "octocat/app")
        _ = try a.add("one")
        _ = try a.add("two")
        try a.sync()
        try b.sync()
        #expect(try b.store.replica.pendingTodos().isEmpty)
        let path = RemoteLayout.todosPath(1)
        let text = try #require(github.contents.file(Machine.dataRepository, path)?.text)
        let kept = text.split(separator: "\n").filter { !$0.contains("\"two\"") }.joined(separator: "\n") + "\n"
        github.contents.commitFiles(Machine.dataRepository, [path: kept])
        // The first exchange alone: no closing exchange tidies up after it.
        let lock = try #require(try FileLock(path: b.folder.file("doogit.sqlite3.sync-lock"), wait: true))
        defer { _ = lock }
        var session = SyncSession(store: b.store, github: try b.client(), clock: { b.now }, machine: try b.store.replica.machineID(),
                                  dryRun: false, rateLimitReserve: 50, progress: { _ in })
        try RemotePhase(closing: false).run(&session)
        #expect(session.summary.remote?.failure == nil)
        #expect(github.contents.file(Machine.dataRepository, path)?.text.contains("\"two\"") == true, "written back")
        #expect(try b.store.replica.pendingTodos().isEmpty, "the write sent what the exchange noted")
    }
}
