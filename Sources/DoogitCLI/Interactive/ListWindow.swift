import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The part of the list the view has read: the screen and a screen's worth on each side, each
/// line knowing what it stands for. The list is read a window at a time (`ListReader`), so a
/// screen costs what it shows, whatever the number of todos; moves within the window read
/// nothing.
struct ListWindow {
    /// What a line stands for: a section's header or a todo; the cursor is on one.
    enum Item: Hashable, Sendable {
        case header(repositoryID: Int64)
        case todo(id: Int64)
    }

    /// One item as read and drawn: its place in the list's order, its todo, and its lines.
    struct Entry {
        var item: Item
        var place: ListPlace
        var todo: TodoRecord?
        var lines: [String]
        /// A header after another section's lines has a blank line before it.
        var blankBefore = false

        var height: Int { lines.count + (blankBefore ? 1 : 0) }
    }

    struct Line: Equatable {
        /// nil: the blank line between sections.
        var item: Item?
        var text: String
    }

    private(set) var entries: [Entry] = []
    private(set) var lines: [Line] = []
    /// Where each entry's lines start, its blank line included.
    private var blockStarts: [Int] = []
    /// Whether the window holds the list's first item, and its last.
    private(set) var reachesStart = true
    private(set) var reachesEnd = true

    /// The add button at the right end of a header, as the app has one.
    static let addButton = "[+]"

    init() {}

    init(entries: [Entry], reachesStart: Bool, reachesEnd: Bool) {
        self.entries = entries
        self.reachesStart = reachesStart
        self.reachesEnd = reachesEnd
        for entry in entries {
            blockStarts.append(lines.count)
            if entry.blankBefore { lines.append(Line(item: nil, text: "")) }
            lines += entry.lines.map { Line(item: entry.item, text: $0) }
        }
    }

    /// Whether the whole list is empty (not only this window).
    var isEmpty: Bool { entries.isEmpty && reachesStart && reachesEnd }

    var items: [Item] { entries.map(\.item) }

    /// A scan of at most three screens of entries.
    func index(of item: Item) -> Int? {
        entries.firstIndex { $0.item == item }
    }

    /// The first line of the entry at `index`, its blank line included.
    func blockStart(of index: Int) -> Int {
        blockStarts[index]
    }

    /// The lines of the entry at `index`, without its blank line.
    func lines(at index: Int) -> Range<Int> {
        let start = blockStarts[index] + (entries[index].blankBefore ? 1 : 0)
        return start..<(start + entries[index].lines.count)
    }

    func lines(of item: Item) -> Range<Int>? {
        index(of: item).map(lines(at:))
    }

    /// The entry whose lines (its blank line included) hold `line`, and where its block starts.
    func entry(atLine line: Int) -> (index: Int, blockStart: Int)? {
        guard !entries.isEmpty, lines.indices.contains(line) else { return nil }
        var low = 0, high = blockStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if blockStarts[middle] <= line { low = middle } else { high = middle }
        }
        return (low, blockStarts[low])
    }

    /// The entry at `place`, or the first after it; nil when the window cannot tell (the place
    /// is outside what it read). Past the list's end: the last entry.
    func locate(_ place: ListPlace) -> Int? {
        guard let first = entries.first else { return nil }
        if place < first.place { return reachesStart ? 0 : nil }
        if let found = entries.firstIndex(where: { $0.place >= place }) { return found }
        return reachesEnd ? entries.count - 1 : nil
    }

    /// The first todo's entry, else the first entry.
    var firstTodo: Int? {
        entries.firstIndex { $0.todo != nil } ?? (entries.isEmpty ? nil : 0)
    }
}

/// How the view draws a header and a todo.
struct ListDrawing {
    var header: (RepositoryRecord, _ foldedCount: Int?) -> String
    var todo: (TodoRecord) -> [String]

    /// Headers with the add button at the right edge (and, folded, how many todos they hold);
    /// todos as `todo list` draws them, each drawn once for as long as it and the width stay the
    /// same (`cache`).
    static func list(renderer: ListRenderer, width: Int, idWidth: Int, cache: TodoLinesCache) -> ListDrawing {
        var header = renderer
        header.width = max(1, width - DisplayWidth.of(ListWindow.addButton) - 1)
        return ListDrawing(
            header: { repository, foldedCount in
                var title = header.header(repository)
                if let foldedCount { title += header.style.dim("  (\(foldedCount) folded)") }
                let room = width - DisplayWidth.of(ListWindow.addButton)
                let shown = Styled.truncate(title, toWidth: max(0, room - 1))
                return shown + String(repeating: " ", count: max(1, room - Styled.visibleWidth(shown))) + ListWindow.addButton
            },
            todo: { todo in cache.lines(of: todo) { renderer.todoLines(todo, idWidth: idWidth) } })
    }
}

/// Each todo's lines as last drawn, with the record they were drawn from: a todo whose record
/// is the same is not drawn again. Emptied when what every line depends on changes (the width,
/// the day, the width of the IDs), and when it holds 4,096 todos (a wheel's worth of screens).
final class TodoLinesCache {
    private var drawn: [Int64: (todo: TodoRecord, lines: [String])] = [:]
    private var key: (width: Int, idWidth: Int, today: CalendarDate?)?
    private static let capacity = 4096

    /// Keeps what was drawn for the same width, IDs and day; lets go of it otherwise.
    func prepare(width: Int, idWidth: Int, today: CalendarDate?) {
        if let key, key.width == width, key.idWidth == idWidth, key.today == today { return }
        key = (width, idWidth, today)
        drawn = [:]
    }

    func lines(of todo: TodoRecord, draw: () -> [String]) -> [String] {
        if let found = drawn[todo.id], found.todo == todo { return found.lines }
        let lines = draw()
        if drawn.count >= Self.capacity { drawn = [:] }
        drawn[todo.id] = (todo, lines)
        return lines
    }
}
