import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing

/// The store as one copy of the list: every local change stamps what it changed, the list reads
/// back as a replica, and a merge's result is written field by field.
@Suite("Store: stamps and replicas")
struct ReplicaStoreTests {
    func entry(_ store: Store, _ uuid: String) throws -> TodoEntry {
        try #require(try store.replica.read().replica.todos[uuid])
    }

    @Test("every local change stamps exactly the fields it changed, later than every stamp before, and waits to be sent")
    func localChangesStampWhatTheyChange() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        try settleRemote(store)
        let todo = try store.addTodo(repositoryID: 1, text: "a", at: moment(1))
        let added = try entry(store, todo.uuid)
        #expect(added.repository.stamp == added.text.stamp && added.text.stamp == added.done.stamp)
        #expect(added.removed == Register(false, at: .zero))
        #expect(added.text.stamp.machine == (try store.replica.machineID()))
        #expect(try waitingTodos(store) == [todo.uuid])
        try settleRemote(store)

        _ = try store.editTodo(id: todo.id, text: "b", at: moment(2))
        let edited = try entry(store, todo.uuid)
        #expect(edited.text.stamp > added.text.stamp && edited.done.stamp == added.done.stamp)
        _ = try store.editTodo(id: todo.id, text: "b", at: moment(3))
        #expect(try entry(store, todo.uuid) == edited, "an edit that changes nothing stamps nothing")

        _ = try store.setDone([todo.id], done: true, at: moment(4))
        let done = try entry(store, todo.uuid)
        #expect(done.done.stamp > edited.text.stamp && done.text == edited.text && done.done.value.done)
        _ = try store.setDone([todo.id], done: true, at: moment(5))
        #expect(try entry(store, todo.uuid) == done)

        _ = try store.moveTodos([todo.id], toRepository: 2, at: moment(6))
        let moved = try entry(store, todo.uuid)
        #expect(moved.repository == Register(2, at: moved.repository.stamp) && moved.repository.stamp > done.done.stamp)

        _ = try store.removeTodos([todo.id], at: moment(7))
        let removed = try entry(store, todo.uuid)
        #expect(removed.isRemoved && removed.removed.stamp > moved.repository.stamp && removed.text.value == "b")

        _ = try store.restoreTodos([todo.id], at: moment(8))
        let restored = try entry(store, todo.uuid)
        #expect(!restored.isRemoved && restored.removed.stamp > removed.removed.stamp)
        #expect(restored.arrival == restored.removed.stamp)

