import DoogitMerge
import DoogitStore
import DoogitSupport

/// The changes the interactive view makes, each through `TodoActions` (the commands' way), and
/// how each is taken back with `u`: a toggle toggles back, an add is removed, a removal
/// restored, an edit edited back. Taking back is a new change, synced like any.
struct ViewChanges {
    enum Undo: Equatable {
        case toggled(todoID: Int64, wasDone: Bool)
        case added(todoID: Int64)
        case removed(todoID: Int64)
        /// What the edit changed: only those fields go back.
        case edited(before: TodoRecord, after: TodoRecord)
        /// An issue made on GitHub: it stays there.
        case promoted(todoID: Int64)
    }

    private(set) var undo: [Undo] = []

    /// Each change says what it did, in a line for the status line, and the records it left.
    struct Done {
        var message: String
        var changed: [TodoRecord] = []
        var removed: [TodoRecord] = []
        /// The todo to put the cursor on.
        var todoID: Int64?
    }

    mutating func toggle(_ id: Int64, done: Bool, _ actions: TodoActions) throws -> Done {
        let todos = try actions.setDone([id], done: done)
        undo.append(.toggled(todoID: id, wasDone: !done))
        return Done(message: (done ? "Done " : "Not done ") + summary(todos.first), changed: todos)
    }

    mutating func add(_ line: String, to repositoryID: Int64, _ actions: TodoActions) throws -> Done {
        let todo = try actions.add(line: line, to: repositoryID)
        undo.append(.added(todoID: todo.id))
        return Done(message: "Added " + summary(todo), changed: [todo], todoID: todo.id)
    }

    mutating func edit(_ id: Int64, line: String, raw: Bool, before: TodoRecord, _ actions: TodoActions) throws -> Done {
        let todo = raw
            ? try actions.edit(id, text: [line], details: DetailsEdit())
            : try actions.editFields(id, words: TodoActions.words(line))
        undo.append(.edited(before: before, after: todo))
        return Done(message: "Changed " + summary(todo), changed: [todo])
    }

    mutating func editNote(_ id: Int64, note: String?, before: TodoRecord, _ actions: TodoActions) throws -> Done {
        let todo = try actions.edit(id, text: nil, details: DetailsEdit(note: .some(note)))
        undo.append(.edited(before: before, after: todo))
        return Done(message: (note == nil ? "Cleared the note of " : "Saved the note of ") + summary(todo), changed: [todo])
    }

    /// A promote made by `todo promote` in the background: `u` says it cannot take it back.
    mutating func promoted(_ id: Int64) {
        undo.append(.promoted(todoID: id))
    }

    mutating func remove(_ id: Int64, _ actions: TodoActions) throws -> Done {
        let removed = try actions.remove([id])
        undo.append(.removed(todoID: id))
        return Done(message: "Removed " + summary(removed.first) + " (u brings it back)", removed: removed)
    }

    /// Takes back the last change; nil when there is none. A change that cannot be taken back
    /// (its todo is gone meanwhile) leaves the list with its error, so the ones before it can be.
    mutating func takeBack(_ actions: TodoActions) throws -> Done? {
        guard let last = undo.popLast() else { return nil }
        switch last {
        case .toggled(let id, let wasDone):
            let todos = try actions.setDone([id], done: wasDone)
            return Done(message: "Took back: " + (wasDone ? "done again " : "not done again ") + summary(todos.first),
                        changed: todos, todoID: id)
        case .added(let id):
            let removed = try actions.remove([id])
            return Done(message: "Took back the add: removed " + summary(removed.first), removed: removed)
        case .removed(let id):
            let restored = try actions.restore([id])
            return Done(message: "Took back the removal: restored " + summary(restored.first), changed: restored, todoID: id)
        case .promoted(let id):
            return Done(message: "A promote cannot be taken back: the issue of \(id) stays on GitHub (close it there, or 'doogit todo unlink \(id)')",
                        todoID: id)
        case .edited(let before, let after):
            let back = Self.edit(from: after, to: before)
            let todo = back.text == nil && back.details.isEmpty
                ? after
                : try actions.edit(before.id, text: back.text.map { [$0] }, details: back.details)
            return Done(message: "Took back the edit of " + summary(todo), changed: [todo], todoID: before.id)
        }
    }

    /// The edit that makes `after` what `before` was: only what differs.
    static func edit(from after: TodoRecord, to before: TodoRecord) -> (text: String?, details: DetailsEdit) {
        var details = DetailsEdit()
        if after.due != before.due { details.due = .some(before.due) }
        if after.priority != before.priority { details.priority = .some(before.priority) }
        if after.note != before.note { details.note = .some(before.note) }
        if after.assignee != before.assignee { details.assignee = .some(before.assignee) }
        let had = Set(before.tags.map(TagSet.key)), has = Set(after.tags.map(TagSet.key))
        details.addTags = before.tags.filter { !has.contains(TagSet.key($0)) }
        details.removeTags = after.tags.filter { !had.contains(TagSet.key($0)) }
        return (after.text == before.text ? nil : before.text, details)
    }

    private func summary(_ todo: TodoRecord?) -> String {
        guard let todo else { return "" }
        return "\(todo.id)  " + TerminalText.sanitize(todo.text)
    }
}
