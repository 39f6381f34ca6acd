import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// Links to issues and repository settings travel between machines through the todo file, and a
/// link that arrives makes the next syncs neither push nor pull what they should not.
@Suite(.serialized)
struct RemoteIssueSyncTests {
    func world() throws -> (FakeGitHub, Machine, Machine) {
        let (github, machines) = try RemoteSyncTests().world()
        github.activity.setClock(RemoteSyncTests.t0.millisecondsSinceEpoch / 1000)
        return (github, machines[0], machines[1])
    }

    func patches(_ github: FakeGitHub) -> [Int64] { github.activity.writes(repository: 1, method: "PATCH") }

    @Test func aLinkAndSettingsMadeOnOneMachineReachTheOtherWhichThenNeitherPushesNorPulls() throws {
        let (github, a, b) = try world()
        let todo = try a.add("feed the cat")
        let number = github.activity.addIssue(repository: 1, title: "Cat food is low")
        _ = try IssueLinker(store: a.store, github: try a.client(), clock: { a.now }).link(todoID: todo.id, owner: nil,
                                                                                             name: nil, number: number)
        try a.store.setSettings(repositoryIDs: [1], pushIssues: true, importIssues: nil, scanCommits: nil, at: a.now)
        try a.sync()
        #expect(github.contents.file(Machine.dataRepository, RemoteSyncTests.todosPath)?.text.contains(
            #""issue":{"number":\#(number),"url":"https://github.com/octocat/app/issues/\#(number)","repository":1},"issueSeen":{"number":\#(number),"state":"open","title":"Cat food is low""#) == true)
        #expect(github.contents.file(Machine.dataRepository, RemoteLayout.repositoriesPath)?.text.contains(
            #""settings":{"pushIssues":true,"importIssues":"off","scanCommits":true}"#) == true)

        try b.sync()
        let arrived = try #require(try b.todo(todo.uuid))
        #expect(arrived.issue?.number == number)
        #expect(try b.store.repository(id: 1)?.settings.pushIssues == true)
        // The issue's title differs from the todo's text (linking changes neither): not pulled, not pushed.
        try b.sync()
        try a.sync()
        #expect(try b.todo(todo.uuid)?.text == "feed the cat" && a.todo(todo.uuid)?.text == "feed the cat")
        #expect(patches(github).isEmpty)
        #expect(github.activity.issue(repository: 1, number: number)?.title == "Cat food is low")

        // Closed on GitHub: both machines finish the todo, and nothing is written back.
        github.activity.close(repository: 1, number: number)
        for machine in [b, a, b, a] {
            machine.advance(seconds: 10)
            try machine.sync()
        }
        #expect(try a.todo(todo.uuid)?.done == true && b.todo(todo.uuid)?.done == true)
        #expect(patches(github).isEmpty)
        // Settled: syncs on both sides write nothing more.
        let writes = github.contents.writes
        try a.sync()
        try b.sync()
        #expect(github.contents.writes == writes)

        // Edited on b with pushing on: b retitles the issue, a (receiving the edit) does not again.
        b.advance(seconds: 10)
        _ = try b.store.editTodo(id: b.id(todo.uuid), text: "buy cat food", at: b.now)
        for machine in [b, a, b, a] {
            machine.advance(seconds: 10)
            try machine.sync()
        }
        #expect(github.activity.issue(repository: 1, number: number)?.title == "buy cat food")
        #expect(patches(github) == [number], "one PATCH, from the machine that made the edit")
        #expect(try a.todo(todo.uuid)?.text == "buy cat food")

        // Unlinked on a: unlinked on b.
        _ = try a.store.unlinkIssue(todoID: a.id(todo.uuid), at: a.now)
        try a.sync()
        try b.sync()
        #expect(try b.todo(todo.uuid)?.issue == nil)
    }

    @Test func twoMachinesImportingOneIssueMakeOneTodo() throws {
        let (github, a, b) = try world()
        let number = github.activity.addIssue(repository: 1, title: "Imported once")
        try a.store.setSettings(repositoryIDs: [1], pushIssues: nil, importIssues: .all, scanCommits: nil, at: a.now)
        // a imports after its exchange; b receives the setting and imports before hearing of a's todo.
        try a.sync()
        try b.sync()
        #expect(try a.list() == ["octocat/app: Imported once"] && b.list() == ["octocat/app: Imported once"])
        for machine in [a, b, a] {
            machine.advance(seconds: 10)
            try machine.sync()
        }
        #expect(try a.list() == ["octocat/app: Imported once"] && b.list() == ["octocat/app: Imported once"])
        let uuid = Store.importedTodoUUID(repositoryID: 1, issueNumber: number)
        #expect(try a.todo(uuid)?.issue?.number == number && b.todo(uuid)?.issue?.number == number)
        #expect(try a.store.replica.read().replica == b.store.replica.read().replica)
    }

    /// A linked todo restored on another machine, whose issue was closed while it was removed
    /// (and whose listing moved on meanwhile, past the close): the machine that receives the
    /// restore reads the issue again, even when the restoring machine could not.
    @Test func aRestoreFromAnotherMachineReadsItsIssueAgain() throws {
        let (github, a, b) = try world()
        github.activity.setClock(1_893_456_000)
        let linker = IssueLinker(store: a.store, github: try a.client(), clock: { a.now })
        let todo = try a.add("feed the cat"), other = try a.add("another linked todo")
        let number = github.activity.addIssue(repository: 1, title: "Cat food is low")
        _ = try linker.link(todoID: todo.id, owner: nil, name: nil, number: number)
        _ = try linker.link(todoID: other.id, owner: nil, name: nil, number: github.activity.addIssue(repository: 1, title: "other"))
        for machine in [a, b] { machine.advance(seconds: 10); try machine.sync() }
        _ = try a.store.removeTodos([todo.id], at: a.now)
        for machine in [a, b] { machine.advance(seconds: 10); try machine.sync() }

        github.activity.setClock(1_893_456_100)
        github.activity.close(repository: 1, number: number)
        github.activity.setClock(1_893_456_200)
        for index in 1...60 { github.activity.addIssue(repository: 1, title: "busy \(index)") }
        for machine in [a, b, a, b] { machine.advance(seconds: 10); try machine.sync() }
        let removed = try #require(try b.store.removedSections().flatMap(\.todos).first { $0.uuid == todo.uuid })

        // b restores it, and cannot read the repository's issues in that sync.
        _ = try b.store.restoreTodos([removed.id], at: b.now)
        github.activity.failNext("GET", pathSuffix: "/repos/octocat/app/issues", count: 10, with: .status(502))
        b.advance(seconds: 10)
        _ = try? b.sync()
        _ = github.activity.clearFaults()
        #expect(try b.todo(todo.uuid)?.done == false)

        a.advance(seconds: 10)
        try a.sync()
        #expect(try a.todo(todo.uuid)?.done == true, "the restore that arrived read its issue: closed")
    }
}
