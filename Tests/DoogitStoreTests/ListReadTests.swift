import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import TestSupport
import Testing

/// `todo list`'s read: sections a repository at a time in the order of the index
/// `todos_list_order`, each as the list has always ordered it, the largest ID shown read
/// before them, and the reads of `--priority` and `next` by index.
struct ListReadTests {
    /// Random todos over four repositories (names whose case-insensitive order is neither id
    /// nor byte order; with and without a description, one archived, one gone): due dates, priorities, tags, done ones, and a linked one with labels.
    private func randomStore(seed: UInt64) throws -> Store {
        var random = SplitMix64(seed: seed)
        let store = try memoryStore()
        var archived = repository(3, "beta/lib", description: "a library")
        archived.archived = true
        try store.saveRepositories([repository(1, "Zeta/app"), repository(2, "alpha/tools", description: "tools"), archived,
                                    repository(4, "Beta/another", gone: true)])
        for index in 0..<Int.random(in: 0...120, using: &random) {
            let due: CalendarDate?? = Int.random(in: 0..<3, using: &random) == 0
                ? .some(CalendarDate(dayNumber: 20_000 + Int.random(in: 0..<6, using: &random))) : nil
            let priority: Priority?? = Bool.random(using: &random) ? .some(Priority.allCases.randomElement(using: &random)) : nil
            let tags = ["ci", "docs", "CI"].filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
            let note: String?? = Int.random(in: 0..<5, using: &random) == 0 ? .some("note \(index)") : nil
            let todo = try store.addTodo(repositoryID: Int64.random(in: 1...4, using: &random), text: "t\(index)",
                                         details: DetailsEdit(due: due, priority: priority, addTags: tags, note: note),
                                         at: moment(Int64(index)))
            if Int.random(in: 0..<3, using: &random) == 0 { _ = try store.setDone([todo.id], done: true, at: moment(Int64(index))) }
            if Int.random(in: 0..<6, using: &random) == 0 {
                // A linked issue, with labels: one of them the same as a tag but for case.
                let issue = IssueSnapshot(number: Int64(index + 1), url: "https://github.com/o/r/issues/\(index + 1)", title: "t",
                                          state: Bool.random(using: &random) ? .open : .closed,
                                          updatedAt: "2026-01-01T00:00:00Z", labels: ["bug", "Ci"])
                _ = try store.linkIssue(todoID: todo.id, to: issue, at: moment(Int64(index)))
            }
        }
        return store
    }

    /// The sections as the list made them before it read the index's order: every todo by ID,
    /// grouped by repository (by full name without case, then id), each sorted by `listOrder`,
    /// filtered in memory.
    private func expected(_ store: Store, _ keep: (TodoRecord) -> Bool) throws -> [[TodoRecord]] {
        let ids = try store.database.query("SELECT id FROM todos ORDER BY id") { row throws(StoreError) in try row.int64(0) }
        let names = Dictionary(uniqueKeysWithValues: try store.repositories().map { ($0.id, $0.fullName.lowercased()) })
        let groups = Dictionary(grouping: try store.todos(ids: ids).filter(keep), by: \.repositoryID)
        return groups.keys.sorted { names[$0]! != names[$1]! ? names[$0]! < names[$1]! : $0 < $1 }.map { id in
            var todos = groups[id]!
            Store.listOrder(&todos)
            return todos
        }
    }

    private func streamed(_ store: Store, filter: TodoFilter = .all, details: DetailsFilter = DetailsFilter()) throws -> [[TodoRecord]] {
        var sections: [[TodoRecord]] = []
        try store.eachSection(filter: filter, details: details) { section in
            #expect(!section.todos.isEmpty)
            #expect(section.todos.allSatisfy { $0.repositoryID == section.repository.id })
            sections.append(section.todos)
        }
        return sections
    }

    @Test("sections read in the index's order are the sections sorted in memory, filtered or not", arguments: 0..<12)
    func sameAsSorted(seed: UInt64) throws {
        let store = try randomStore(seed: seed)
        let day = try #require(CalendarDate(dayNumber: 20_002))
        let cases: [(TodoFilter, DetailsFilter, (TodoRecord) -> Bool)] = [
            (.all, DetailsFilter(), { _ in true }),
            (.open, DetailsFilter(), { !$0.done }),
            (.done, DetailsFilter(), { $0.done }),
            (.all, DetailsFilter(tags: ["ci"]), { ($0.tags + ($0.labels ?? [])).contains { TagSet.key($0) == "ci" } }),
            (.all, DetailsFilter(priorities: [.high]), { $0.priority == .high }),
            (.open, DetailsFilter(priorities: [.medium, .low]), { !$0.done && ($0.priority == .medium || $0.priority == .low) }),
            (.all, DetailsFilter(dues: [.by(day)]), { $0.due.map { $0 <= day } ?? false }),
            (.all, DetailsFilter(dues: [.overdue], today: day), { !$0.done && ($0.due.map { $0 < day } ?? false) }),
        ]
        for (index, (filter, details, keep)) in cases.enumerated() {
            let sections = try streamed(store, filter: filter, details: details)
            let wanted = try expected(store, keep)
            #expect(sections.map { $0.map(\.id) } == wanted.map { $0.map(\.id) }, "case \(index)")
            #expect(sections == wanted, "case \(index)")
            #expect(try store.sections(filter: filter, details: details).map(\.todos) == wanted, "case \(index)")
            // The lines read for a list shown alone: the same todos, in the same sections.
            let lines = try store.lineSections(filter: filter, details: details)
            #expect(lines.map(\.todos) == wanted.map { $0.map(TodoLine.init) }, "case \(index)")
            let headings = try store.sections(filter: filter, details: details).map { $0.repository.heading }
            #expect(lines.map(\.repository) == headings, "case \(index)")
            let largest = try store.largestListedTodoID(filter: filter, details: details)
            #expect(largest == wanted.joined().map(\.id).max(), "case \(index)")
        }
    }

