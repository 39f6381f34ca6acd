/// Merges two copies of the todo list into one that holds everything either has: todos and
/// repositories are matched by UUID and GitHub id, and every field keeps its later write. A
/// removal is a field of its own, so an edit never clears it; only a later restore does.
///
/// A pure function, commutative, associative and idempotent: machines that exchange their copies
/// in any order, any number of times, end with the same list.
public func merge(_ left: Replica, _ right: Replica) -> Replica {
    // Walk the smaller copy: a sync merges a few changes into a long list.
    let (base, other) = left.todos.count + left.repositories.count >= right.todos.count + right.repositories.count
        ? (left, right) : (right, left)
    var result = base
    for (id, entry) in other.repositories {
        if let existing = result.repositories[id] {
            result.repositories[id] = existing.merged(with: entry)
        } else {
            result.repositories[id] = entry
        }
    }
    for (uuid, entry) in other.todos {
        if let existing = result.todos[uuid] {
            if existing != entry { result.todos[uuid] = existing.merged(with: entry) }
        } else {
            result.todos[uuid] = entry
        }
    }
    result.formatMinor = max(left.formatMinor, right.formatMinor)
    result.headerUnknown = left.headerUnknown.merged(with: right.headerUnknown)
    result.unknownLines = left.unknownLines.union(right.unknownLines)
    return result
}
