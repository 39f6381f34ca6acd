import DoogitMerge
import DoogitStore
import DoogitSupport

/// What a Taskwarrior task brings to the todo that is here already (the same UUID): every field
/// whose value differs from the todo as the export writes it (status, description, priority,
/// tags, due, annotations as the note), where the task was modified no earlier than that field
/// last changed here. Field by field, the later wins: a field changed here after the task keeps
/// this machine's value. Taskwarrior keeps one `modified` per task, to the second, and doogit's
/// stamps have milliseconds: a task modified in the second of the change here (12:00:05 against
/// 12:00:05.300) is not older, so a change made in `task` right after an export comes back. A
/// file exported and imported back changes nothing: its values are the todo's.
enum TaskwarriorUpdate {
    static func update(of todo: TodoRecord, entry: TodoEntry, by task: ForeignTodo) -> TodoUpdate? {
        guard let modified = task.modified else { return nil }
        func later(_ stamp: HybridTimestamp) -> Bool {
            seconds(modified.millisecondsSinceEpoch) >= seconds(stamp.wall)
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
        // Tag by tag (without case), each against its own stamp here: added and removed through
        // the store's tag-setting operation.
        let theirs = Set(task.details.addTags.map(TagSet.key))
        let ours = Dictionary(todo.tags.map { (TagSet.key(TaskwarriorExport.word($0)), $0) }, uniquingKeysWith: { first, _ in first })
        let states = entry.details.tags.states
        update.details.addTags = task.details.addTags.filter { tag in
            ours[TagSet.key(tag)] == nil && later(states[TagSet.key(tag)]?.stamp ?? .zero)
        }.sorted()
        update.details.removeTags = ours.filter { key, tag in
            !key.isEmpty && !theirs.contains(key) && later(states[TagSet.key(tag)]?.stamp ?? .zero)
        }.map(\.value).sorted()
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
