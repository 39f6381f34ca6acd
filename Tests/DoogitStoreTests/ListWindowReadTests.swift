import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import TestSupport
import Testing

/// The view's reads: a repository's todos a page at a time from the index that holds the list's
/// order, the filter as a query, and the counts a header needs.
struct ListWindowReadTests {
    /// A store with one repository of random todos (due dates, priorities, done), as the list
    /// holds them, and the same todos in list order as `sections` puts them.
    private func randomList(seed: UInt64) throws -> (store: Store, ordered: [TodoRecord]) {
        var random = SplitMix64(seed: seed)
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a"), repository(2, "two/b")])
        for index in 0..<Int.random(in: 0...90, using: &random) {
            let due: CalendarDate?? = Bool.random(using: &random) ? .some(CalendarDate(dayNumber: 20_000 + Int.random(in: 0..<5, using: &random))) : nil
            let priority: Priority?? = Bool.random(using: &random) ? .some(Priority.allCases.randomElement(using: &random)) : nil
            let todo = try store.addTodo(repositoryID: Int64.random(in: 1...2, using: &random), text: "t\(index)",
                                         details: DetailsEdit(due: due, priority: priority), at: moment(Int64(index)))
            if Int.random(in: 0..<3, using: &random) == 0 { _ = try store.setDone([todo.id], done: true, at: moment(Int64(index))) }
        }
        let sections = try store.sections()
        let ordered: [TodoRecord] = sections.first(where: { $0.repository.id == 1 }).map(\.todos) ?? []
        return (store, ordered)
    }

    @Test("the key orders todos as the list does", arguments: 0..<8)
    func theKeyIsTheListsOrder(seed: UInt64) throws {
        let (_, ordered) = try randomList(seed: seed)
        #expect(ordered.map(ListKey.init) == ordered.map(ListKey.init).sorted())
        var shuffled = ordered
        var random = SplitMix64(seed: seed)
        shuffled.shuffle(using: &random)
        Store.listOrder(&shuffled)
        #expect(shuffled.map(\.id) == ordered.map(\.id))
    }

    @Test("pages read forward, and backward from the end, give the whole list once", arguments: 0..<8)
    func pagesAddUpToTheList(seed: UInt64) throws {
        let (store, ordered) = try randomList(seed: seed)
        for page in [1, 3, 7] {
            var forward: [TodoRecord] = [], key: ListKey?
            while true {
                let read = try store.listTodos(inRepository: 1, from: key, .forward, limit: page)
                forward += read
                guard read.count == page, let last = read.last else { break }
                key = ListKey(last)
            }
            #expect(forward.map(\.id) == ordered.map(\.id), "forward by \(page)")
            var backward: [TodoRecord] = []
            key = nil
            while true {
                let read = try store.listTodos(inRepository: 1, from: key, .backward, limit: page)
                backward += read
                guard read.count == page, let last = read.last else { break }
                key = ListKey(last)
            }
            #expect(backward.reversed().map(\.id) == ordered.map(\.id), "backward by \(page)")
        }
        // Inclusive: a read from a todo's own key starts with it.
        if let middle = ordered.dropFirst(ordered.count / 2).first {
            let read = try store.listTodos(inRepository: 1, from: ListKey(middle), .forward, inclusive: true, limit: 2)
            #expect(read.first?.id == middle.id)
        }
    }

    @Test("a page is read from the list's index, never by sorting the repository's todos")
    func pagesUseTheIndex() throws {
        let store = try memoryStore()
        let plan = try store.database.query("""
            EXPLAIN QUERY PLAN SELECT t.id FROM todos t WHERE t.repository_id = 1
            AND (t.done, t.list_due, t.list_rank, t.position, t.id) > (0, '~', 3, 5, 5)
            ORDER BY t.done, t.list_due, t.list_rank, t.position, t.id LIMIT 10
            """) { row throws(StoreError) in try row.string(3) }
        #expect(plan.contains { $0.contains("todos_list_order") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test(arguments: [
        ("Write The Release Notes", "release"), ("write", "writes"), ("fix CI now", "ci n"), ("aaab", "aab"),
        ("Ünïcode Straße", "straße"), ("ÉTÉ", "été"), ("café", "cafe"), ("cafe\u{301}", "café"), ("café", "cafe\u{301}"),
        ("K-Kelvin \u{212A}", "k-k"), ("\u{212A}elvin", "kelvin"), ("日本語のテキスト", "テキ"), ("100%_done", "%_"),
    ])
    func theFilterQueryMatchesAsSwiftDoes(text: String, needle: String) throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a")])
        let todo = try store.addTodo(repositoryID: 1, text: text, at: moment(1))
        let swift = todo.matches(needle)
        #expect(swift == text.lowercased().contains(needle))
        #expect(try store.matchCounts(needle)[1, default: 0] == (swift ? 1 : 0))
        #expect(try store.listTodos(inRepository: 1, from: nil, .forward, limit: 10, matching: needle).count == (swift ? 1 : 0))
    }

    @Test func countsAndTheLargestIDComeFromTheDatabase() throws {
        let (store, ordered) = try randomList(seed: 3)
        #expect(try store.largestTodoID() == (try store.sections().flatMap(\.todos).map(\.id).max() ?? 0))
        let matches = ordered.filter { $0.matches("t1") }.count
        #expect(try store.matchCounts("t1", repositoryIDs: [1])[1, default: 0] == matches)
        #expect(try store.matchCounts("t1", repositoryIDs: [2])[1] == nil)
        #expect(try store.todoIfAny(id: 10_000) == nil)
    }
}