        _ = try store.clearDone(repositoryID: nil, at: moment(9))
        #expect(try entry(store, todo.uuid).isRemoved)
        #expect(try store.replica.pendingTodos() == [todo.uuid: [1, 2]], "waits to leave one repository's file for another's")
    }

    @Test("a machine whose clock went back still stamps after everything it made")
    func clockGoingBack() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let first = try store.addTodo(repositoryID: 1, text: "a", at: moment(100))
        let second = try store.addTodo(repositoryID: 1, text: "b", at: moment(-3600))
        #expect(try entry(store, second.uuid).text.stamp > entry(store, first.uuid).text.stamp)
    }

    @Test("repositories: tracking, renames and stopping are stamped; one stopped stays known")
    func repositoryStamps() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let tracked = try #require(try store.replica.read().replica.repositories[1])
        #expect(tracked.tracked.value && tracked.name.value.fullName == "octo/cat")
        var renamed = repository(1, "octo/kitten", addedAt: moment(5))
        renamed.syncedAt = moment(5)
        try store.saveRepository(renamed)
        let afterRename = try #require(try store.replica.read().replica.repositories[1])
        #expect(afterRename.name.value.fullName == "octo/kitten" && afterRename.name.stamp > tracked.name.stamp)
        #expect(afterRename.tracked == tracked.tracked)
        try store.removeRepositories(ids: [1], force: true, at: moment(6))
        let stopped = try #require(try store.replica.read().replica.repositories[1])
        #expect(!stopped.tracked.value && stopped.tracked.stamp > afterRename.name.stamp)
        try store.saveRepository(repository(1, "octo/kitten", addedAt: moment(7)))
        #expect(try store.replica.read().replica.repositories[1]?.tracked.value == true)
    }

    /// Another machine's copy: a new repository with a todo, an edit and a removal of todos of this one.
    func otherMachine(_ local: Replica, machine: String = "bbbbbbbbbbbb", at second: Int64) -> Replica {
        var other = local
        let stamp = HybridTimestamp(wall: moment(second).millisecondsSinceEpoch, counter: 0, machine: machine)
        other.repositories[9] = RepositoryEntry(
            id: 9, name: Register(RepositoryName(fullName: "else/where", url: "https://github.com/else/where"), at: stamp),
            tracked: Register(true, at: stamp))
        let uuid = "0b0e5d4e-9999-4a4a-8a8a-000000000009"
        other.todos[uuid] = TodoEntry(uuid: uuid, repository: 9, text: "from b", createdAt: moment(second), stamp: stamp)
        let sorted = local.todos.keys.sorted()
        if let first = sorted.first { other.todos[first]?.text.set("edited on b", at: stamp) }
        if sorted.count > 1 { other.todos[sorted[1]]?.removed.set(true, at: stamp) }
        return other
    }

    @Test("a merge's result written to the store reads back as that result")
    func applyingAMergeReadsBack() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        for text in ["one", "two", "three"] { _ = try store.addTodo(repositoryID: 1, text: text, at: moment(1)) }
        let local = try store.replica.read()
        let merged = merge(local.replica, otherMachine(local.replica, at: 50))
        let changes = ReplicaChanges(from: local.replica, to: merged)
        #expect(changes.todos.count == 3 && changes.repositories.count == 1)
        try settleRemote(store)
        try store.replica.apply(changes, at: moment(60))
        #expect(try store.replica.read().replica == merged)
        #expect(try !store.replica.hasPending(), "what came from elsewhere waits for no exchange")
        #expect(ReplicaChanges(from: try store.replica.read().replica, to: merged).isEmpty)
        let sections = try store.sections()
        #expect(sections.map(\.repository.fullName) == ["else/where", "octo/cat"])
        #expect(sections[1].todos.map(\.text).count == 2)
        #expect(try store.tombstones().count == 1)
    }

    @Test("a change made here after the merge read the list is kept, and still waits to be sent")
    func concurrentLocalChangeSurvives() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        _ = try store.addTodo(repositoryID: 1, text: "one", at: moment(1))
        _ = try store.addTodo(repositoryID: 1, text: "two", at: moment(1))
        let local = try store.replica.read()
        let merged = merge(local.replica, otherMachine(local.replica, at: 50))
        // While the sync talks to GitHub, the user edits the todo the other machine edited.
        let edited = try #require(local.replica.todos.keys.sorted().first)
        let id = try #require(local.annotations.localIDs[edited])
        try settleRemote(store)
        _ = try store.editTodo(id: id, text: "edited here meanwhile", at: moment(55))
        try store.replica.apply(ReplicaChanges(from: local.replica, to: merged), at: moment(60))
        #expect(try store.allTodos().first { $0.uuid == edited }?.text == "edited here meanwhile")
        #expect(try store.allTodos().count == 2, "the other todo was removed elsewhere")
        #expect(try waitingTodos(store) == [edited])
    }

    @Test("a todo made on two machines under one UUID (an issue's todo, imported on each) keeps the first time it was made")
    func theFirstCreationStands() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let todo = try store.addTodo(repositoryID: 1, text: "one", at: moment(10))
        for (second, createdAt, text) in [(50, moment(20), "made there later"), (60, moment(5), "made there first")] {
            let local = try store.replica.read()
            var other = local.replica
            other.todos[todo.uuid]?.createdAt = createdAt
            other.todos[todo.uuid]?.text.set(text, at: HybridTimestamp(wall: moment(Int64(second)).millisecondsSinceEpoch, counter: 0,
                                                                         machine: "bbbbbbbbbbbb"))
            try settleRemote(store)
            try store.replica.apply(ReplicaChanges(from: local.replica, to: other), at: moment(Int64(second)))
            let written = try entry(store, todo.uuid)
            #expect(written.text.value == text)
            #expect(written.createdAt == min(moment(10), createdAt), "\(text)")
        }
    }

    @Test("stamps clamped to GitHub's time replace the runaway ones held here")
    func clampedStampsReplaceRunawayOnes() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        let future = try #require(Timestamp(rfc3339: "2099-01-01T00:00:00.000Z"))
        let todo = try store.addTodo(repositoryID: 1, text: "from 2099", at: future)
        let local = try store.replica.read()
        let (clamped, ahead) = local.replica.clamped(to: moment(10))
        #expect(ahead != nil)
        try store.replica.apply(ReplicaChanges(from: local.replica, to: clamped), at: moment(10))
        try store.replica.observeClock(clamped.latestStamp, reference: moment(10))
        #expect(try entry(store, todo.uuid).text.stamp.wall == moment(10).millisecondsSinceEpoch)
        _ = try store.editTodo(id: todo.id, text: "on time", at: moment(11))
        #expect(try entry(store, todo.uuid).text.stamp.wall == moment(11).millisecondsSinceEpoch,
                "the clock came back from 2099")
    }

    @Test("todos from elsewhere take their place by when they arrived, as on the machine they come from")
    func orderByArrival() throws {
        let store = try memoryStore()
        try store.saveRepository(repository(1, "octo/cat"))
        _ = try store.addTodo(repositoryID: 1, text: "late here", at: moment(30))
        let local = try store.replica.read().replica
        var other = local
        for (second, text) in [(10, "early there"), (40, "later there")] {
            let uuid = "0b0e5d4e-0000-4a4a-8a8a-0000000000\(second)"
            other.todos[uuid] = TodoEntry(uuid: uuid, repository: 1, text: text, createdAt: moment(Int64(second)),
                                          stamp: HybridTimestamp(wall: moment(Int64(second)).millisecondsSinceEpoch, counter: 0,
                                                                 machine: "bbbbbbbbbbbb"))
        }
        try store.replica.apply(ReplicaChanges(from: local, to: merge(local, other)), at: moment(50))
        #expect(try store.sections()[0].todos.map(\.text) == ["early there", "late here", "later there"])
        _ = try store.addTodo(repositoryID: 1, text: "added after", at: moment(20))
        #expect(try store.sections()[0].todos.map(\.text).last == "added after")
    }

    @Test("a repository another machine stopped tracking leaves the list, unless a todo is still in it")
    func untrackedElsewhere() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        let todo = try store.addTodo(repositoryID: 2, text: "keeps dog", at: moment(1))
        let local = try store.replica.read().replica
        var other = local
        let stamp = HybridTimestamp(wall: moment(20).millisecondsSinceEpoch, counter: 0, machine: "bbbbbbbbbbbb")
        other.repositories[1]?.tracked.set(false, at: stamp)
        other.repositories[2]?.tracked.set(false, at: stamp)
        let merged = merge(local, other)
        try store.replica.apply(ReplicaChanges(from: local, to: merged), at: moment(30))
        #expect(try store.repositories().map(\.id) == [2])
        #expect(try store.replica.read().replica == merged)
        // Tracking it again here wins over the other machine's removal.
        try store.saveRepository(repository(1, "octo/cat", addedAt: moment(40)))
        try store.markTracked(ids: [2], at: moment(41))
        let again = try store.replica.read().replica
        #expect(again.repositories[1]?.tracked.value == true && again.repositories[2]?.tracked.value == true)
        _ = todo
    }

    @Test("a version 4 database gets stamps in its todos' present order, its tombstones too")
    func migrationKeepsTheOrder() throws {
        let directory = try ScratchDirectory()
        let database = try Database(path: directory.file("old.sqlite3"))
        try Migrator.migrate(database, to: Array(Migrations.all.prefix(4)))
        try database.execute("""
            INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at)
            VALUES (1, 'o', 'n', 'o/n', 'https://github.com/o/n', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
            INSERT INTO todos (id, uuid, repository_id, text, position, created_at, updated_at) VALUES
              (1, '00000000-0000-4000-8000-000000000001', 1, 'moved here last', 3, '2026-01-01T00:00:00.000Z', '2026-01-05T00:00:00.000Z'),
              (2, '00000000-0000-4000-8000-000000000002', 1, 'first', 1, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z'),
              (3, '00000000-0000-4000-8000-000000000003', 1, 'second', 2, '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z');
            INSERT INTO todo_tombstones (uuid, repository_id, removed_at, todo_id, text, done, position, created_at, updated_at)
            VALUES ('00000000-0000-4000-8000-000000000004', 1, '2026-01-06T00:00:00.000Z', 4, 'gone', 0, 4,
                    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
            """)
        let store = try Store(database: database)
        let replica = try store.replica.read().replica
        let byArrival = replica.todos.values.filter { !$0.isRemoved }.sorted { $0.arrival < $1.arrival }.map(\.text.value)
        #expect(byArrival == ["first", "second", "moved here last"])
        #expect(try store.sections()[0].todos.map(\.text) == byArrival)
        let removed = try #require(replica.todos["00000000-0000-4000-8000-000000000004"])
        #expect(removed.isRemoved && removed.removed.stamp.timestamp.rfc3339 == "2026-01-06T00:00:00.000Z")
        #expect(HybridTimestamp.isMachineID(try store.replica.machineID()))
    }
}
