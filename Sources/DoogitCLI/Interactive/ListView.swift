import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The list screen's state and what keys and clicks do to it. Pure: a change to a todo is asked
/// of the session (`Request`), which makes it through `TodoActions`, as the commands do, and
/// hands the list back (`show`).
struct ListView {
    /// Every section as the store gave it, and those the filter leaves (all, without one).
    private var allSections: [TodoSection] = []
    private(set) var sections: [TodoSection] = []
    private(set) var layout = ListLayout()
    private let linesCache = TodoLinesCache()
    /// The texts folded for the filter, made when a filter first needs them after a change.
    private var filterIndex: FilterIndex?
    /// The largest ID: the list right-aligns IDs to its width.
    private var maximumID: Int64 = 0
    /// The whole list's layout while a filter is on, to show again at once when it is cleared.
    private var unfiltered: ListLayout?
    /// Counted when the todos come, not on every frame.
    private(set) var openCount = 0
    private(set) var doneCount = 0
    private(set) var cursor: ListLayout.Item?
    /// The first line shown.
    private(set) var top = 0
    private(set) var folded: Set<Int64> = []
    private(set) var filter = ""
    var prompt: Prompt?
    /// The prompt whose line was sent last (see `reopenPrompt`).
    var submitted: Prompt?
    var showsHelp = false
    /// One line for the status line: what the last action did, or why it failed.
    var message: String?
    var syncing = false
    var lastSync: String?

    var renderer: ListRenderer
    private(set) var width: Int
    private(set) var height: Int

    init(renderer: ListRenderer, width: Int, height: Int) {
        self.renderer = renderer
        self.width = width
        self.height = height
    }

    /// Lines for the list: the screen less the status line and the line of hints or the prompt.
    var listHeight: Int { max(1, height - 2) }

    // MARK: What comes in

    /// The todos as the store has them now (every section, unfiltered), the cursor on `item`
    /// when given, else kept on the same todo (or the one now in its place, when it is gone).
    mutating func show(_ sections: [TodoSection], cursorOn item: ListLayout.Item? = nil) {
        allSections = sections
        filterIndex = nil
        count()
        maximumID = sections.lazy.flatMap(\.todos).map(\.id).max() ?? 0
        refilter()
        let previous = cursorIndex
        relayout()
        settleCursor(on: item, previous: previous)
    }

    /// Todos that a change made here left as `changed` (added, edited, toggled, restored) or
    /// took away (`removed`): only their sections are filtered, put in order and laid out again.
    mutating func apply(changed: [TodoRecord], removed: [TodoRecord] = [], cursorOn item: ListLayout.Item? = nil) {
        filterIndex = nil
        let ids = Set((changed + removed).map(\.id))
        let touched = Set((changed + removed).map(\.repositoryID))
        for index in allSections.indices where touched.contains(allSections[index].repository.id) {
            let repositoryID = allSections[index].repository.id
            allSections[index].todos.removeAll { ids.contains($0.id) }
            allSections[index].todos += changed.filter { $0.repositoryID == repositoryID }
            Store.listOrder(&allSections[index].todos)
        }
        count()
        maximumID = max(maximumID, changed.map(\.id).max() ?? 0)
        if removed.contains(where: { $0.id == maximumID }) {
            maximumID = allSections.lazy.flatMap(\.todos).map(\.id).max() ?? 0
        }
        let shownBefore = sections.map(\.repository.id)
        refilter(only: touched)
        let previous = cursorIndex
        relayout(only: sections.map(\.repository.id) == shownBefore ? touched : nil)
        settleCursor(on: item, previous: previous)
    }

    /// Where the cursor is before the list is laid out again, for `settleCursor`.
    private var cursorIndex: Int? { cursor.flatMap { layout.index(of: $0) } }

    /// After the list was laid out again: the cursor on `item` when given, else kept on its
    /// todo, else on the item now where it was (`previous`).
    private mutating func settleCursor(on item: ListLayout.Item?, previous: Int?) {
        if let item, layout.index(of: item) != nil {
            cursor = item
        } else if let cursor, layout.index(of: cursor) != nil {
            // Still there.
        } else if let previous, !layout.items.isEmpty {
            cursor = layout.items[min(previous, layout.items.count - 1)]
        } else {
            cursor = layout.firstTodo
        }
        scrollToCursor()
    }

    mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        relayout()
        scrollToCursor()
    }

    /// The sections the filter leaves, as `--grep` would: without a filter every section, with
    /// one only those with a match. `only`: the repositories whose todos changed, the others as
    /// they were; `narrowing`: the filter only grew, so only what it left before is looked at.
    private mutating func refilter(only touched: Set<Int64>? = nil, narrowing: Bool = false) {
        guard !filter.isEmpty else {
            sections = allSections
            return
        }
        let needle = filter.lowercased()
        if touched == nil && !narrowing {
            if filterIndex == nil { filterIndex = FilterIndex(allSections) }
            let found = filterIndex?.matches(needle, in: allSections) ?? []
            sections = zip(allSections, found).compactMap { section, indexes in
                indexes.isEmpty ? nil : TodoSection(repository: section.repository, todos: indexes.map { section.todos[$0] })
            }
            return
        }
        let kept = Dictionary(uniqueKeysWithValues: sections.map { ($0.repository.id, $0) })
        sections = allSections.compactMap { section in
            let id = section.repository.id
            if let touched, !touched.contains(id) { return kept[id] }
            if narrowing, kept[id] == nil { return nil }
            let todos = (narrowing ? kept[id]?.todos ?? [] : section.todos).filter { $0.matches(needle) }
            return todos.isEmpty ? nil : TodoSection(repository: section.repository, todos: todos)
        }
    }

    /// How the list is drawn now, and whether that changed every todo's lines (the IDs grew a
    /// digit, the width or the day changed).
    private func drawing() -> (drawing: ListLayout.Drawing, idWidthChanged: Bool) {
        var renderer = self.renderer
        renderer.width = width
        let idWidth = String(max(1, maximumID)).count
        let changed = linesCache.prepare(width: width, idWidth: idWidth, today: renderer.today)
        return (.list(renderer: renderer, width: width, idWidth: idWidth, cache: linesCache), changed)
    }

    /// Lays the list out again: only the sections of `only` when given (and nothing else
    /// changed every todo's lines), else all of it.
    private mutating func relayout(only repositories: Set<Int64>? = nil) {
        unfiltered = nil
        let (drawing, everyLineChanged) = self.drawing()
        if let repositories, !everyLineChanged {
            for section in sections where repositories.contains(section.repository.id) {
                if !layout.replace(section, folded: folded.contains(section.repository.id), drawing: drawing) { return relayout() }
            }
            return
        }
        layout = ListLayout(sections: sections, folded: folded, drawing: drawing)
    }

    /// Counts what the store gave (a filter does not change them).
    private mutating func count() {
        doneCount = allSections.reduce(0) { $0 + $1.todos.lazy.filter(\.done).count }
        openCount = allSections.reduce(0) { $0 + $1.todos.count } - doneCount
    }

    /// The todo as the store last gave it, shown or not (a filter may hide it).
    func todo(_ id: Int64) -> TodoRecord? {
        for section in allSections {
            if let todo = section.todos.first(where: { $0.id == id }) { return todo }
        }
        return nil
    }

    var cursorTodo: TodoRecord? {
        guard case .todo(let id)? = cursor else { return nil }
        return todo(id)
    }

    /// The repository of the item under the cursor: where `a` adds.
    var cursorRepositoryID: Int64? {
        switch cursor {
        case .header(let id)?: return id
        case .todo(let id)?: return todo(id)?.repositoryID
        case nil: return nil
        }
    }

    /// Filters as `--grep` does, in the todos at hand: a letter more looks only at what the
    /// filter left.
    mutating func setFilter(_ text: String) -> [Request] {
        guard text != filter else { return [] }
        let narrowing = !filter.isEmpty && text.lowercased().contains(filter.lowercased())
        let whole = filter.isEmpty ? layout : unfiltered
        filter = text
        refilter(narrowing: narrowing)
        let previous = cursorIndex
        if filter.isEmpty, let whole {
            layout = whole
            unfiltered = nil
        } else if let whole, case (let drawing, false) = drawing() {
            // The matches' lines are the whole list's: taken from it, not drawn again.
            layout = ListLayout(subsetOf: whole, sections: sections, folded: folded, drawing: drawing)
            unfiltered = whole
        } else {
            relayout()
            unfiltered = whole
        }
        settleCursor(on: nil, previous: previous)
        return []
    }

    // MARK: Moving

    mutating func move(by offset: Int) {
        guard let current = cursor.flatMap({ layout.index(of: $0) }) else { return moveTo(layout.firstTodo) }
        let next = min(max(0, current + offset), layout.items.count - 1)
        if layout.items.indices.contains(next) { moveTo(layout.items[next]) }
    }

    mutating func page(by pages: Int) {
        guard let current = cursor.flatMap({ layout.lines(of: $0) })?.lowerBound else { return }
        let target = min(max(0, current + pages * max(1, listHeight - 1)), max(0, layout.lines.count - 1))
        top = min(max(0, top + pages * max(1, listHeight - 1)), max(0, layout.lines.count - listHeight))
        let lines = layout.lines
        var index = target
        while index >= 0, index < lines.count, lines[index].item == nil { index += pages > 0 ? 1 : -1 }
        if lines.indices.contains(index) { cursor = lines[index].item }
        scrollToCursor()
    }

    mutating func moveToSection(forward: Bool) {
        guard let current = cursor.flatMap({ layout.index(of: $0) }) else { return moveTo(layout.items.first) }
        let headers = layout.items.indices.filter { if case .header = layout.items[$0] { return true } else { return false } }
        let target = forward ? headers.first { $0 > current } : headers.last { $0 < current }
        if let target { moveTo(layout.items[target]) }
    }

    mutating func moveTo(_ item: ListLayout.Item?) {
        guard let item else { return }
        cursor = item
        scrollToCursor()
    }

    mutating func scroll(by lines: Int) {
        top = min(max(0, top + lines), max(0, layout.lines.count - listHeight))
    }

    /// Scrolls as little as it takes to show every line of the cursor's item.
    private mutating func scrollToCursor() {
        top = min(top, max(0, layout.lines.count - listHeight))
        guard let lines = cursor.flatMap({ layout.lines(of: $0) }) else { return }
        if lines.lowerBound < top { top = lines.lowerBound }
        if lines.upperBound > top + listHeight { top = min(lines.lowerBound, lines.upperBound - listHeight) }
        top = max(0, top)
    }

    mutating func toggleFold(_ repositoryID: Int64) {
        if folded.remove(repositoryID) == nil { folded.insert(repositoryID) }
        if case .todo(let id)? = cursor, todo(id)?.repositoryID == repositoryID, folded.contains(repositoryID) {
            cursor = .header(repositoryID: repositoryID)
        }
        relayout(only: [repositoryID])
        scrollToCursor()
    }
}
