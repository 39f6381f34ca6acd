import DoogitGitHub
import DoogitMerge
@testable import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// A write to the remote that fails part-way: what this machine knew of the remote is read
/// anew, a replica that lags is a failure worth retrying, and nothing is lost.
@Suite(.serialized) struct RemoteWriteFailureTests {
    func world() throws -> (FakeGitHub, Machine) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        github.addRepository(id: 4242, name: "doogit-data", description: nil, isPrivate: true)
        github.contents.setDate(Date(timeIntervalSince1970: Double(RemoteSyncTests.t0.millisecondsSinceEpoch) / 1000))
        let machine = try Machine(github, now: RemoteSyncTests.t0)
        try machine.track(1, "octocat/app")
        _ = try machine.add("first")
        try machine.sync()
        return (github, machine)
    }

    func failure(of machine: Machine) throws -> RemoteFailure? {
        do {
            try machine.sync()
            return nil
        } catch let error as SyncError {
            guard case .exchangeFailed(let failure, _) = error else { throw error }
            return failure
        }
    }

    /// What this machine knows of a file it does not write is wrong (here: its git name): the
    /// guard refuses the commit GitHub made, and the next sync, having forgotten what it knew,
    /// reads the branch whole and writes.
    @Test func afterTheGuardRefusesTheNextSyncReadsTheRemoteAnew() throws {
        let (github, machine) = try world()
        try machine.store.database.run("UPDATE remote_files SET sha = ? WHERE path = ?",
                                       .text(String(repeating: "1", count: 40)), .text(RemoteLayout.stubPath))
        let head = github.contents.head(Machine.dataRepository)
        _ = try machine.add("second")
        guard case .wouldDropFiles(_, let paths)? = try failure(of: machine) else {
            Issue.record("the guard did not refuse")
            return
        }
        #expect(paths == [RemoteLayout.stubPath])
        #expect(github.contents.head(Machine.dataRepository) == head, "the branch did not move")
        #expect(try machine.store.remoteEntries().isEmpty, "what was known of the remote is forgotten")

        let summary = try machine.sync()
        #expect(summary.remote?.pushed == 1)
        #expect(github.contents.file(Machine.dataRepository, RemoteSyncTests.todosPath)?.text.contains("second") == true)
        #expect(try machine.store.replica.hasPending() == false)
    }

    /// A replica that has not caught up with what the write just made answers as if it did not
    /// exist: asked again once after a pause; lagging longer, a failure to try again later (75),
    /// with nothing lost and the next sync writing.
    @Test(arguments: [FakeContents.WriteStep.commit, .refUpdate])
    func aReplicaThatLagsWhileWritingIsWaitedForThenTriedLater(step: FakeContents.WriteStep) throws {
        let (github, machine) = try world()
        _ = try machine.add("second")
        github.contents.lagObjectsOfNextWrite(Machine.dataRepository, count: 1, at: [step])
        let waited = try machine.sync()
        #expect(waited.remote?.pushed == 1 && waited.remote?.failure == nil)

        _ = try machine.add("third")
        github.contents.lagObjectsOfNextWrite(Machine.dataRepository, count: 2, at: [step])
        let head = github.contents.head(Machine.dataRepository)
        guard case .lagging? = try failure(of: machine) else {
            Issue.record("a replica that lags is not said to lag")
            return
        }
        #expect(github.contents.head(Machine.dataRepository) == head)
        #expect(try machine.store.replica.hasPending(), "what waits still waits")
        let sent = try machine.sync()
        #expect(sent.remote?.pushed == 1)
        #expect(github.contents.file(Machine.dataRepository, RemoteSyncTests.todosPath)?.text.contains("third") == true)
    }

    /// The listing of the tree just made (when GitHub named it otherwise than this machine did)
    /// meets a replica that lags: a failure to try again later, not a refusal of the guard.
    @Test func aTreeJustMadeThatCannotBeListedYetIsALag() throws {
        let (github, machine) = try world()
        try machine.store.database.run("UPDATE remote_files SET sha = ? WHERE path = ?",
                                       .text(String(repeating: "1", count: 40)), .text(RemoteLayout.stubPath))
        _ = try machine.add("second")
        github.contents.lagObjectsOfNextWrite(Machine.dataRepository, count: 2, at: [.treeRead])
        guard case .lagging? = try failure(of: machine) else {
            Issue.record("a tree that a replica cannot list yet is not said to lag")
            return
        }
        #expect(try machine.sync().remote?.pushed == 1)
    }

    /// A write that lost its race re-reads the branch; a replica that still shows the branch
    /// where the lost write found it is waited for, not written on again (which must fail, five
    /// times, and end "kept changing").
    @Test func aLostRaceWhoseReReadLagsWaitsAndReadsAgain() throws {
        let (github, machine) = try world()
        _ = try machine.add("mine")
        github.contents.moveRefBeforeNextUpdate(Machine.dataRepository, files: ["notes.txt": "another writer"])
        github.contents.makeRefReadsStaleAfterNextMove(Machine.dataRepository, count: RemotePhase.maximumRetries)
        let summary = try machine.sync()
        #expect(summary.remote?.failure == nil && summary.remote?.retries == 1, "\(String(describing: summary.remote))")
        let files = github.contents.files(Machine.dataRepository)
        #expect(files["notes.txt"] == "another writer" && files[RemoteSyncTests.todosPath]?.contains("mine") == true)
    }
}
