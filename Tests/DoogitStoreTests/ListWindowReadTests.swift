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

    @Test("the key orders todos as the list does, ties by position, then id", arguments: 0..<8)
    func theKeyIsTheListsOrder(seed: UInt64) throws {
        let (store, ordered) = try randomList(seed: seed)
        #expect(ordered.map(ListKey.init) == ordered.map(ListKey.init).sorted())
        var shuffled = ordered
        var random = SplitMix64(seed: seed)
        shuffled.shuffle(using: &random)
        Store.listOrder(&shuffled)
        #expect(shuffled.map(\.id) == ordered.map(\.id))
        // The record's key is the one the index holds.
        let read = try store.listTodos(inRepository: 1, from: nil, .forward, limit: 1_000)
        #expect(read.map(\.key) == read.map { ListKey($0.todo) })
        // Two todos at one position (as a merge of two machines can leave them): by id.
        guard let first = ordered.first else { return }
        var a = ListKey(first), b = a
        b.id = a.id + 1
        #expect(a < b && !(b < a))
        a.position += 1
        #expect(b < a)
    }

    /// Pages read forward, and backward from the end, with every size of page: the whole list
    /// once, in order. `ordered` is the list as `todo list` orders it.
    private func expectPagesAddUp(_ store: Store, _ ordered: [Int64], _ context: String) throws {
        for page in [1, 3, 7] {
            var forward: [Int64] = [], key: ListKey?
            while true {
                let read = try store.listTodos(inRepository: 1, from: key, .forward, limit: page)
                forward += read.map(\.todo.id)
                guard read.count == page, let last = read.last else { break }
                key = last.key
            }
            #expect(forward == ordered, "forward by \(page), \(context)")
            var backward: [Int64] = []
            key = nil
            while true {
                let read = try store.listTodos(inRepository: 1, from: key, .backward, limit: page)
                backward += read.map(\.todo.id)
                guard read.count == page, let last = read.last else { break }
                key = last.key
            }
            #expect(Array(backward.reversed()) == ordered, "backward by \(page), \(context)")
        }
    }

    @Test("pages read forward, and backward from the end, give the whole list once", arguments: 0..<8)
    func pagesAddUpToTheList(seed: UInt64) throws {
        let (store, ordered) = try randomList(seed: seed)
        try expectPagesAddUp(store, ordered.map(\.id), "seed \(seed)")
        // Inclusive: a read from a todo's own key starts with it.
        if let middle = ordered.dropFirst(ordered.count / 2).first {
            let read = try store.listTodos(inRepository: 1, from: ListKey(middle), .forward, inclusive: true, limit: 2)
            #expect(read.first?.todo.id == middle.id)
        }
    }

    /// A due date the schema lets in but that is no date (written by hand: 2026-02-30): the
    /// record has none, the index has the text; pages go by the index's key and skip nothing.
    @Test func aDueDateThatIsNoDateSkipsNothing() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a")])
        let odd = try store.addTodo(repositoryID: 1, text: "odd", at: moment(1))
        let dated = try store.addTodo(repositoryID: 1, text: "dated", details: DetailsEdit(due: .some(CalendarDate(text: "2026-05-01"))),
                                      at: moment(2))
        let plain = try store.addTodo(repositoryID: 1, text: "plain", at: moment(3))
        try store.database.execute("UPDATE todos SET due = '2026-02-30' WHERE id = \(odd.id)")
        #expect(try store.todoIfAny(id: odd.id)?.due == nil)
        let read = try store.listTodos(inRepository: 1, from: nil, .forward, limit: 10)
        #expect(read.map(\.todo.id) == [odd.id, dated.id, plain.id], "in the index's order: by the text")
        try expectPagesAddUp(store, read.map(\.todo.id), "a date that is no date")
    }

    @Test("a page is read from the list's index, never by sorting the repository's todos",
          arguments: [ListDirection.forward, .backward], [false, true])
    func pagesUseTheIndex(direction: ListDirection, fromKey: Bool) throws {
        let store = try memoryStore()
        for matching in [false, true] {
            let sql = Store.listWindowSQL(direction, from: fromKey, inclusive: false, matching: matching)
            var values: [SQLValue] = [.integer(1)]
            if fromKey { values += [.bool(false), .text("~"), .integer(3), .integer(5), .integer(5)] }
            if matching { values.append(.text("x")) }
            values.append(.integer(10))
            let plan = try store.database.query("EXPLAIN QUERY PLAN " + sql, values) { row throws(StoreError) in try row.string(3) }
            #expect(plan.contains { $0.contains("todos_list_order") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test(arguments: [
        ("Write The Release Notes", "release"), ("write", "writes"), ("fix CI now", "ci n"), ("aaab", "aab"),
        ("Ünïcode Straße", "straße"), ("ÉTÉ", "été"), ("café", "cafe"), ("cafe\u{301}", "café"), ("café", "cafe\u{301}"),
        ("K-Kelvin \u{212A}", "k-k"), ("\u{212A}elvin", "kelvin"), ("日本語のテキスト", "テキ"), ("100%_done", "%_"),
        // Longer than a word of eight bytes: found across words, in the last bytes, or not at all.
        ("Notes of the release, and at last: RELEASE", "release"), ("0123456789abcdeFXYz", "fxyz"), ("@@@@@@@@@@@@", "`"),
        ("[[[[[[[[[[", "{"), ("a text longer than a word, then ÉTÉ", "été"), ("a text longer than a word, then cafe\u{301}", "cafe"),
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
