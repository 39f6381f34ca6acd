import DoogitStore

/// Where a section stands in the list: by full name without case, then by id (as the store
/// orders repositories; GitHub's names are ASCII, so lowercasing is SQLite's NOCASE).
struct SectionKey: Comparable, Hashable {
    var name: String
    var id: Int64

    init(_ repository: RepositoryRecord) {
        name = repository.fullName.lowercased()
        id = repository.id
    }

    static func < (lhs: SectionKey, rhs: SectionKey) -> Bool {
        lhs.name != rhs.name ? lhs.name < rhs.name : lhs.id < rhs.id
    }
}

/// A place in the list's order: a section's header, or one of its todos (after the header).
/// A place outlives what stood there: the list read again from a place whose todo is gone
/// starts at the one that now follows it.
struct ListPlace: Comparable, Hashable {
    var section: SectionKey
    /// nil: the header.
    var todo: ListKey?

    static func header(_ section: SectionKey) -> ListPlace { ListPlace(section: section, todo: nil) }

    static func < (lhs: ListPlace, rhs: ListPlace) -> Bool {
        if lhs.section != rhs.section { return lhs.section < rhs.section }
        switch (lhs.todo, rhs.todo) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let left?, let right?): return left < right
        }
    }
}

/// A section of the view: a repository and how many of its todos there are.
struct ListSection {
    var repository: RepositoryRecord
    var open: Int
    var done: Int
    var key: SectionKey

    init(_ summary: RepositorySummary) {
        repository = summary.repository
        open = summary.open
        done = summary.done
        key = SectionKey(summary.repository)
    }

    var count: Int { open + done }
}
