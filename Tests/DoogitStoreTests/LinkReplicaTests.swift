import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing

/// Links to issues, the issues as seen, and repository settings as fields that machines exchange:
/// every local change of them is stamped, and what a sync sees of an issue never changes the link.
@Suite("Store: links and settings as replicated fields")
struct LinkReplicaTests {
    static let other = "bbbbbbbbbbbb"

    func entry(_ store: Store, _ uuid: String) throws -> TodoEntry {
        try #require(try store.replica.read().replica.todos[uuid])
    }

    func snapshot(_ number: Int64, title: String = "Feed the cat", state: IssueState = .open) -> IssueSnapshot {
        IssueSnapshot(number: number, url: "https://github.com/octo/cat/issues/\(number)", title: title, state: state,
                      updatedAt: "2026-01-01T00:00:00Z")
    }

    func link(_ number: Int64, repository: Int64 = 1) -> LinkedIssue {
        LinkedIssue(number: number, repository: repository, url: "https://github.com/octo/cat/issues/\(number)")
    }

    func seen(_ number: Int64, state: String = "open", title: String = "Feed the cat", at second: Int64 = 0) -> IssueObservation {
        IssueObservation(number: number, state: state, title: title, url: "https://github.com/octo/cat/issues/\(number)",
                         updatedAt: moment(second))
    }

    func stamp(_ second: Int64, _ machine: String = other) -> HybridTimestamp {
        HybridTimestamp(wall: moment(second).millisecondsSinceEpoch, counter: 0, machine: machine)
    }

    func makeStore() throws -> Store {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        return store
    }

    /// Merges `other` into the store as sync does, and returns the merge.
    @discardableResult
    func receive(_ store: Store, _ change: (inout Replica) -> Void, at second: Int64) throws -> Replica {
        let local = try store.replica.read()
        var other = local.replica
        change(&other)
        let merged = merge(local.replica, other)
        try store.replica.apply(ReplicaChanges(from: local.replica, to: merged), at: moment(second))
        return merged
    }

