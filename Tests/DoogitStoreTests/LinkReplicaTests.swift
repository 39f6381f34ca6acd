import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing

/// Links to issues, the issues as seen, and repository settings as fields that machines exchange:
/// every local change of them is stamped, and what a sync sees of an issue never changes the link.
@Suite("Store: links and settings as replicated fields")
struct LinkReplicaTests: LinkReplicaSuite {
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
        // Due date, priority, note and two tags; nobody added it that is known.
        let set = written.stamps.filter { $0 != .zero }
        #expect(set.count == 5 && set.allSatisfy { $0.wall >= moment(5).millisecondsSinceEpoch })
        #expect(written.author.stamp == .zero && written.assignee.stamp == .zero)
        #expect(try waitingTodos(store) == [uuid])
    }
}
