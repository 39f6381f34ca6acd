import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// Each repository's open and done counts, kept in `todo_counts` as todos change (m0018): after
/// any sequence of what changes todos, whoever writes them, the kept counts are what counting
/// the todos answers.
struct TodoCountsTests {
    /// The counts as kept, and as counted, for every repository that has a todo or a row.
    private func expectExact(_ store: Store, _ context: @autoclosure () -> String) throws {
        let kept = try store.database.query("SELECT repository_id, open, done FROM todo_counts WHERE open <> 0 OR done <> 0 ORDER BY 1") {
            row throws(StoreError) in [try row.int64(0), try row.int64(1), try row.int64(2)]
        }
        let counted = try store.database.query("""
            SELECT repository_id, sum(done = 0), sum(done = 1) FROM todos GROUP BY repository_id ORDER BY 1
            """) { row throws(StoreError) in [try row.int64(0), try row.int64(1), try row.int64(2)] }
        #expect(kept == counted, "\(context())")
        let byRepository = Dictionary(uniqueKeysWithValues: counted.map { ($0[0], [$0[1], $0[2]]) })
        for summary in try store.repositorySummaries() {
            #expect([Int64(summary.open), Int64(summary.done)] == byRepository[summary.repository.id] ?? [0, 0],
                    "\(context()): the summary of \(summary.repository.fullName)")
        }
    }

    private func stamp(_ seconds: Int64) -> HybridTimestamp {
        HybridTimestamp(wall: moment(seconds).millisecondsSinceEpoch, counter: 0, machine: "bbbbbbbbbbbb")
    }

    @Test(arguments: 0..<16)
    func theKeptCountsAreTheTodosCounted(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let store = try memoryStore()
        let names = ["o/a", "o/b", "o/c", "o/d"]
        let repositories = names.enumerated().map { repository(Int64($0 + 1), $1) }
        try store.saveRepositories(repositories)
        var clock: Int64 = 1
        for step in 0..<120 {
            clock += 1
            let now = moment(clock)
            let live = try store.database.query("SELECT id FROM todos ORDER BY id") { row throws(StoreError) in try row.int64(0) }
            let tracked = try store.repositories().map(\.id)
            let some = live.randomElement(using: &generator)
            let anyRepository = tracked.randomElement(using: &generator)
            let action = Int.random(in: 0..<14, using: &generator)
            switch action {
            case 0, 1:
                if let repository = anyRepository {
                    _ = try store.addTodo(repositoryID: repository, text: "todo \(step)", at: now)
                }
            case 2:
                if let some { _ = try store.setDone([some], done: true, at: now) }
            case 3:
                if let some { _ = try store.setDone([some], done: false, at: now) }
            case 4:
                if let some, let repository = anyRepository {
                    _ = try store.moveTodos([some], toRepository: repository, unlinking: true, at: now)
                }
            case 5:
                if let some { _ = try store.removeTodos([some], at: now) }
            case 6:
                if let removed = try store.restorableTodoIDs().randomElement(using: &generator) {
                    _ = try store.restoreTodos([removed], at: now)
                }
            case 7:
                _ = try store.clearDone(repositoryID: Bool.random(using: &generator) ? nil : anyRepository, at: now)
            case 8:
                // A repository no longer tracked, its todos with it; now and then tracked again.
                if let repository = anyRepository, tracked.count > 1 {
                    try store.removeRepositories(ids: [repository], force: true, at: now)
                }
                for missing in repositories where try store.repository(id: missing.id) == nil && Bool.random(using: &generator) {
                    try store.saveRepository(missing)
                }
            case 9:
                // An import: new todos, open and done, and changes of todos here.
                if let repository = anyRepository {
                    let new = (0..<Int.random(in: 1...4, using: &generator)).map { n in
                        NewTodo(uuid: UUIDv4.make(using: &generator), repositoryID: repository, text: "imported \(step).\(n)",
                                doneAt: Bool.random(using: &generator) ? now : nil, createdAt: now)
                    }
                    _ = try store.addTodos(new, at: now)
                }
                if let some {
                    _ = try store.updateTodos([TodoUpdate(id: some, done: Bool.random(using: &generator) ? .open : DoneState(doneAt: now))],
                                              at: now)
                }
            case 10, 11:
                // What another machine changed, merged in: written with the triggers off (a pull),
                // or as this machine's change (what sync saw on GitHub).
                var changes = ReplicaChanges()
                let replica = try store.replica.read().replica
                if let some, let uuid = try store.todoIfAny(id: some)?.uuid, let held = replica.todos[uuid],
                   let repository = anyRepository {
                    var entry = held
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: entry.repository.set(repository, at: stamp(clock))
                    case 1: entry.done.set(DoneState(doneAt: entry.done.value.doneAt == nil ? now : nil), at: stamp(clock))
                    case 2: entry.removed.set(true, at: stamp(clock))
                    default:
                        entry.repository.set(repository, at: stamp(clock))
                        entry.done.set(DoneState(doneAt: now), at: stamp(clock))
                    }
                    changes.todos.append(TodoChange(entry: entry, held: held))
                }
                if let removed = replica.todos.values.filter(\.removed.value).randomElement(using: &generator),
                   tracked.contains(removed.repository.value) {
                    var back = removed
                    back.removed.set(false, at: stamp(clock))
                    changes.todos.append(TodoChange(entry: back, held: removed))
                }
                if let repository = anyRepository {
                    // Now and then more than a small pull's worth (counted again all at once).
                    for n in 0..<(Int.random(in: 0..<4, using: &generator) == 0 ? 70 : 1) {
                        changes.todos.append(TodoChange(entry: TodoEntry(uuid: UUIDv4.make(using: &generator), repository: repository,
                                                                         text: "from elsewhere \(step).\(n)",
                                                                         doneAt: Bool.random(using: &generator) ? now : nil,
                                                                         createdAt: now, stamp: stamp(clock)), held: nil))
                    }
                }
                if Int.random(in: 0..<3, using: &generator) == 0, let gone = live.randomElement(using: &generator),
                   let uuid = try store.todoIfAny(id: gone)?.uuid {
                    changes.purgedTodos.insert(uuid)
                }
                try store.replica.apply(changes, at: now, asLocalChange: action == 11)
            case 12:
                // Another program writing the file: a done flipped, a todo moved or added; a repository deleted with its todos.
                if let some {
                    try store.database.run("""
                        UPDATE todos SET done = 1 - done, done_at = CASE done WHEN 0 THEN ? END WHERE id = ?
                        """, .text(now.rfc3339), .integer(some))
                }
                if let other = anyRepository, let moved = live.randomElement(using: &generator) {
                    try store.database.run("UPDATE todos SET repository_id = ? WHERE id = ?", .integer(other), .integer(moved))
                }
                // A todo added as INSERT OR IGNORE adds it: now and then one with a UUID that is here, ignored.
                if let repository = anyRepository {
                    var uuid = UUIDv4.make(using: &generator)
                    if Bool.random(using: &generator), let some, let here = try store.todoIfAny(id: some) { uuid = here.uuid }
                    let done = Bool.random(using: &generator)
                    try store.database.run("""
                        INSERT OR IGNORE INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at)
                        VALUES (?, ?, 'written elsewhere', ?, 1000, ?, ?, ?)
                        """, .text(uuid), .integer(repository), .bool(done), .text(now.rfc3339), .text(now.rfc3339),
                        done ? .text(now.rfc3339) : .null)
                }
            default:
                if let repository = anyRepository, tracked.count > 1, Int.random(in: 0..<3, using: &generator) == 0 {
                    try store.database.run("DELETE FROM repositories WHERE id = ?", .integer(repository))
                }
            }
            try expectExact(store, "seed \(seed), step \(step), action \(action)")
        }
    }

    @Test func aStoreWithTodosIsCountedWhenItsSchemaComesToCountsAndKeptAfter() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("doogit.db")
        do {
            // The schema before the counts, with todos written straight in.
            let database = try Database(path: path)
            try Migrator.migrate(database, to: Array(Migrations.all.prefix(17)))
            try database.execute("""
                INSERT INTO repositories (id, owner, name, full_name, html_url, added_at, synced_at) VALUES
                    (1, 'o', 'a', 'o/a', 'https://github.com/o/a', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
                    (2, 'o', 'b', 'o/b', 'https://github.com/o/b', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
                    (3, 'o', 'c', 'o/c', 'https://github.com/o/c', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
                INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at)
                SELECT printf('00000000-0000-4000-8000-%012d', i), 1 + (i % 2), 'todo ' || i, i % 5 = 0, i,
                       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z',
                       CASE WHEN i % 5 = 0 THEN '2026-01-02T00:00:00.000Z' END FROM n;
                """)
        }
        let store = try Store.open(path: path)
        let counts = Dictionary(uniqueKeysWithValues: try store.repositorySummaries().map { ($0.repository.id, [$0.open, $0.done]) })
        // Odd numbers in o/b (25, of which 5 are done: 5, 15, ..., 45), even in o/a (25, of which 5 are done).
        #expect(counts == [1: [20, 5], 2: [20, 5], 3: [0, 0]])
        try expectExact(store, "migrated")
        let todo = try store.addTodo(repositoryID: 3, text: "after", at: moment(1))
        _ = try store.setDone([todo.id, 1], done: true, at: moment(2))
        #expect(try store.repositorySummaries().map { [$0.open, $0.done] } == [[20, 5], [19, 6], [0, 1]])
        try expectExact(store, "after")
    }
}
