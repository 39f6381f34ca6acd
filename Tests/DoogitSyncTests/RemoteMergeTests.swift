import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Sync with the files on GitHub when machines changed the same todos, or wrote at once: edits
/// merged field by field, clocks that are wrong, and writes that lose a race read, merged and
/// retried.
@Suite(.serialized)
struct RemoteMergeTests: RemoteSyncSuite {
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
}
