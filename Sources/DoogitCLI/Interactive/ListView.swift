import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The list screen's state and what keys and clicks do to it. It reads the list from the store
/// a window at a time (`ListReader`): the screen and a screen on each side, whatever the number
/// of todos. A change to a todo is asked of the session (`Request`), which makes it through
/// `TodoActions`, as the commands do, and hands the changed todos back (`apply`).
struct ListView {
    let store: Store
    /// The repositories the view was asked for (nil: all).
    let repositoryIDs: [Int64]?
    /// Every section, in list order, with its counts; whether each is shown, beside them.
    private(set) var sections: [ListSection] = [] {
        didSet { sectionIndex = Dictionary(sections.enumerated().map { ($1.repository.id, $0) }, uniquingKeysWith: { first, _ in first }) }
    }
    /// Where each repository's section is in `sections`.
    private var sectionIndex: [Int64: Int] = [:]
    private var shown: [Bool] = []
    private(set) var window = ListWindow()
    private let linesCache = TodoLinesCache()
    /// The largest ID: the list right-aligns IDs to its width.
    private var maximumID: Int64 = 0
    /// With a filter: how many todos of each repository it matches.
    private var matchCounts: [Int64: Int] = [:]
    /// Repositories shown though they have no todos: emptied here, or tracked from the view.
    private var pinned: Set<Int64> = []
    private(set) var openCount = 0
    private(set) var doneCount = 0
    private(set) var shownSections = 0
    private(set) var cursor: ListWindow.Item?
    /// Where the cursor is in the list's order: what it goes to when its item leaves.
    private var cursorPlace: ListPlace?
    /// The first line shown, in the window's lines.
    private(set) var top = 0
    /// Where the screen started when it last showed something: where it comes back to when a
    /// filter that matched nothing is cleared.
    private var lastTop: (anchor: ListReader.Anchor, row: Int) = (.start, 0)
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

    init(store: Store, repositoryIDs: [Int64]? = nil, renderer: ListRenderer, width: Int, height: Int) {
        self.store = store
        self.repositoryIDs = repositoryIDs
        self.renderer = renderer
        self.width = width
        self.height = height
    }

    /// Lines for the list: the screen less the status line and the line of hints or the prompt.
    var listHeight: Int { max(1, height - 2) }

    /// How much the window reads beyond the screen on each side, so that a move or a page
    /// reads nothing.
    private var margin: Int { listHeight }

    private var needle: String? { filter.isEmpty ? nil : filter.lowercased() }

    // MARK: What comes in

    /// Reads the sections, their counts and the window again, the cursor kept on its todo (or
    /// on the one now in its place): another process changed the database, or a day began.
    mutating func reload() throws {
        // Ordered by the key the window is read by (SQLite's order and Swift's could differ on a
        // name that is not ASCII).
        sections = try store.repositorySummaries(repositoryIDs: repositoryIDs).map(ListSection.init).sorted { $0.key < $1.key }
        maximumID = try store.largestTodoID()
        if let needle { matchCounts = try store.matchCounts(needle, repositoryIDs: repositoryIDs) }
        if case .todo(let id)? = cursor, let todo = try store.todoIfAny(id: id), let place = place(of: todo) {
            cursorPlace = place
        }
        try refresh()
    }

    /// The section named as it is now: a sync may have renamed the repository since the place
    /// was taken, which moves its section.
    private func current(_ place: ListPlace) -> ListPlace {
        guard let index = sectionIndex[place.section.id] else { return place }
        return ListPlace(section: sections[index].key, todo: place.todo)
    }

    func section(_ repositoryID: Int64) -> ListSection? {
        sectionIndex[repositoryID].map { sections[$0] }
    }

    /// Todos that a change made here left as `changed` (added, edited, toggled, restored) or
    /// took away (`removed`): their sections' counts are read again, and the window; the
    /// cursor on `item` when given, else kept on its todo.
    mutating func apply(changed: [TodoRecord], removed: [TodoRecord] = [], cursorOn item: ListWindow.Item? = nil) throws {
        let touched = Array(Set((changed + removed).map(\.repositoryID))).sorted()
        for summary in try store.repositorySummaries(repositoryIDs: touched) {
            guard let index = sectionIndex[summary.repository.id] else { continue }
            // A section emptied here stays, to add to.
            if sections[index].count > 0 && summary.open + summary.done == 0 { pinned.insert(summary.repository.id) }
            sections[index] = ListSection(summary)
        }
        if let needle {
            let counts = try store.matchCounts(needle, repositoryIDs: touched)
            for id in touched { matchCounts[id] = counts[id] }
        }
        maximumID = try store.largestTodoID()
        let cursorID: Int64? = if case .todo(let id)? = item ?? cursor { id } else { nil }
        if let todo = changed.first(where: { $0.id == cursorID }), let place = place(of: todo) {
            cursor = .todo(id: todo.id)
            cursorPlace = place
        }
        try refresh()
    }

