import DoogitMerge

/// Where a todo stands in its repository's part of the list: open todos first, those with a
/// due date first by date, then by priority, then by position; done todos by position. The
/// same order as `Store.listOrder`, and as the index `todos_list_order` (its `list_due` and
/// `list_rank` columns), so that a screen of the list is read from where it starts.
public struct ListKey: Comparable, Hashable, Sendable {
    public var done: Bool
    /// The due date's text for an open todo with one; `~` (after every date) otherwise.
    public var due: String
    /// 0 for H, 1 for M, 2 for L; 3 for none and for a done todo.
    public var rank: Int
    public var position: Int64
    public var id: Int64

    /// What `list_due` holds when there is no date to order by.
    static let noDue = "~"

    /// The key of a record: the index's, for every due date a record can hold.
    public init(_ todo: TodoRecord) {
        done = todo.done
        due = todo.done ? Self.noDue : todo.due?.text ?? Self.noDue
        rank = todo.done ? 3 : todo.priority?.rank ?? 3
        position = todo.position
        id = todo.id
    }

    /// Whether `lhs` comes before `rhs`: `ListKey(lhs) < ListKey(rhs)` without making either
    /// key (no date written out as text), for orders checked or sorted over many records.
    public static func precedes<Todo: ListableTodo>(_ lhs: Todo, _ rhs: Todo) -> Bool {
        if lhs.done != rhs.done { return !lhs.done }
        if !lhs.done {
            // A date's text orders as the date does; none ("~") after every date.
            switch (lhs.due, rhs.due) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            let left = lhs.priority?.rank ?? 3, right = rhs.priority?.rank ?? 3
            if left != right { return left < right }
        }
        return lhs.position != rhs.position ? lhs.position < rhs.position : lhs.id < rhs.id
    }

    public static func < (lhs: ListKey, rhs: ListKey) -> Bool {
        if lhs.done != rhs.done { return !lhs.done }
        if lhs.due != rhs.due { return lhs.due < rhs.due }
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        return lhs.position != rhs.position ? lhs.position < rhs.position : lhs.id < rhs.id
    }

    /// The key as the index holds it (a read of `Store.listWindowSQL`). A due date that is not
    /// a real date (one written by hand, say) is in the index as written, where the record has
    /// none: the index's value keeps a page's next read where this one ended.
    init(_ row: Row) throws(StoreError) {
        done = try row.bool("done")
        due = try row.string("list_due")
        rank = Int(try row.int64("list_rank"))
        position = try row.int64("position")
        id = try row.int64("todo_id")
    }

    /// The key's columns in the index's order, and its values bound in that order.
    static let columns = ["t.done", "t.list_due", "t.list_rank", "t.position", "t.id"]
    var values: [SQLValue] { [.bool(done), .text(due), .integer(Int64(rank)), .integer(position), .integer(id)] }
}
