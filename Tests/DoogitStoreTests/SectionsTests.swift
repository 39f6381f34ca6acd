import DoogitMerge
import DoogitStore
import DoogitSupport
import TestSupport
import Testing

/// Five repositories whose case-insensitive order differs from both id order and byte order,
/// with open and done todos:
///   alpha/tools (2):  a1 done
///   beta/another (5): n1
///   Beta/lib (3):     b1, b2
///   empty/repo (4):   nothing
///   Zeta/app (1):     z1 done, z2, z3
private struct Listing {
    let store: Store
    let repositories: [Int64: RepositoryRecord]
    var todos: [String: TodoRecord] = [:]

    init() throws {
        store = try memoryStore()
        let records = [repository(1, "Zeta/app"), repository(2, "alpha/tools"), repository(3, "Beta/lib"),
                       repository(4, "empty/repo"), repository(5, "beta/another")]
        try store.saveRepositories(records)
        repositories = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        for (key, repositoryID) in [("z1", Int64(1)), ("z2", 1), ("z3", 1), ("a1", 2), ("b1", 3), ("b2", 3), ("n1", 5)] {
            todos[key] = try store.addTodo(repositoryID: repositoryID, text: key, at: moment(1))
        }
        for record in try store.setDone([todos["z1"]!.id, todos["a1"]!.id], done: true, at: moment(2)) {
            todos[record.text] = record
        }
    }

    /// The sections as (full name, todo texts).
    func shape(_ sections: [TodoSection]) -> [String] {
        sections.map { $0.repository.fullName + ": " + $0.todos.map(\.text).joined(separator: ",") }
    }
}

@Suite("Store.sections")
struct SectionsTests {
    @Test("repositories by full name case-insensitively; open todos before done ones")
    func all() throws {
        let listing = try Listing()
        let sections = try listing.store.sections()
        #expect(listing.shape(sections) == [
            "alpha/tools: a1", "beta/another: n1", "Beta/lib: b1,b2", "Zeta/app: z2,z3,z1",
        ])
        #expect(sections.map(\.repository) == [2, 5, 3, 1].map { listing.repositories[$0]! })
        #expect(sections.flatMap(\.todos).allSatisfy { listing.todos[$0.text] == $0 })
    }

    @Test("the .open filter shows open todos only and drops sections left empty")
    func open() throws {
        let listing = try Listing()
        #expect(listing.shape(try listing.store.sections(filter: .open)) == [
            "beta/another: n1", "Beta/lib: b1,b2", "Zeta/app: z2,z3",
        ])
    }

    @Test("the .done filter shows done todos only")
    func done() throws {
        let listing = try Listing()
        let sections = try listing.store.sections(filter: .done)
        #expect(listing.shape(sections) == ["alpha/tools: a1", "Zeta/app: z1"])
        #expect(sections.flatMap(\.todos).allSatisfy { $0.done && $0.doneAt == moment(2) })
    }

    @Test("includeEmpty adds every tracked repository in its place")
    func includeEmpty() throws {
        let listing = try Listing()
        #expect(listing.shape(try listing.store.sections(includeEmpty: true)) == [
            "alpha/tools: a1", "beta/another: n1", "Beta/lib: b1,b2", "empty/repo: ", "Zeta/app: z2,z3,z1",
        ])
        #expect(listing.shape(try listing.store.sections(filter: .open, includeEmpty: true)) == [
            "alpha/tools: ", "beta/another: n1", "Beta/lib: b1,b2", "empty/repo: ", "Zeta/app: z2,z3",
        ])
        #expect(listing.shape(try listing.store.sections(filter: .done, includeEmpty: true)) == [
            "alpha/tools: a1", "beta/another: ", "Beta/lib: ", "empty/repo: ", "Zeta/app: z1",
        ])
        let empty = try listing.store.sections(filter: .open, includeEmpty: true)[3]
        #expect(empty.repository == listing.repositories[4])
    }

    @Test("one repository only")
    func oneRepository() throws {
        let listing = try Listing()
        #expect(listing.shape(try listing.store.sections(repositoryIDs: [1])) == ["Zeta/app: z2,z3,z1"])
        #expect(listing.shape(try listing.store.sections(repositoryIDs: [1], filter: .done)) == ["Zeta/app: z1"])
        #expect(try listing.store.sections(repositoryIDs: [4]).isEmpty)
        #expect(listing.shape(try listing.store.sections(repositoryIDs: [4], includeEmpty: true)) == ["empty/repo: "])
        #expect(listing.shape(try listing.store.sections(repositoryIDs: [2], filter: .open, includeEmpty: true)) == ["alpha/tools: "])
        #expect(try listing.store.sections(repositoryIDs: [999], includeEmpty: true).isEmpty)
    }

    @Test("an empty store has no sections")
    func emptyStore() throws {
        let store = try memoryStore()
        #expect(try store.sections().isEmpty)
        #expect(try store.sections(includeEmpty: true).isEmpty)
        #expect(try store.repositorySummaries().isEmpty)
    }

    @Test("done todos keep list order, not the order they were done in; reopened ones go back in place")
    func doneOrder() throws {
        let listing = try Listing()
        let store = listing.store
        _ = try store.setDone([listing.todos["z3"]!.id], done: true, at: moment(3))
        #expect(listing.shape(try store.sections(repositoryIDs: [1])) == ["Zeta/app: z2,z1,z3"])
        _ = try store.setDone([listing.todos["z1"]!.id], done: false, at: moment(4))
        #expect(listing.shape(try store.sections(repositoryIDs: [1])) == ["Zeta/app: z1,z2,z3"])
    }

    @Test("repository summaries count open and done todos, in the same order")
    func summaries() throws {
        let listing = try Listing()
        let summaries = try listing.store.repositorySummaries()
        #expect(summaries.map(\.repository.fullName) == ["alpha/tools", "beta/another", "Beta/lib", "empty/repo", "Zeta/app"])
        #expect(summaries.map(\.open) == [0, 1, 2, 0, 2])
        #expect(summaries.map(\.done) == [1, 0, 0, 0, 1])
        #expect(summaries.map(\.repository) == [2, 5, 3, 4, 1].map { listing.repositories[$0]! })
    }

    @Test("a rename moves the section to its new place in the order")
    func renameReorders() throws {
        let listing = try Listing()
        var renamed = listing.repositories[1]!
        renamed.owner = "aardvark"
        renamed.fullName = "aardvark/app"
        try listing.store.saveRepository(renamed)
        #expect(listing.shape(try listing.store.sections()) == [
            "aardvark/app: z2,z3,z1", "alpha/tools: a1", "beta/another: n1", "Beta/lib: b1,b2",
        ])
        #expect(try listing.store.sections()[0].todos.allSatisfy { $0.repositoryFullName == "aardvark/app" })
    }
}

