import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Sync with the files on GitHub, machine against machine, in-process with clocks the tests set:
/// what an exchange reads and writes, and what it leaves alone.
@Suite(.serialized)
struct RemoteSyncTests: RemoteSyncSuite {
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

    /// A machine that joins checks that the branch's `remote.jsonl` names that branch in the
    /// round trip that reads the branch's ref and the repository, and asks none of them twice.
    @Test func aMachineThatJoinsChecksTheBranchInTheRoundTripThatReadsIt() throws {
        let (github, machines) = try world()
        let (a, b) = (machines[0], machines[1])
        _ = try a.add("one")
        try a.sync()
        github.resetCounters()
        let firstRound = ConcurrencyGauge()
        let isFirstRound = { @Sendable (path: String) in
            path.hasSuffix("/contents/\(RemoteLayout.metaPath)") || path.contains("/git/ref/heads/") || path == "/repositories/4242"
        }
        github.script { request in
            guard isFirstRound(request.path) else { return nil }
            firstRound.enter()
            defer { firstRound.leave() }
            _ = firstRound.wait(untilAtOnce: 3, seconds: 10)  // the three meet here when they go together
            return nil
        }
        try b.sync()
        #expect(firstRound.peak == 3, "remote.jsonl, the ref and the repository in one round trip: \(firstRound.peak) at once")
        #expect(github.requests.map(\.path).filter(isFirstRound).count == 3, "\(github.requests.map(\.path))")
        #expect(try b.list() == a.list())
    }

    /// A machine's first read lists the root whole, the todos folder with it, in one request
    /// beside the commit's; where GitHub cuts that listing short (over 100,000 entries), the root
    /// alone, then the todos folder whole, and where that is cut short too, a level at a time,
    /// to the same list.
    @Test(arguments: [100_000, 2])
    func aFirstReadListsTheRootWhole(limit: Int) throws {
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
        #expect(trees.filter { $0.target.contains("recursive=1") }.count == (limit == 2 ? 2 : 1), "\(trees.map(\.target))")
        // The root whole (asked by the commit); cut short: then the root, the todos folder whole,
        // the folder and its three buckets.
        #expect(trees.count == (limit == 2 ? 7 : 1), "\(trees.map(\.target))")
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
        let newer = file.replacingOccurrences(of: #"{"format":"doogit","version":"4.2","#, with: #"{"version":"4.3","format":"doogit","#)
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
        #expect(written.hasPrefix(#"{"format":"doogit","version":"4.3""#))
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
