import DoogitMerge
@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// The changes the commands and the interactive view share: the words read as `todo add` and
/// `todo edit` read them, and a mistake refused before anything changes.
@Suite struct TodoActionsTests {
    func actions() throws -> (TodoActions, Store) {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld])
        let today = try #require(CalendarDate(text: "2030-01-07"))
        return (TodoActions(store: { store }, now: Timestamp(secondsSinceEpoch: 1_900_000_000), today: today), store)
    }

    @Test func aLineIsReadAsTodoAddReadsItsWords() throws {
        let (actions, _) = try actions()
        let todo = try actions.add(line: "ship  it +Release due:tomorrow pri:h", to: Fixture.helloWorld.id)
        #expect(todo.text == "ship it")
        #expect(todo.tags == ["Release"])
        #expect(todo.due == CalendarDate(text: "2030-01-08"))
        #expect(todo.priority == .high)
    }

    @Test func fieldsAddAndRemoveTagsAndNeverReplaceTheText() throws {
        let (actions, store) = try actions()
        let todo = try actions.add(line: "ship it +a +b", to: Fixture.helloWorld.id)
        let edited = try actions.editFields(todo.id, words: ["-a", "+c", "pri:L"])
        #expect(edited.tags == ["b", "c"])
        #expect(edited.priority == .low)
        #expect(edited.text == "ship it")
        let before = try store.todo(id: todo.id)
        #expect(throws: UsageError.self) { try actions.editFields(todo.id, words: ["oops"]) }
        #expect(throws: UsageError.self) { try actions.editFields(todo.id, words: ["due:someday"]) }
        #expect(throws: UsageError.self) { try actions.editFields(todo.id, words: ["-no,tag"]) }
        #expect(try store.todo(id: todo.id) == before, "a refused edit changes nothing")
    }

    @Test func noneClearsTheDueDateOrThePriorityAndNothingElse() throws {
        let (actions, _) = try actions()
        let todo = try actions.add(line: "ship it +a due:tomorrow pri:H", to: Fixture.helloWorld.id)
        let undated = try actions.editFields(todo.id, words: ["due:none"])
        #expect(undated.due == nil)
        #expect(undated.priority == .high, "clearing the date keeps the priority")
        let plain = try actions.editFields(todo.id, words: ["PRI:None"])
        #expect(plain.priority == nil)
        #expect(plain.tags == ["a"])
        #expect(plain.text == "ship it")
    }

    @Test func anEmptyLineIsNoTodo() throws {
        let (actions, store) = try actions()
        #expect(throws: UsageError.self) { try actions.add(line: "  +tag-only  ", to: Fixture.helloWorld.id) }
        #expect(try store.sections().isEmpty)
    }

    @Test func takingBackAnEditRevertsOnlyWhatItChangedAndAGoneTodoLeavesTheList() throws {
        let (actions, store) = try actions()
        var changes = ViewChanges()
        let first = try actions.add(line: "first", to: Fixture.helloWorld.id)
        let todo = try actions.add(line: "ship it", to: Fixture.helloWorld.id)
        _ = try changes.toggle(first.id, done: true, actions)
        _ = try changes.edit(todo.id, line: "+docs", raw: false, before: todo, actions)
        // Someone else changes the text meanwhile: taking back the tag leaves their text.
        _ = try store.editTodo(id: todo.id, text: "ship it today", at: Timestamp(secondsSinceEpoch: 1_900_000_100))
        let back = try #require(try changes.takeBack(actions))
        #expect(back.changed.first?.tags == [])
        #expect(try store.todo(id: todo.id).text == "ship it today")
        // A change whose todo is gone cannot be taken back; it leaves the list, and the one
        // before it can still be.
        _ = try changes.edit(todo.id, line: "+x", raw: false, before: try store.todo(id: todo.id), actions)
        _ = try store.removeTodos([todo.id], at: Timestamp(secondsSinceEpoch: 1_900_000_200))
        #expect(throws: (any Error).self) { try changes.takeBack(actions) }
        let toggle = try #require(try changes.takeBack(actions))
        #expect(toggle.changed.first?.done == false)
        #expect(try changes.takeBack(actions) == nil)
    }
}
