import DoogitMerge
import DoogitSupport

/// The list as `todo list` reads it: its sections in the order of the index
/// `todos_list_order`, handed on a section at a time.
extension Store {
    /// The sections to show: repositories with todos matching `filter` (all tracked ones when
    /// `includeEmpty`), by full name; open todos before done ones, each in list order.
    public func sections(repositoryIDs: [Int64]? = nil, filter: TodoFilter = .all, matching text: String? = nil,
                         details: DetailsFilter = DetailsFilter(), includeEmpty: Bool = false) throws -> [TodoSection]
    {
        var sections: [TodoSection] = []
        try eachSection(repositoryIDs: repositoryIDs, filter: filter, matching: text, details: details) { sections.append($0) }
        guard includeEmpty else { return sections }
        var repositories: [Int64: RepositoryRecord] = [:]
        for repository in try self.repositories() { repositories[repository.id] = repository }
        let shown = Set(sections.map(\.repository.id))
        for repository in repositories.values
        where !shown.contains(repository.id) && (repositoryIDs?.contains(repository.id) ?? true) {
            sections.append(TodoSection(repository: repository, todos: []))
        }
        return sections.sorted { lhs, rhs in
            let left = lhs.repository.fullName.lowercased(), right = rhs.repository.fullName.lowercased()
            return left != right ? left < right : lhs.repository.id < rhs.repository.id
        }
    }

    /// The sections of `sections` (never an empty one), handed to `body` one at a time. The
    /// whole list (no tag, priority or due date asked for) is written while it is read and never
    /// sits whole in memory: rows come in the list's order from the index `todos_list_order`
    /// (repositories by full name, then open todos by due date, priority and position, then done
    /// ones by position), and nothing is sorted, except a section whose rows the index ordered
    /// otherwise than `listOrder` would (a due date SQLite holds but that is no date).
    public func eachSection(repositoryIDs: [Int64]? = nil, filter: TodoFilter = .all, matching text: String? = nil,
                            details: DetailsFilter = DetailsFilter(), _ body: (TodoSection) -> Void) throws
    {
        let (conditions, values) = Self.listConditions(repositoryIDs: repositoryIDs, filter: filter, details: details)
        let whereClause = Self.whereClause(conditions)
        let needle = text.map { $0.lowercased() }
        // Repositories are read once each, not once for every todo row.
        let repositories = try self.repositories()
        guard details.picksAll else {
            return try eachPickedSection(whereClause, values, needle: needle, repositories: repositories, body)
        }
        var byID: [Int64: RepositoryRecord] = [:]
        for repository in repositories { byID[repository.id] = repository }
        // Tags are read for all rows in one query, and the rows without.
        let tags = try tagsByTodoID(where: conditions, values)
        var reader = TodoReader()
        var section: TodoSection?
        func hand(_ section: inout TodoSection) {
            if !Self.isInPressingOrder(section.todos) { Self.listOrder(&section.todos) }
            body(section)
        }
        _ = try database.query("""
            SELECT \(Self.listColumns)
            FROM todos t JOIN repositories r ON r.id = t.repository_id \(whereClause)
            ORDER BY \(Self.repositoryOrder), t.done, t.list_due, t.list_rank, t.position, t.id
            """, values) { row throws(StoreError) in
            var todo = try reader.read(row, tags: [])
            todo.tags = tags[todo.id] ?? []
            if let needle, !todo.matches(needle) { return }
            if section?.repository.id == todo.repositoryID {
                section?.todos.append(todo)
                return
            }
            guard let repository = byID[todo.repositoryID] else { return }
            if var last = section.take() { hand(&last) }
            section = TodoSection(repository: repository, todos: [todo])
        }
        if var last = section.take() { hand(&last) }
    }

    /// The sections of a list filtered by its details (tag, priority, due date: a part of the
    /// todos), read through the filter's own index with each todo's tags, and put in the list's
    /// order here, on the records' keys: an ORDER BY would have SQLite sort whole rows, names
    /// compared without case, which cost more than the rest of the read.
    private func eachPickedSection(_ whereClause: String, _ values: [SQLValue], needle: String?,
                                   repositories: [RepositoryRecord], _ body: (TodoSection) -> Void) throws {
        try eachPicked(whereClause, values, needle: needle, repositories: repositories, body) { reader, row, fullName throws(StoreError) in
            try reader.read(row, repositoryFullName: fullName)
        }
    }

