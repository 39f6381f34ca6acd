import DoogitMerge
import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// A todo's details travel between machines as fields of their own.
@Suite(.serialized)
struct DetailsSyncTests {
    @Test func aFieldEditedOnEachOfTwoMachinesKeepsBoth() throws {
        let (github, machines) = try RemoteSyncTests().world()
        let (a, b) = (machines[0], machines[1])
        let todo = try a.add("ship it")
        try a.sync()
        try b.sync()
        _ = try a.store.editDetails(id: a.id(todo.uuid), DetailsEdit(due: .some(CalendarDate(text: "2026-12-24")), addTags: ["ci"]),
                                    at: a.now)
        b.advance(seconds: 1)
        _ = try b.store.editDetails(id: b.id(todo.uuid), DetailsEdit(priority: .some(.high), note: .some("two\nlines")), at: b.now)
        try a.sync()
        try b.sync()
        try a.sync()
        for machine in [a, b] {
            let merged = try #require(try machine.todo(todo.uuid))
            #expect(merged.due == CalendarDate(text: "2026-12-24") && merged.priority == .high && merged.tags == ["ci"]
                    && merged.note == "two\nlines")
        }
        let file = try #require(github.contents.file(Machine.dataRepository, RemoteSyncTests.todosPath)?.text)
        #expect(file.hasPrefix(#"{"format":"doogit","version":"4.2""#) && file.contains(#""due":"2026-12-24""#))
        // The same field on both: the later change wins on both.
        _ = try a.store.editDetails(id: a.id(todo.uuid), DetailsEdit(priority: .some(.low)), at: a.now)
        b.advance(seconds: 5)
        _ = try b.store.editDetails(id: b.id(todo.uuid), DetailsEdit(priority: .some(nil)), at: b.now)
        try a.sync()
        try b.sync()
        try a.sync()
        #expect(try a.todo(todo.uuid)?.priority == nil && b.todo(todo.uuid)?.priority == nil)
    }
}