    @Test("linking, unlinking, an issue's new state, importing, moving and restoring stamp the link")
    func everyChangeOfALinkIsStamped() throws {
        let store = try makeStore()
        let todo = try store.addTodo(repositoryID: 1, text: "feed the cat", at: moment(1))
        let added = try entry(store, todo.uuid)
        #expect(added.issue == Register(nil, at: .zero), "never linked: nothing to exchange")
        try settleRemote(store)

        _ = try store.linkIssue(todoID: todo.id, to: snapshot(12), at: moment(2))
        let linked = try entry(store, todo.uuid)
        #expect(linked.issue.value == link(12) && linked.issue.stamp > added.text.stamp)
        #expect(linked.text == added.text, "linking changes no text")

        // What a sync sees of the issue (closed, and the todo finished as of then) never stamps the link.
        var observed = linked
        observed.seen.set(seen(12, state: "closed", at: 3), at: linked.issue.stamp)
        observed.done.set(DoneState(doneAt: moment(3)), at: HybridTimestamp.event(at: moment(3)))
        try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: observed, held: linked)]), at: moment(3), asLocalChange: true)
        let pulled = try entry(store, todo.uuid)
        #expect(pulled == observed && pulled.issue == linked.issue && pulled.observation?.isClosed == true)
        try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: observed, held: pulled)]), at: moment(4), asLocalChange: true)
        #expect(try entry(store, todo.uuid) == pulled, "the same observation again changes nothing")
        _ = try store.editTodo(id: todo.id, text: "feed the cat now", at: moment(5))
        let retitled = try entry(store, todo.uuid)
        #expect(retitled.text.stamp > pulled.issue.stamp && retitled.issue == pulled.issue)
        #expect(try waitingTodos(store) == [todo.uuid], "the link, the observation pulled and the edit wait to be sent")

        // Removed and restored: the link comes back with its own stamp.
        _ = try store.removeTodos([todo.id], at: moment(6))
        #expect(try entry(store, todo.uuid).issue == retitled.issue, "a removed todo keeps its link")
        _ = try store.restoreTodos([todo.id], at: moment(7))
        #expect(try entry(store, todo.uuid).issue == retitled.issue)

        try settleRemote(store)
        _ = try store.unlinkIssue(todoID: todo.id, at: moment(8))
        let unlinked = try entry(store, todo.uuid)
        #expect(unlinked.issue.value == nil && unlinked.issue.stamp > retitled.issue.stamp)

        // A move forgets the link, in the same change.
        _ = try store.linkIssue(todoID: todo.id, to: snapshot(13), at: moment(9))
        _ = try store.moveTodos([todo.id], toRepository: 2, unlinking: true, at: moment(10))
        let moved = try entry(store, todo.uuid)
        #expect(moved.issue.value == nil && moved.issue.stamp == moved.repository.stamp && moved.issue.stamp > unlinked.issue.stamp)
        #expect(try waitingTodos(store) == [todo.uuid])

        // Importing an issue makes a linked todo, stamped whole, with the UUID every machine gives it.
        let imported = try #require(try store.importIssue(repositoryID: 1, issue: snapshot(20, title: "Brush the dog"), at: moment(11)))
        #expect(imported.uuid == Store.importedTodoUUID(repositoryID: 1, issueNumber: 20))
        let importedEntry = try entry(store, imported.uuid)
        #expect(importedEntry.issue.value == link(20) && importedEntry.issue.stamp == importedEntry.text.stamp
                && importedEntry.text.stamp > moved.issue.stamp)
    }

    @Test("a move made elsewhere of a todo linked here forgets the link, as a move does, as this machine's change")
    func anArrivingMoveForgetsTheLink() throws {
        let store = try makeStore()
        let todo = try store.addTodo(repositoryID: 1, text: "feed the cat", at: moment(1))
        let other = try store.addTodo(repositoryID: 2, text: "feed the dog", at: moment(1))
        _ = try store.linkIssue(todoID: todo.id, to: snapshot(12), at: moment(2))
        _ = try store.linkIssue(todoID: other.id, to: snapshot(12), at: moment(2))
        let linked = try entry(store, todo.uuid)
        try settleRemote(store)
        try receive(store, { $0.todos[todo.uuid]?.repository.set(2, at: self.stamp(3)) }, at: 3)
        let moved = try entry(store, todo.uuid)
        #expect(moved.repository.value == 2 && moved.issue.value == nil && moved.issue.stamp > linked.issue.stamp)
        #expect(try waitingTodos(store) == [todo.uuid], "the drop waits to be sent")
        #expect(try store.todo(id: other.id).issue?.number == 12, "the issue of the same number there keeps its todo")
    }

    @Test("a restore whose issue was linked to another todo meanwhile comes back unlinked, and says so")
    func restoreWithoutItsLinkIsStamped() throws {
        let store = try makeStore()
        let first = try store.addTodo(repositoryID: 1, text: "one", at: moment(1))
        let second = try store.addTodo(repositoryID: 1, text: "two", at: moment(1))
        _ = try store.linkIssue(todoID: first.id, to: snapshot(12), at: moment(2))
        _ = try store.removeTodos([first.id], at: moment(3))
        let removed = try entry(store, first.uuid)
        _ = try store.linkIssue(todoID: second.id, to: snapshot(12), at: moment(4))
        _ = try store.restoreTodos([first.id], at: moment(5))
        let restored = try entry(store, first.uuid)
        #expect(restored.issue.value == nil && restored.issue.stamp > removed.issue.stamp)
        #expect(try entry(store, second.uuid).issue.value == link(12))
    }

    @Test("settings changed here are stamped; setting what they are stamps nothing")
    func settingsAreStamped() throws {
        let store = try makeStore()
        #expect(try store.replica.read().replica.repositories[1]?.settings == Register(.defaults, at: .zero))
        try settleRemote(store)
        try store.setSettings(repositoryIDs: [1, 2], pushIssues: true, importIssues: nil, scanCommits: nil, at: moment(1))
        let first = try #require(try store.replica.read().replica.repositories[1]?.settings)
        #expect(first.value == SharedSettings(pushIssues: true, importIssues: "off", scanCommits: true) && first.stamp != .zero)
        try store.setSettings(repositoryIDs: [1], pushIssues: true, importIssues: .off, scanCommits: true, at: moment(2))
        #expect(try store.replica.read().replica.repositories[1]?.settings == first)
        try store.setSettings(repositoryIDs: [1], pushIssues: nil, importIssues: .all, scanCommits: nil, at: moment(3))
        let second = try #require(try store.replica.read().replica.repositories[1]?.settings)
        #expect(second.value.importIssues == "all" && second.stamp > first.stamp)
        #expect(try store.replica.pendingRepositories() == [1, 2] && waitingTodos(store).isEmpty)
        // A repository another machine stopped tracking keeps its settings while it is listed.
        let dog = try #require(try store.replica.read().replica.repositories[2]?.settings)
        try store.removeRepositories(ids: [2], force: true, at: moment(4))
        #expect(try store.replica.read().replica.repositories[2]?.settings == dog)
        // Tracked again: with those settings.
        try store.saveRepository(repository(2, "octo/dog", addedAt: moment(5)))
        #expect(try store.repository(id: 2)?.settings.pushIssues == true)
        #expect(try store.replica.read().replica.repositories[2]?.settings == dog)
    }

    @Test("a link from another machine arrives with the issue as seen there, and reads back")
    func anArrivingLinkAndWhatWasSeen() throws {
        let store = try makeStore()
        let todo = try store.addTodo(repositoryID: 1, text: "feed the cat", at: moment(1))
        try settleRemote(store)
        let merged = try receive(store, {
            $0.todos[todo.uuid]?.issue.set(self.link(12), at: self.stamp(10))
            $0.todos[todo.uuid]?.seen.set(self.seen(12, state: "closed", at: 9), at: self.stamp(10))
            $0.todos[todo.uuid]?.done.set(DoneState(doneAt: moment(10)), at: self.stamp(10))
            $0.repositories[1]?.settings.set(SharedSettings(pushIssues: true, importIssues: "assigned", scanCommits: false),
                                             at: self.stamp(10))
        }, at: 20)
        #expect(try store.replica.read().replica == merged)
        #expect(try !store.replica.hasPending(), "what came from elsewhere waits for no exchange")
        let linked = try #require(try store.linkedTodos(repositoryID: 1).first)
        #expect(try store.todo(id: linked.id).issue == IssueLink(number: 12, url: "https://github.com/octo/cat/issues/12", state: .closed))
        #expect(linked.entry.done.value.done && linked.entry.observation == seen(12, state: "closed", at: 9))
        #expect(try store.knownIssueNumbers(repositoryID: 1) == [12], "never imported again")
        #expect(try store.repository(id: 1)?.settings == RepositorySettings(pushIssues: true, importIssues: .assigned,
                                                                             scanCommits: false))
        #expect(try store.issueListingState(repositoryID: 1) == IssueListingState(etag: nil, since: nil),
                "import turned on elsewhere: the next read covers every issue")

        // Seen again there, in another state, under the same link: the later state replaces it.
        try receive(store, { $0.todos[todo.uuid]?.seen.set(self.seen(12, state: "open", at: 25), at: self.stamp(10)) }, at: 30)
        #expect(try store.todo(id: todo.id).issue?.state == .open)

        // Unlinked elsewhere; then seen again by a machine still linked: the unlink stands.
        try receive(store, { $0.todos[todo.uuid]?.issue.set(nil, at: self.stamp(50)) }, at: 60)
        try receive(store, { $0.todos[todo.uuid]?.seen.set(self.seen(12, state: "closed", at: 70), at: self.stamp(10)) }, at: 70)
        #expect(try store.todo(id: todo.id).issue == nil)
        #expect(try entry(store, todo.uuid).issue == Register(nil, at: stamp(50)))
    }

    @Test("an issue linked to two todos stays with the later link; the other todo is unlinked as a change of this machine's")
    func oneIssueOneTodo() throws {
        let store = try makeStore()
        let mine = try store.addTodo(repositoryID: 1, text: "mine", at: moment(1))
        _ = try store.linkIssue(todoID: mine.id, to: snapshot(12), at: moment(2))
        let theirs = "0b0e5d4e-9999-4a4a-8a8a-000000000009"
        // Linked later elsewhere: that link wins.
        try receive(store, {
            $0.todos[theirs] = TodoEntry(uuid: theirs, repository: 1, text: "theirs", createdAt: moment(5), stamp: self.stamp(5))
            $0.todos[theirs]?.issue.set(self.link(12), at: self.stamp(60))
        }, at: 10)
        #expect(try entry(store, theirs).issue.value == link(12))
        let dropped = try entry(store, mine.uuid).issue
        #expect(dropped.value == nil && dropped.stamp > stamp(60), "stamped after the link it gives way to")
        #expect(try waitingTodos(store) == [mine.uuid], "the drop waits to be sent")
        try settleRemote(store)

        // Linked earlier elsewhere: the link here stays, and the arriving one is dropped.
        let early = "0b0e5d4e-9999-4a4a-8a8a-00000000000a"
        try receive(store, {
            $0.todos[early] = TodoEntry(uuid: early, repository: 1, text: "early", createdAt: moment(1), stamp: self.stamp(1))
            $0.todos[early]?.issue.set(self.link(12), at: self.stamp(2))
        }, at: 20)
        #expect(try entry(store, theirs).issue.value == link(12))
        #expect(try entry(store, early).issue.value == nil && entry(store, early).issue.stamp > dropped.stamp)
        #expect(try waitingTodos(store) == [early], "the drop waits to be sent")
    }

    @Test("a link to the issue of a repository the todo left (moved elsewhere meanwhile) is dropped")
    func aLinkToTheRepositoryLeftIsDropped() throws {
        let store = try makeStore()
        let todo = try store.addTodo(repositoryID: 1, text: "feed the cat", at: moment(1))
        _ = try store.moveTodos([todo.id], toRepository: 2, at: moment(2))
        // Linked on another machine that had not seen the move, later than it.
        try receive(store, {
            $0.todos[todo.uuid]?.repository.set(1, at: self.stamp(-10))
            $0.todos[todo.uuid]?.issue.set(self.link(12, repository: 1), at: self.stamp(30))
        }, at: 20)  // this machine's clock behind the other's: the drop is still stamped after the link
        let held = try entry(store, todo.uuid)
        #expect(held.repository.value == 2 && held.issue.value == nil && held.issue.stamp > stamp(30))
        #expect(try store.todo(id: todo.id).issue == nil)
    }

    @Test("removed todos carry their links, and an import of a todo unlinked elsewhere makes nothing")
    func removedLinksAndImports() throws {
        let store = try makeStore()
        let uuid = Store.importedTodoUUID(repositoryID: 1, issueNumber: 30)
        // Another machine imported issue 30, then removed the todo.
        try receive(store, {
            $0.todos[uuid] = TodoEntry(uuid: uuid, repository: 1, text: "Imported", createdAt: moment(1), stamp: self.stamp(1))
            $0.todos[uuid]?.issue.set(self.link(30), at: self.stamp(1))
            $0.todos[uuid]?.removed.set(true, at: self.stamp(2))
        }, at: 10)
        #expect(try entry(store, uuid).isRemoved && entry(store, uuid).issue.value == link(30))
        #expect(try store.importIssue(repositoryID: 1, issue: snapshot(30), at: moment(11)) == nil, "known: not imported again")
        // Issue 31's todo arrived already unlinked (the link never reached this machine).
        let unlinked = Store.importedTodoUUID(repositoryID: 1, issueNumber: 31)
        try receive(store, {
            $0.todos[unlinked] = TodoEntry(uuid: unlinked, repository: 1, text: "Was 31", createdAt: moment(1), stamp: self.stamp(1))
            $0.todos[unlinked]?.issue.set(nil, at: self.stamp(3))
        }, at: 12)
        #expect(try store.importIssue(repositoryID: 1, issue: snapshot(31), at: moment(13)) == nil)
        #expect(try store.knownIssueNumbers(repositoryID: 1) == [30, 31])
        // Restored elsewhere: back here with its link.
        try receive(store, { $0.todos[uuid]?.removed.set(false, at: self.stamp(20)) }, at: 21)
        #expect(try store.linkedTodos(repositoryID: 1).map(\.entry.uuid) == [uuid])
    }

    @Test("an issue another machine linked and then unlinked (a link never seen here) is known, so never imported")
    func anIssueSeenElsewhereIsKnown() throws {
        let store = try makeStore()
        let uuid = "0b0e5d4e-9999-4a4a-8a8a-00000000000b"
        // Linked there to issue 40 by hand (no marker, no name-made UUID), seen, then unlinked.
        try receive(store, {
            $0.todos[uuid] = TodoEntry(uuid: uuid, repository: 1, text: "feed", createdAt: moment(1), stamp: self.stamp(1))
            $0.todos[uuid]?.seen.set(self.seen(40), at: self.stamp(2))
            $0.todos[uuid]?.issue.set(nil, at: self.stamp(3))
        }, at: 10)
        #expect(try store.knownIssueNumbers(repositoryID: 1) == [40])
        #expect(try store.importIssue(repositoryID: 1, issue: snapshot(40), at: moment(11)) == nil)
        // Seen under a link made before the todo moved to octo/dog: an issue of octo/cat, not octo/dog's.
        try receive(store, {
            $0.todos[uuid]?.repository.set(2, at: self.stamp(4))
            $0.todos[uuid]?.seen.set(self.seen(41), at: self.stamp(3))
        }, at: 12)
        #expect(try store.knownIssueNumbers(repositoryID: 2).isEmpty)
    }

    @Test("a link that arrives with another repository's issue of the same number is weighed against the todo holding it")
    func aLinkToTheSameNumberOfAnotherRepositoryIsWeighed() throws {
        let store = try makeStore()
        let moving = try store.addTodo(repositoryID: 1, text: "moving", at: moment(1))
        _ = try store.linkIssue(todoID: moving.id, to: snapshot(12), at: moment(2))
        let holder = try store.addTodo(repositoryID: 2, text: "holder", at: moment(3))
        _ = try store.linkIssue(todoID: holder.id, to: snapshot(12), at: moment(4))
        // Elsewhere, later: moved to octo/dog and linked to its issue 12 (the holder's here).
        try receive(store, {
            $0.todos[moving.uuid]?.repository.set(2, at: self.stamp(50))
            $0.todos[moving.uuid]?.issue.set(self.link(12, repository: 2), at: self.stamp(51))
        }, at: 60)
        #expect(try entry(store, moving.uuid).issue.value == link(12, repository: 2))
        #expect(try entry(store, holder.uuid).issue.value == nil, "one todo an issue: the later link keeps it")
    }

    @Test("an imported file's link to an issue that was another todo's here is left out")
    func anImportLinksNoIssueKnownHere() throws {
        let store = try makeStore()
        let old = try store.addTodo(repositoryID: 1, text: "old", at: moment(1))
        _ = try store.linkIssue(todoID: old.id, to: snapshot(12), at: moment(2))
        _ = try store.removeTodos([old.id], at: moment(3))
        let added = try store.addTodos([
            NewTodo(uuid: "0b0e5d4e-9999-4a4a-8a8a-00000000000c", repositoryID: 1, text: "again", doneAt: nil, createdAt: moment(4), issue: 12),
            NewTodo(uuid: "0b0e5d4e-9999-4a4a-8a8a-00000000000d", repositoryID: 1, text: "new", doneAt: nil, createdAt: moment(4), issue: 13),
        ], at: moment(5))
        #expect(added == 2)
        #expect(try entry(store, "0b0e5d4e-9999-4a4a-8a8a-00000000000c").issue.value == nil)
        #expect(try entry(store, "0b0e5d4e-9999-4a4a-8a8a-00000000000d").issue.value?.number == 13)
    }

    @Test("an imported todo's details are written with it, each stamped, and wait to be sent")
    func anImportWritesTheDetails() throws {
        let store = try makeStore()
        try settleRemote(store)
        let uuid = "0b0e5d4e-9999-4a4a-8a8a-00000000000e"
        let details = DetailsEdit(due: .some(CalendarDate(year: 2026, month: 12, day: 24)), priority: .some(.medium),
                                  addTags: ["home", "ci"], note: .some("two\nlines"))
        #expect(try store.addTodos([NewTodo(uuid: uuid, repositoryID: 1, text: "t", doneAt: nil, createdAt: moment(4), details: details)],
                                   at: moment(5)) == 1)
        let todo = try #require(try store.sections().flatMap(\.todos).first)
        #expect(todo.due?.text == "2026-12-24" && todo.priority == .medium && todo.tags == ["ci", "home"] && todo.note == "two\nlines")
        let written = try entry(store, uuid).details
        #expect(written.stamps.count == 5 && written.stamps.allSatisfy { $0 != .zero && $0.wall >= moment(5).millisecondsSinceEpoch })
        #expect(try waitingTodos(store) == [uuid])
    }
}