    /// The sections `sections` gives (never an empty one), of the todos as the list shows them
    /// and no more: for a part of the list, read whole before it is shown.
    public func lineSections(filter: TodoFilter = .all, matching text: String? = nil,
                             details: DetailsFilter) throws -> [TodoLineSection] {
        let (conditions, values) = Self.listConditions(repositoryIDs: nil, filter: filter, details: details)
        let whereClause = Self.whereClause(conditions)
        var sections: [TodoLineSection] = []
        try eachPicked(whereClause, values, needle: text.map { $0.lowercased() }, repositories: try repositoryHeadings(),
                       { sections.append($0) }) { reader, row, _ throws(StoreError) in try reader.readLine(row) }
        return sections
    }

    /// The picked rows, read by `read` and handed a section at a time, in the list's order.
    private func eachPicked<Repository: SectionHeading, Todo: ListableTodo>(
        _ whereClause: String, _ values: [SQLValue], needle: String?, repositories: [Repository],
        _ body: (RepositorySection<Repository, Todo>) -> Void, read: (inout TodoReader, Row, _ fullName: String) throws(StoreError) -> Todo
    ) throws {
        var places: [Int64: Int] = [:]
        for (place, repository) in repositories.enumerated() { places[repository.id] = place }
        // Rows go to their repository's section as they come: many small arrays, where one
        // array of every row would be copied whole each time it grew.
        var sections = [[Todo]](repeating: [], count: repositories.count)
        var reader = TodoReader()
        // Rows of one repository often come in a run: its place is looked up once per run.
        var last: (id: Int64, place: Int)?
        _ = try database.query(Self.pickedSQL(whereClause), values) { row throws(StoreError) in
            let repositoryID = try reader.repositoryID(row)
            let place: Int
            if let last, last.id == repositoryID {
                place = last.place
            } else {
                guard let found = places[repositoryID] else { return }
                place = found
                last = (repositoryID, found)
            }
            let todo = try read(&reader, row, repositories[place].fullName)
            if let needle, !todo.matches(needle) { return }
            sections[place].append(consume todo)
        }
        for place in sections.indices where !sections[place].isEmpty {
            // Sorted where they are: records are moved, never copied.
            var todos = [Todo]()
            swap(&todos, &sections[place])
            todos.sort { ListKey.precedes($0, $1) }
            body(RepositorySection(repository: repositories[place], todos: todos))
        }
    }

    /// The read of a list filtered by its details: the todos picked, with their tags, in no order.
    /// The repositories are not joined: their names come from the records already read.
    static func pickedSQL(_ whereClause: String) -> String {
        "SELECT \(ownColumns), \(tagsColumn) FROM todos t \(whereClause)"
    }

    /// The largest ID among the todos `eachSection` shows with these filters (nil: none), read
    /// before them, since every line's ID is aligned to the widest: the rows by ID from the
    /// largest, to the first that matches.
    public func largestListedTodoID(repositoryIDs: [Int64]? = nil, filter: TodoFilter = .all,
                              details: DetailsFilter = DetailsFilter()) throws -> Int64? {
        let (conditions, values) = Self.listConditions(repositoryIDs: repositoryIDs, filter: filter, details: details)
        let whereClause = Self.whereClause(conditions)
        return try database.query("""
            SELECT t.id FROM todos t JOIN repositories r ON r.id = t.repository_id \(whereClause) ORDER BY t.id DESC LIMIT 1
            """, values) { row throws(StoreError) in try row.int64(0) }.first
    }

    /// A WHERE clause of all of `conditions` ("" for none).
    static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    /// The conditions on `t` (the todo) of a listing, with their values.
    static func listConditions(repositoryIDs: [Int64]?, filter: TodoFilter,
                               details: DetailsFilter) -> (sql: [String], values: [SQLValue]) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let repositoryIDs {
            conditions.append("t.repository_id IN (\(repositoryIDs.map { _ in "?" }.joined(separator: ", ")))")
            values += repositoryIDs.map(SQLValue.integer)
        }
        switch filter {
        case .all: break
        case .open: conditions.append("t.done = 0")
        case .done: conditions.append("t.done = 1")
        }
        conditions += details.conditions.sql
        values += details.conditions.values
        return (conditions, values)
    }
}