    @Test("a due date SQLite holds that is no date orders its section as the list does: as none")
    func aDueThatIsNoDate() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a")])
        for (index, due) in ["2026-03-01", nil, "2026-02-30", "2026-01-01"].enumerated() {
            _ = try store.addTodo(repositoryID: 1, text: "t\(index)",
                                  details: DetailsEdit(due: due.flatMap(CalendarDate.init(text:)).map { .some($0) }, addTags: ["x"]),
                                  at: moment(1))
        }
        // The schema's check takes any digits; a date no calendar has is read as no due date.
        try store.database.run("UPDATE todos SET due = '2026-02-30' WHERE text = 't2'")
        let sections = try streamed(store)
        #expect(sections.map { $0.map(\.text) } == [["t3", "t0", "t1", "t2"]])
        #expect(sections == (try expected(store) { _ in true }))
        // A filtered list, ordered on the records' keys rather than the index's, the same.
        #expect(try streamed(store, details: DetailsFilter(tags: ["x"])) == sections)
        #expect(try store.lineSections(details: DetailsFilter(tags: ["x"])).map(\.todos) == sections.map { $0.map(TodoLine.init) })
    }

    @Test("ListKey.precedes orders records as their ListKeys do", arguments: 0..<8)
    func precedesIsTheKeysOrder(seed: UInt64) throws {
        let store = try randomStore(seed: seed)
        let todos = try store.sections().flatMap(\.todos)
        for left in todos {
            for right in todos {
                #expect(ListKey.precedes(left, right) == (ListKey(left) < ListKey(right)), "\(left.id) \(right.id)")
            }
        }
    }

    @Test("the whole list reads each repository's todos from the list's index, never by sorting")
    func theListUsesTheIndex() throws {
        let store = try memoryStore()
        let plan = try store.database.query("""
            EXPLAIN QUERY PLAN SELECT t.id FROM todos t JOIN repositories r ON r.id = t.repository_id
            ORDER BY r.full_name COLLATE NOCASE, r.id, t.done, t.list_due, t.list_rank, t.position, t.id
            """) { row throws(StoreError) in try row.string(3) }
        #expect(plan.contains { $0.contains("todos_list_order") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("--priority reads the todos of that priority by index (migration 17), not every todo")
    func priorityUsesItsIndex() throws {
        let store = try memoryStore()
        for priorities in [[Priority.high], [.high, .low]] {
            let (conditions, values) = Store.listConditions(repositoryIDs: nil, filter: .all,
                                                            details: DetailsFilter(priorities: priorities))
            let read = Store.pickedSQL(Store.whereClause(conditions))
            let plan = try store.database.query("EXPLAIN QUERY PLAN " + read, values) { row throws(StoreError) in try row.string(3) }
            #expect(plan.contains { $0.contains("todos_priority") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "sorted in memory on the records' keys: \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN t") }, "\(plan)")
        }
    }

    @Test("next keeps its ranking when it reads the ranked todos apart, in pieces of 500")
    func nextReadsTheRankedTodos() throws {
        let store = try randomStore(seed: 7)
        for _ in 0..<700 { _ = try store.addTodo(repositoryID: 2, text: "more", at: moment(5)) }
        let today = try #require(CalendarDate(dayNumber: 20_003))
        let now = moment(400_000)
        let ranked = try store.nextTodos(limit: 10_000, today: today, now: now)
        // The ranking as one query: every open todo, highest urgency first.
        let order = try store.database.query("""
            SELECT t.id FROM todos t JOIN repositories r ON r.id = t.repository_id WHERE t.done = 0
            ORDER BY coalesce(\(UrgencyTests.sql), 0) DESC, t.due IS NULL, t.due,
                CASE t.priority WHEN 'H' THEN 0 WHEN 'M' THEN 1 WHEN 'L' THEN 2 ELSE 3 END, t.created_at, t.id
            """, [.text(today.text), .text(now.rfc3339)]) { row throws(StoreError) in try row.int64(0) }
        #expect(order.count > 500)
        #expect(ranked.map(\.todo.id) == order)
        #expect(ranked.map(\.todo) == (try store.todos(ids: order)))
        #expect(try store.nextTodos(limit: 3, today: today, now: now).map(\.todo.id) == Array(order.prefix(3)))
    }
}

extension RepositoryRecord {
    /// What a section's header shows of it, as `repositoryHeadings` reads it.
    var heading: RepositoryHeading {
        RepositoryHeading(id: id, fullName: fullName, description: description, archived: archived, gone: gone)
    }
}
