import DoogitMerge
import DoogitStore
import DoogitSupport
import Testing

@Suite("Todos linked to issues: links, observations, import, pending creations, settings")
struct IssueStoreTests {
    private func makeStore() throws -> (Store, TodoRecord) {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        let todo = try store.addTodo(repositoryID: 1, text: "feed the cat", at: moment(1))
        return (store, todo)
    }

    private func snapshot(_ number: Int64, title: String = "Feed the cat", state: IssueState = .open,
                          updatedAt: String = "2026-01-01T00:00:00Z") -> IssueSnapshot {
        IssueSnapshot(number: number, url: "https://github.com/octo/cat/issues/\(number)", title: title, state: state,
                      updatedAt: updatedAt)
    }

    @Test("a link keeps both texts, records the issue as seen under it, and shows in every read of the todo")
    func linkKeepsBothSides() throws {
        let (store, todo) = try makeStore()
        let linked = try store.linkIssue(todoID: todo.id, to: snapshot(12), at: moment(2))
        #expect(linked.text == "feed the cat")
        #expect(linked.issue == IssueLink(number: 12, url: "https://github.com/octo/cat/issues/12", state: .open))
        #expect(try store.sections().flatMap(\.todos).first?.issue?.number == 12)
        let entry = try #require(try store.linkedTodos(repositoryID: 1).first?.entry)
        #expect(entry.observation?.sameIssue(as: IssueObservation(number: 12, state: "open", title: "Feed the cat",
                                                                  url: "https://github.com/octo/cat/issues/12",
                                                                  updatedAt: Timestamp(rfc3339: "2026-01-01T00:00:00Z"),
                                                                  labels: [])) == true)
        #expect(entry.text.stamp < entry.issue.stamp && entry.done.stamp < entry.issue.stamp, "the link changed neither")
        #expect(try store.knownIssueNumbers(repositoryID: 1) == [12])
        #expect(try store.linkedTodoCounts() == [1: 1])

        _ = try store.editTodo(id: todo.id, text: "feed both cats", at: moment(3))
        let edited = try #require(try store.linkedTodos(repositoryID: 1).first?.entry)
        #expect(edited.text.stamp > edited.issue.stamp && edited.done.stamp < edited.issue.stamp)
    }

    @Test("a todo links to one issue, and an issue to one todo; refusals change nothing")
    func oneToOne() throws {
        let (store, todo) = try makeStore()
        let other = try store.addTodo(repositoryID: 1, text: "brush the cat", at: moment(2))
        _ = try store.linkIssue(todoID: todo.id, to: snapshot(12), at: moment(3))
        let before = try store.snapshot()
        #expect(throws: StoreError.todoAlreadyLinked(todo: todo.id, issue: 12)) {
            try store.linkIssue(todoID: todo.id, to: snapshot(13), at: moment(4))
        }
        #expect(throws: StoreError.issueAlreadyLinked(issue: 12, todo: todo.id)) {
            try store.linkIssue(todoID: other.id, to: snapshot(12), at: moment(4))
        }
        #expect(throws: StoreError.todoNotLinked(other.id)) { try store.unlinkIssue(todoID: other.id, at: moment(3)) }
        #expect(try store.snapshot() == before)
        let unlinked = try store.unlinkIssue(todoID: todo.id, at: moment(3))
        #expect(unlinked.issue == nil && unlinked.text == "feed the cat")
        #expect(try store.linkedTodos(repositoryID: 1).isEmpty)
        #expect(try store.knownIssueNumbers(repositoryID: 1) == [12], "an unlinked issue is still never imported")
    }

    @Test("what a sync saw on GitHub is written as a change of this machine's, dated by GitHub, never over a later change")
    func observations() throws {
        let (store, todo) = try makeStore()
        _ = try store.linkIssue(todoID: todo.id, to: snapshot(12), at: moment(2))
        let held = try #require(try store.linkedTodos(repositoryID: 1).first?.entry)
        try settleRemote(store)
        var seen = held
        let closedAt = HybridTimestamp.event(at: moment(5))
        seen.seen.set(snapshot(12, title: "Feed the cat now", state: .closed, updatedAt: "2026-01-02T00:00:00Z").observation(),
                      at: held.issue.stamp)
        seen.done.set(DoneState(doneAt: moment(5)), at: closedAt)
        try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: seen, held: held)]), at: moment(6), asLocalChange: true)
        let after = try store.todo(id: todo.id)
        #expect(after.done && after.doneAt == moment(5) && after.updatedAt == moment(6) && after.issue?.state == .closed)
        #expect(try store.replica.pendingTodos()[todo.uuid] == [1], "to be sent to the other machines")
        #expect(try store.linkedTodos(repositoryID: 1).first?.entry.done.stamp == closedAt)

        // The user reopened it meanwhile: an observation read before that is not written over it.
        _ = try store.setDone([todo.id], done: false, at: moment(8))
        let reopened = try #require(try store.linkedTodos(repositoryID: 1).first?.entry)
        var late = seen
        late.done.set(DoneState(doneAt: moment(7)), at: HybridTimestamp.event(at: moment(7)))
        try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: late, held: seen)]), at: moment(9), asLocalChange: true)
        #expect(try !store.todo(id: todo.id).done && store.linkedTodos(repositoryID: 1).first?.entry.done == reopened.done)
    }

    @Test("the todo of an imported issue has a UUID made from it, the same everywhere, unique in its first digits")
    func importedUUIDs() throws {
        let uuids = (1...200).map { Store.importedTodoUUID(repositoryID: 1_296_269, issueNumber: $0) }
        #expect(Set(uuids.map { $0.prefix(8) }).count == 200)
        #expect(uuids.allSatisfy(UUIDv4.isValid) && uuids.allSatisfy { Array($0)[14] == "8" })
        #expect(Store.importedTodoUUID(repositoryID: 1_296_269, issueNumber: 7) == uuids[6])
        #expect(Store.legacyImportedTodoUUID(repositoryID: 1_296_269, issueNumber: 7).hasPrefix("00000000"))
        // One imported by an earlier doogit is recognised: the issue is not imported twice.
        let (store, _) = try makeStore()
        let legacy = Store.legacyImportedTodoUUID(repositoryID: 1, issueNumber: 7)
        _ = try store.addTodo(repositoryID: 1, text: "Groom", uuid: legacy, at: moment(2))
        #expect(try store.importIssue(repositoryID: 1, issue: snapshot(7, title: "Groom"), at: moment(3)) == nil)
        #expect(try store.knownIssueNumbers(repositoryID: 1) == [7])
    }

    @Test("an issue is imported once: not again after its todo is removed or finished")
    func importOnce() throws {
        let (store, _) = try makeStore()
        let imported = try #require(try store.importIssue(repositoryID: 1, issue: snapshot(7, title: "Groom"), at: moment(2)))
        #expect(imported.text == "Groom" && imported.issue?.number == 7 && !imported.done)
        #expect(try store.importIssue(repositoryID: 1, issue: snapshot(7, title: "Groom"), at: moment(3)) == nil)
        _ = try store.setDone([imported.id], done: true, at: moment(4))
        #expect(try store.importIssue(repositoryID: 1, issue: snapshot(7, title: "Groom"), at: moment(5)) == nil)
        _ = try store.removeTodos([imported.id], at: moment(6))
        #expect(try store.importIssue(repositoryID: 1, issue: snapshot(7, title: "Groom"), at: moment(7)) == nil)
        #expect(try store.importIssue(repositoryID: 2, issue: snapshot(7, title: "Walk"), at: moment(8)) != nil,
                "numbers are per repository")
        let blank = try #require(try store.importIssue(repositoryID: 1, issue: snapshot(8, title: "  "), at: moment(9)))
        #expect(blank.text == "#8")
    }

    @Test("a restored todo comes back linked, unless its issue was linked to another todo meanwhile")
    func restoreKeepsTheLink() throws {
        let (store, todo) = try makeStore()
        let other = try store.addTodo(repositoryID: 1, text: "other", at: moment(2))
        _ = try store.linkIssue(todoID: todo.id, to: snapshot(12), at: moment(3))
        _ = try store.editTodo(id: todo.id, text: "changed here", at: moment(4))
        _ = try store.removeTodos([todo.id], at: moment(5))
        let restored = try store.restoreTodos([todo.id], at: moment(6))
        #expect(restored.first?.issue?.number == 12)
        let entry = try #require(try store.linkedTodos(repositoryID: 1).first?.entry)
        #expect(entry.text.stamp > entry.issue.stamp && entry.observation?.number == 12, "with the issue as seen, and the edit after the link")

        _ = try store.removeTodos([todo.id], at: moment(7))
        _ = try store.linkIssue(todoID: other.id, to: snapshot(12), at: moment(8))
        let again = try store.restoreTodos([todo.id], at: moment(9))
        #expect(again.first?.issue == nil && again.first?.text == "changed here")
        #expect(try store.linkedTodos(repositoryID: 1).map(\.id) == [other.id])
    }

    @Test("a linked todo moves to another repository only when its link is to be forgotten")
    func moveForgetsTheLink() throws {
        let (store, todo) = try makeStore()
        _ = try store.linkIssue(todoID: todo.id, to: snapshot(12), at: moment(2))
        let before = try store.snapshot()
        #expect(throws: StoreError.movingLinkedTodo(todo: todo.id, repository: "octo/cat", issue: 12)) {
            try store.moveTodos([todo.id], toRepository: 2, at: moment(3))
        }
        #expect(try store.snapshot() == before)
        let moved = try store.moveTodos([todo.id], toRepository: 2, unlinking: true, at: moment(3))
        #expect(moved.first?.issue == nil)
        #expect(try store.linkedTodos(repositoryID: 1).isEmpty && store.linkedTodos(repositoryID: 2).isEmpty)
    }

    @Test("pending creations are kept until removed, with their labels")
    func pendingCreations() throws {
        let (store, todo) = try makeStore()
        let pending = PendingIssue(todoUUID: todo.uuid, repositoryID: 1, title: "feed the cat", body: "b\n<!-- m -->",
                                   labels: ["bug", "help wanted"], marker: "<!-- m -->", createdAt: moment(2))
        try store.beginPendingIssue(pending)
        #expect(try store.pendingIssues() == [pending])
        try store.markPendingIssueUnknown(todoUUID: todo.uuid)
        #expect(try store.pendingIssues(todoUUID: todo.uuid).first?.state == .unknown)
        #expect(try store.pendingIssues(todoUUID: "other").isEmpty)
        try store.removePendingIssue(todoUUID: todo.uuid)
        #expect(try store.pendingIssues().isEmpty)
    }

    @Test("settings default to push off, import off, commits on; turning import on forgets the listing state")
    func settings() throws {
        let (store, todo) = try makeStore()
        #expect(try store.repository(id: 1)?.settings == RepositorySettings(pushIssues: false, importIssues: .off, scanCommits: true))
        _ = try store.linkIssue(todoID: todo.id, to: snapshot(12, updatedAt: "2026-01-01T00:00:00Z"), at: moment(2))
        #expect(try store.issueListingState(repositoryID: 1) == IssueListingState(etag: nil, since: "2026-01-01T00:00:00Z"))
        try store.saveIssueListingState(IssueListingState(etag: "W/\"1\"", since: "2026-01-01T00:00:00Z"), repositoryID: 1)

        try store.setSettings(repositoryIDs: [1, 2], pushIssues: true, importIssues: nil, scanCommits: false, at: moment(3))
        #expect(try store.repository(id: 2)?.settings == RepositorySettings(pushIssues: true, importIssues: .off, scanCommits: false))
        #expect(try store.issueListingState(repositoryID: 1).etag == "W/\"1\"")
        try store.setSettings(repositoryIDs: [1], pushIssues: nil, importIssues: .assigned, scanCommits: nil, at: moment(4))
        #expect(try store.repository(id: 1)?.settings.importIssues == .assigned)
        #expect(try store.issueListingState(repositoryID: 1) == IssueListingState(etag: nil, since: nil),
                "the next sync reads every issue, to import the open ones")
        try store.saveIssueListingState(IssueListingState(etag: "W/\"2\"", since: "2026-01-03T00:00:00Z"), repositoryID: 1)
        try store.setSettings(repositoryIDs: [1], pushIssues: nil, importIssues: .all, scanCommits: nil, at: moment(4))
        #expect(try store.issueListingState(repositoryID: 1) == IssueListingState(etag: nil, since: nil),
                "widening import reads every issue again: unchanged ones are what the new setting covers")
        try store.saveIssueListingState(IssueListingState(etag: "W/\"3\"", since: "2026-01-04T00:00:00Z"), repositoryID: 1)
        try store.setSettings(repositoryIDs: [1], pushIssues: nil, importIssues: .assigned, scanCommits: nil, at: moment(4))
        #expect(try store.issueListingState(repositoryID: 1).etag == "W/\"3\"", "narrowing it reads nothing again")

        let before = try store.snapshot()
        #expect(throws: StoreError.unknownRepository("id:9")) {
            try store.setSettings(repositoryIDs: [2, 9], pushIssues: false, importIssues: nil, scanCommits: nil, at: moment(5))
        }
        #expect(try store.snapshot() == before)

        // Saving a repository (as sync does) keeps its settings and a known default branch.
        var record = try #require(try store.repository(id: 1))
        record.defaultBranch = "main"
        try store.saveRepository(record)
        try store.saveRepository(repository(1, "octo/cat"))
        #expect(try store.repository(id: 1)?.settings.importIssues == .assigned)
        #expect(try store.repository(id: 1)?.defaultBranch == "main")
    }

    @Test("the commit scan state is saved per repository")
    func commitScanState() throws {
        let (store, _) = try makeStore()
        #expect(try store.commitScanState(repositoryID: 1) == CommitScanState(branchETag: nil, lastCommitSHA: nil))
        try store.saveCommitScanState(CommitScanState(branchETag: "W/\"b\"", lastCommitSHA: "abc"), repositoryID: 1)
        #expect(try store.commitScanState(repositoryID: 1) == CommitScanState(branchETag: "W/\"b\"", lastCommitSHA: "abc"))
        #expect(try store.commitScanState(repositoryID: 2).lastCommitSHA == nil)
        try store.saveCommitScanState(CommitScanState(branchETag: "W/\"b\"", lastCommitSHA: "abc", pushedAt: "t"), repositoryID: 1)
        var record = try #require(try store.repository(id: 1))
        record.defaultBranch = "main"
        try store.saveRepository(record)
        try store.saveCommitScanState(CommitScanState(branchETag: "W/\"b\"", lastCommitSHA: "abc", pushedAt: "t"), repositoryID: 1)
        try store.saveRepository(record)
        #expect(try store.commitScanState(repositoryID: 1).pushedAt == "t", "the same branch keeps its state")
        record.defaultBranch = "trunk"
        try store.saveRepository(record)
        #expect(try store.commitScanState(repositoryID: 1) == CommitScanState(branchETag: nil, lastCommitSHA: "abc", pushedAt: nil),
                "another default branch is read again, from the last commit seen")
    }
}