/// The order within a section on many random lists, against the rule written out plainly: open
/// todos by due date (none last), then priority (H, M, L, none), then the order they were added;
/// done ones after, in the order they were added.
@Suite("Store.sections: the order of what is pressing")
struct PressingOrderTests {
    @Test("random lists come out in the order the rule gives", arguments: 0..<12)
    func randomLists(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a"), repository(2, "two/b")])
        var added: [Int64: [TodoRecord]] = [1: [], 2: []]
        for index in 0..<Int.random(in: 1...120, using: &random) {
            let repositoryID = Int64.random(in: 1...2, using: &random)
            let due: CalendarDate?? = Bool.random(using: &random) ? .some(CalendarDate(dayNumber: 20_000 + Int.random(in: 0..<6, using: &random))) : nil
            let priority: Priority?? = Bool.random(using: &random) ? .some([Priority.high, .medium, .low].randomElement(using: &random)) : nil
            var todo = try store.addTodo(repositoryID: repositoryID, text: "t\(index)",
                                         details: DetailsEdit(due: due, priority: priority), at: moment(Int64(index)))
            if Int.random(in: 0..<4, using: &random) == 0 {
                todo = try store.setDone([todo.id], done: true, at: moment(Int64(index)))[0]
            }
            added[repositoryID, default: []].append(todo)
        }
        func pressing(_ lhs: TodoRecord, _ rhs: TodoRecord) -> Bool {
            switch (lhs.due, rhs.due) {
            case let (a?, b?) where a != b: return a < b
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            let left = lhs.priority?.rank ?? 3, right = rhs.priority?.rank ?? 3
            return left != right ? left < right : lhs.id < rhs.id
        }
        let expected = [Int64(1), 2].compactMap { id -> [String]? in
            let todos = added[id] ?? []
            guard !todos.isEmpty else { return nil }
            let open = todos.filter { !$0.done }.sorted(by: pressing)
            return (open + todos.filter(\.done)).map(\.text)
        }
        #expect(try store.sections().map { $0.todos.map(\.text) } == expected)
    }
}
