import DoogitStore

/// Reads the list's entries from a place on, or back from it, until they fill a number of
/// lines: each section's todos from the store's index where they start (`Store.listTodos`), a
/// page of at most as many todos as lines are still wanted. Sections are in memory (a few
/// thousand at most); todos are not.
struct ListReader {
    let store: Store
    let sections: [ListSection]
    /// Whether each section is shown (it has todos, or matches of the filter), beside `sections`.
    let shown: [Bool]
    let folded: Set<Int64>
    /// The filter, lowercased; nil without one.
    let needle: String?
    /// How many todos match the filter in each repository (with a filter).
    let matchCounts: [Int64: Int]
    let drawing: ListDrawing

    /// Where reading starts or stops.
    enum Anchor: Equatable {
        case start
        case place(ListPlace)
        case end
    }

    /// The first shown section (the only one without a blank line before its header), and the last.
    let firstShown: Int?
    let lastShown: Int?

    init(store: Store, sections: [ListSection], shown: [Bool], folded: Set<Int64>, needle: String?,
         matchCounts: [Int64: Int], drawing: ListDrawing) {
        self.store = store
        self.sections = sections
        self.shown = shown
        self.folded = folded
        self.needle = needle
        self.matchCounts = matchCounts
        self.drawing = drawing
        firstShown = shown.firstIndex(of: true)
        lastShown = shown.lastIndex(of: true)
    }

    /// Entries from `anchor` on (the entry at it first, when there is one), until those after
    /// the first fill `wanted` lines or the list ends: the first may be taller than the screen,
    /// and what follows it is read all the same.
    func forward(from anchor: Anchor, lines wanted: Int) throws -> (entries: [ListWindow.Entry], reachedEnd: Bool) {
        var index: Int, withHeader = true, after: ListKey?, inclusive = false
        switch anchor {
        case .start: index = 0
        case .end: return ([], true)
        case .place(let place):
            index = firstSection(atOrAfter: place.section)
            if index < sections.count, sections[index].key == place.section, let key = place.todo {
                withHeader = false
                after = key
                inclusive = true
            }
        }
        var entries: [ListWindow.Entry] = [], filled = 0
        func add(_ entry: ListWindow.Entry) {
            if !entries.isEmpty { filled += entry.height }
            entries.append(entry)
        }
        while index < sections.count {
            defer { index += 1; withHeader = true; after = nil; inclusive = false }
            guard shown[index] else { continue }
            if withHeader {
                add(header(index))
                if filled >= wanted { return (entries, index == lastShown && (folded.contains(sections[index].repository.id) || count(index) == 0)) }
            }
            guard !folded.contains(sections[index].repository.id), count(index) > 0 else { continue }
            while true {
                let limit = max(1, wanted - filled)
                let todos = try store.listTodos(inRepository: sections[index].repository.id, from: after, .forward,
                                                inclusive: inclusive, limit: limit, matching: needle)
                for listed in todos { add(entry(listed, section: index)) }
                if todos.count < limit { break }
                after = todos.last?.key
                inclusive = false
                if filled >= wanted { return (entries, false) }
            }
            if filled >= wanted { return (entries, index == lastShown) }
        }
        return (entries, true)
    }

    /// Entries before `anchor` (not the one at it), nearest last, until they fill `wanted`
    /// lines or the list's start is reached.
    func backward(from anchor: Anchor, lines wanted: Int) throws -> (entries: [ListWindow.Entry], reachedStart: Bool) {
        var index: Int, before: ListKey?, withTodos = true
        switch anchor {
        case .start: return ([], true)
        case .end: index = sections.count - 1
        case .place(let place):
            index = firstSection(atOrAfter: place.section)
            if index < sections.count, sections[index].key == place.section {
                // The header itself is not read: reading starts in the section before it.
                if let key = place.todo { before = key } else { withTodos = false }
            } else {
                index -= 1
            }
        }
        var reversed: [ListWindow.Entry] = [], filled = 0
        while index >= 0 {
            defer { index -= 1; before = nil; withTodos = true }
            guard shown[index] else { continue }
            if withTodos, !folded.contains(sections[index].repository.id), count(index) > 0 {
                while true {
                    let limit = max(1, wanted - filled)
                    let todos = try store.listTodos(inRepository: sections[index].repository.id, from: before, .backward,
                                                    limit: limit, matching: needle)
                    for listed in todos {
                        reversed.append(entry(listed, section: index))
                        filled += reversed[reversed.count - 1].height
                    }
                    if todos.count < limit { break }
                    before = todos.last?.key
                    if filled >= wanted { return (reversed.reversed(), false) }
                }
            }
            guard withTodos else { continue }
            reversed.append(header(index))
            filled += reversed[reversed.count - 1].height
            if filled >= wanted { return (reversed.reversed(), index == firstShown) }
        }
        return (reversed.reversed(), true)
    }

    /// How many todos the section shows when unfolded: its matches with a filter, else all.
    func count(_ index: Int) -> Int {
        needle == nil ? sections[index].count : matchCounts[sections[index].repository.id] ?? 0
    }

    /// The first section whose key is `key` or after it.
    func firstSection(atOrAfter key: SectionKey) -> Int {
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func header(_ index: Int) -> ListWindow.Entry {
        let section = sections[index]
        let foldedCount = folded.contains(section.repository.id) ? count(index) : nil
        return ListWindow.Entry(item: .header(repositoryID: section.repository.id), place: .header(section.key),
                                lines: [drawing.header(section.repository, foldedCount)], blankBefore: index != firstShown)
    }

    private func entry(_ listed: ListedTodo, section index: Int) -> ListWindow.Entry {
        ListWindow.Entry(item: .todo(id: listed.todo.id), place: ListPlace(section: sections[index].key, todo: listed.key),
                         todo: listed.todo, lines: drawing.todo(listed.todo))
    }
}