    /// Shows the repository though it has no todos (one just tracked from the view), from the
    /// next `reload`.
    mutating func pin(_ repositoryID: Int64) {
        pinned.insert(repositoryID)
    }

    mutating func resize(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        try refresh()
    }

    /// Filters as `--grep` does, in the store: the sections with a match are counted in one
    /// query, and only the window's todos are read.
    mutating func setFilter(_ text: String) throws {
        guard text != filter else { return }
        let previous = needle
        filter = text
        if let needle, let previous, needle.contains(previous) {
            // A letter more: only the repositories that matched before can match now. Their
            // todos are read by repository, unless they are most of the list: then one pass over
            // every todo costs less than reading theirs row by row.
            let candidates = matchCounts.filter { $0.value > 0 }.map(\.key).sorted()
            let candidateTodos = candidates.reduce(0) { $0 + (section($1)?.count ?? 0) }
            if candidates.isEmpty {
                matchCounts = [:]
            } else if candidateTodos * 2 > openCount + doneCount {
                let before = matchCounts
                matchCounts = try store.matchCounts(needle, repositoryIDs: repositoryIDs).filter { before[$0.key, default: 0] > 0 }
            } else {
                matchCounts = try store.matchCounts(needle, repositoryIDs: candidates)
            }
        } else {
            matchCounts = try needle.map { try store.matchCounts($0, repositoryIDs: repositoryIDs) } ?? [:]
        }
        let before = cursor
        try refresh()
        // The cursor's todo filtered out: onto the first match after it, not the header before that.
        if case .todo? = before, case .header? = cursor, let index = cursorIndex, index + 1 < window.entries.count,
           window.entries[index + 1].todo != nil {
            setCursor(index + 1)
            try scrollToCursor()
        }
    }

    /// The todo as the window or the store has it now.
    func todo(_ id: Int64) -> TodoRecord? {
        if let index = window.index(of: .todo(id: id)), let todo = window.entries[index].todo { return todo }
        return try? store.todoIfAny(id: id)
    }

    var cursorTodo: TodoRecord? {
        cursorIndex.flatMap { window.entries[$0].todo }
    }

    /// The repository of the item under the cursor: where `a` adds.
    var cursorRepositoryID: Int64? {
        switch cursor {
        case .header(let id)?: return id
        case .todo?: return cursorTodo?.repositoryID ?? cursorPlace?.section.id
        case nil: return nil
        }
    }

    // MARK: Reading the window

    private var cursorIndex: Int? { cursor.flatMap(window.index(of:)) }

    private func place(of todo: TodoRecord) -> ListPlace? {
        guard let section = section(todo.repositoryID) else { return nil }
        return ListPlace(section: section.key, todo: ListKey(todo))
    }

    /// Which sections are shown and what the status line counts. A section is shown when it
    /// has todos (matches, with a filter), when it is pinned, and, while no repository has a
    /// todo, every one is: there is somewhere to add the first.
    private mutating func recount() {
        openCount = sections.reduce(0) { $0 + $1.open }
        doneCount = sections.reduce(0) { $0 + $1.done }
        let anyTodo = openCount + doneCount > 0
        shown = sections.map { section in
            if needle != nil { return matchCounts[section.repository.id, default: 0] > 0 }
            return section.count > 0 || !anyTodo || pinned.contains(section.repository.id)
        }
        shownSections = shown.lazy.filter { $0 }.count
    }

    private func reader() -> ListReader {
        var renderer = self.renderer
        renderer.width = width
        renderer.wholeURLs = false
        let idWidth = String(max(1, maximumID)).count
        linesCache.prepare(width: width, idWidth: idWidth, today: renderer.today)
        return ListReader(store: store, sections: sections, shown: shown, folded: folded, needle: needle, matchCounts: matchCounts,
                          drawing: .list(renderer: renderer, width: width, idWidth: idWidth, cache: linesCache))
    }

