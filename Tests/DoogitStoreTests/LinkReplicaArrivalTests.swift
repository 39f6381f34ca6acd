import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing

/// Links, the issues as seen, and settings that arrive from another machine: merged field by field,
/// one issue to one todo, and a link to the repository a todo left dropped as a change of this machine's.
@Suite("Store: links and settings from other machines")
struct LinkReplicaArrivalTests: LinkReplicaSuite {
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
}
