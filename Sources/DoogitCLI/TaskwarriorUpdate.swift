import DoogitMerge
import DoogitStore
import DoogitSupport

/// What a Taskwarrior task brings to the todo that is here already (the same UUID): every field
/// that differs from the todo as the export writes it (status, description, priority, tags, due,
/// annotations as the note), where the task was modified after that field last changed here.
/// Field by field, the later wins: a field changed here after the task keeps this machine's value.
/// Taskwarrior keeps one `modified` per task, to the second; a field changed here in the same
/// second stays, so a file exported and imported back changes nothing.
enum TaskwarriorUpdate {
    static func update(of todo: TodoRecord, entry: TodoEntry, by task: ForeignTodo) -> TodoUpdate? {
        guard let modified = task.modified else { return nil }
        func later(_ stamp: HybridTimestamp) -> Bool {
            seconds(modified.millisecondsSinceEpoch) > seconds(stamp.wall)
        }
        var update = TodoUpdate(id: todo.id)
        if task.text != TaskwarriorExport.description(todo.text), later(entry.text.stamp) { update.text = task.text }
        if task.done != todo.done, later(entry.done.stamp) {
            update.done = task.done ? DoneState(doneAt: task.doneAt ?? modified) : .open
        }
        let due = task.details.due.flatMap { $0 }
        if due != todo.due, later(entry.details.due.stamp) { update.details.due = .some(due) }
        let priority = task.details.priority.flatMap { $0 }
        if priority != todo.priority, later(entry.details.priority.stamp) { update.details.priority = .some(priority) }
        // The tags as a whole were last changed at their register's stamp; written as tags added
        // and removed, through the store's tag-setting operation.
        let theirs = Set(task.details.addTags), ours = Set(todo.tags)
        if theirs != Set(ours.map(TaskwarriorExport.word).filter { !$0.isEmpty }), later(entry.details.tags.stamp) {
            update.details.addTags = theirs.subtracting(ours).sorted()
            update.details.removeTags = ours.subtracting(theirs).sorted()
        }
        let note = task.details.note.flatMap { $0 }
        if TaskwarriorExport.annotations(note) != TaskwarriorExport.annotations(todo.note), later(entry.details.note.stamp) {
            update.details.note = .some(note)
        }
        return update.isEmpty ? nil : update
    }

    /// Whole seconds of a time in milliseconds (rounded down, before 1970 too).
    private static func seconds(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }
}