    /// Reads the window so that `anchor`'s entry (or the one after its place) starts `row`
    /// lines down the screen (above it when negative), with a margin on each side; at the
    /// list's end the screen is filled from above.
    private mutating func rebuild(from anchor: ListReader.Anchor, row: Int) throws {
        let reader = reader()
        let below = listHeight - row
        let (after, reachedEnd) = try reader.forward(from: anchor, lines: max(1, below + margin))
        let afterLines = after.reduce(0) { $0 + $1.height }
        var wanted = max(0, row) + margin
        if reachedEnd && afterLines < below { wanted += below - afterLines }
        let (before, reachedStart) = try reader.backward(from: after.first.map { .place($0.place) } ?? anchor, lines: wanted)
        window = ListWindow(entries: before + after, reachesStart: reachedStart, reachesEnd: reachedEnd)
        top = before.reduce(0) { $0 + $1.height } - row
        clampTop()
    }

    private mutating func clampTop() {
        let last = window.reachesEnd ? window.lines.count - listHeight : window.lines.count - 1
        top = min(max(0, top), max(0, last))
    }

    /// The entry at the top of the screen and how far down the screen it starts (above it when
    /// negative): where the window is read again from.
    private func topAnchor() -> (anchor: ListReader.Anchor, row: Int) {
        guard let (index, blockStart) = window.entry(atLine: top) else {
            // Nothing shown (no todo matched the filter): where the screen last showed something.
            if case .place(let place) = lastTop.anchor { return (.place(current(place)), lastTop.row) }
            return lastTop
        }
        return (.place(current(window.entries[index].place)), blockStart - top)
    }

    /// Reads the window again where the screen is: the sections, the filter or the todos changed.
    private mutating func refresh() throws {
        let cursorRow = cursorIndex.map { window.lines(at: $0).lowerBound - top }
        let (anchor, row) = topAnchor()
        if !window.entries.isEmpty { lastTop = (anchor, row) }
        recount()
        try rebuild(from: anchor, row: row)
        try settleCursor(row: cursorRow)
    }

    /// The cursor on its place (or on what now follows it), read around it, at `row`, when the
    /// window does not hold it; on the first todo when it has no place yet.
    private mutating func settleCursor(row: Int?) throws {
        guard var target = cursorPlace.map(current) else {
            if let first = window.firstTodo { setCursor(first) }
            return try scrollToCursor()
        }
        // A todo of a folded section is under its header.
        if target.todo != nil, folded.contains(target.section.id) { target = .header(target.section) }
        if window.locate(target) == nil {
            try rebuild(from: .place(target), row: min(max(0, row ?? 0), listHeight - 1))
        }
        if let index = window.locate(target) {
            setCursor(index)
        } else {
            // Nothing to stand on (nothing matches the filter): the place is kept to come back to.
            cursor = nil
        }
        try scrollToCursor()
    }

    private mutating func setCursor(_ index: Int) {
        cursor = window.entries[index].item
        cursorPlace = window.entries[index].place
    }

    /// Reads more of the list when the screen comes within a margin of the window's edge.
    private mutating func keepMargin() throws {
        clampTop()
        // Short of lines beyond the screen, or of an entry beyond those on it (a todo taller
        // than the margin at the window's edge).
        let first = window.entry(atLine: top)?.index
        let last = window.entry(atLine: min(top + listHeight, window.lines.count) - 1)?.index
        let short = (!window.reachesStart && (top < margin || first == 0))
            || (!window.reachesEnd && (top + listHeight + margin > window.lines.count || last == window.entries.count - 1))
        guard short else { return }
        let (anchor, row) = topAnchor()
        try rebuild(from: anchor, row: row)
    }

    /// The cursor read back into the window when the wheel took the screen far from it.
    private mutating func bringCursorIntoWindow() throws {
        guard cursorIndex == nil, let target = cursorPlace.map(current) else { return }
        let above = window.entries.first.map { target < $0.place } ?? true
        try rebuild(from: .place(target), row: above ? 0 : listHeight - 1)
        if let index = window.locate(target) { setCursor(index) }
    }

    // MARK: Moving

    mutating func move(by offset: Int) throws {
        try bringCursorIntoWindow()
        guard var index = cursorIndex else { return try moveToStart() }
        let beyond = index + offset >= window.entries.count ? !window.reachesEnd : index + offset < 0 && !window.reachesStart
        if beyond {
            // Read around the cursor: the entry it goes to is past the window's edge.
            try rebuild(from: .place(window.entries[index].place), row: window.blockStart(of: index) - top)
            guard let again = cursorIndex else { return }
            index = again
        }
        setCursor(min(max(0, index + offset), window.entries.count - 1))
        try scrollToCursor()
    }

    mutating func page(by pages: Int) throws {
        try bringCursorIntoWindow()
        guard let current = cursorIndex.map({ window.lines(at: $0).lowerBound }) else { return }
        let step = pages * max(1, listHeight - 1)
        let lines = window.lines
        let target = min(max(0, current + step), max(0, lines.count - 1))
        top += step
        clampTop()
        var index = target
        while index >= 0, index < lines.count, lines[index].item == nil { index += pages > 0 ? 1 : -1 }
        if lines.indices.contains(index), let item = lines[index].item, var entry = window.index(of: item) {
            // Still within the cursor's todo (one taller than a page): on to the next one.
            if item == cursor { entry = min(max(0, entry + (pages > 0 ? 1 : -1)), window.entries.count - 1) }
            setCursor(entry)
        }
        try scrollToCursor()
    }

    /// `g`: the first item.
    mutating func moveToStart() throws {
        try rebuild(from: .start, row: 0)
        if !window.entries.isEmpty { setCursor(0) }
        try scrollToCursor()
    }

    /// `G`: the last item.
    mutating func moveToEnd() throws {
        try rebuild(from: .end, row: listHeight)
        if !window.entries.isEmpty { setCursor(window.entries.count - 1) }
        try scrollToCursor()
    }

    /// Tab: the next section's header; Shift-Tab: the header of the cursor's section, or from
    /// a header, the one before.
    mutating func moveToSection(forward: Bool) throws {
        guard let place = cursorPlace.map(current) else { return try moveToStart() }
        let reader = reader()
        let current = reader.firstSection(atOrAfter: place.section)
        let target: Int?
        if forward {
            target = shown.indices.first { $0 > current && shown[$0] }
        } else if place.todo != nil, current < sections.count, sections[current].key == place.section {
            target = current
        } else {
            target = shown.indices.last { $0 < current && shown[$0] }
        }
        guard let target else {
            // None there: the cursor stays, shown (the wheel may have taken the screen from it).
            try bringCursorIntoWindow()
            return try scrollToCursor()
        }
        try moveTo(.header(sections[target].key), forward: forward)
    }

    /// The cursor on `place`, read around it when the window does not hold it.
    private mutating func moveTo(_ place: ListPlace, forward: Bool) throws {
        if let index = window.locate(place), window.entries[index].place == place {
            setCursor(index)
            return try scrollToCursor()
        }
        try rebuild(from: .place(place), row: forward ? listHeight - 1 : 0)
        if let index = window.locate(place) { setCursor(index) }
        try scrollToCursor()
    }

    /// The cursor on an item of the window (a click).
    mutating func moveTo(_ item: ListWindow.Item) throws {
        guard let index = window.index(of: item) else { return }
        setCursor(index)
        try scrollToCursor()
    }

    mutating func scroll(by lines: Int) throws {
        top += lines
        try keepMargin()
    }

    /// Scrolls as little as it takes to show every line of the cursor's item.
    private mutating func scrollToCursor() throws {
        clampTop()
        if let index = cursorIndex {
            let lines = window.lines(at: index)
            if lines.lowerBound < top { top = lines.lowerBound }
            if lines.upperBound > top + listHeight { top = min(lines.lowerBound, lines.upperBound - listHeight) }
            top = max(0, top)
        }
        try keepMargin()
    }

    mutating func toggleFold(_ repositoryID: Int64) throws {
        if folded.remove(repositoryID) == nil { folded.insert(repositoryID) }
        if case .todo? = cursor, let place = cursorPlace, place.section.id == repositoryID, folded.contains(repositoryID) {
            cursor = .header(repositoryID: repositoryID)
            cursorPlace = .header(place.section)
        }
        try refresh()
    }
}
