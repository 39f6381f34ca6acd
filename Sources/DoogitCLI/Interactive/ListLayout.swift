import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The list as the interactive view lays it out: the lines of `todo list` (each section's header,
/// each todo's lines as the list wraps them), each line knowing what it stands for. Laid out when
/// the todos change, not on every key: a move only picks other lines; a change to one section
/// lays out that section again, the others stay.
struct ListLayout {
    /// What a line stands for: a section's header or a todo; the cursor is on one.
    enum Item: Hashable, Sendable {
        case header(repositoryID: Int64)
        case todo(id: Int64)
    }

    struct Line: Equatable {
        /// nil: the blank line between sections.
        var item: Item?
        var text: String
    }

    private(set) var lines: [Line] = []
    /// The items in the order they are shown: what the cursor moves over.
    private(set) var items: [Item] = []
    /// Where each item's lines start and how many it has, beside `items`.
    private var firstLines: [Int] = []
    private var lineCounts: [Int] = []

    /// The add button at the right end of a header, as the app has one.
    static let addButton = "[+]"

    /// How a section is drawn: its header line, and a todo's lines.
    struct Drawing {
        var header: (TodoSection, _ folded: Bool) -> String
        var todo: (TodoRecord) -> [String]
    }

    init() {}

    init(sections: [TodoSection], folded: Set<Int64>, drawing: Drawing) {
        for (index, section) in sections.enumerated() {
            if index > 0 { lines.append(Line(item: nil, text: "")) }
            append(section, folded: folded.contains(section.repository.id), drawing: drawing)
        }
    }

    /// The layout of `sections` (a filter's: some of the todos of some of the sections of
    /// `whole`, in its order), its lines taken from `whole`; only folded sections' headers,
    /// whose counts differ, are drawn.
    init(subsetOf whole: ListLayout, sections: [TodoSection], folded: Set<Int64>, drawing: Drawing) {
        var index = 0
        for (number, section) in sections.enumerated() {
            let header = Item.header(repositoryID: section.repository.id)
            while index < whole.items.count && whole.items[index] != header { index += 1 }
            guard index < whole.items.count else {
                self = ListLayout(sections: sections, folded: folded, drawing: drawing)
                return
            }
            if number > 0 { lines.append(Line(item: nil, text: "")) }
            if folded.contains(section.repository.id) {
                add(header, [drawing.header(section, true)])
                continue
            }
            add(header, whole.lines[whole.lines(at: index)].map(\.text))
            index += 1
            for todo in section.todos {
                let item = Item.todo(id: todo.id)
                while index < whole.items.count && whole.items[index] != item {
                    if case .header = whole.items[index] { break }
                    index += 1
                }
                guard index < whole.items.count, whole.items[index] == item else {
                    add(item, drawing.todo(todo))
                    continue
                }
                add(item, whole.lines[whole.lines(at: index)].map(\.text))
                index += 1
            }
        }
    }

    private mutating func append(_ section: TodoSection, folded: Bool, drawing: Drawing) {
        add(.header(repositoryID: section.repository.id), [drawing.header(section, folded)])
        guard !folded else { return }
        for todo in section.todos { add(.todo(id: todo.id), drawing.todo(todo)) }
    }

    private mutating func add(_ item: Item, _ texts: [String]) {
        items.append(item)
        firstLines.append(lines.count)
        lineCounts.append(texts.count)
        lines += texts.map { Line(item: item, text: $0) }
    }

    /// Lays out one section again in its place (a toggle, an add, an edit): the lines and items
    /// of the others are moved, not drawn.
    mutating func replace(_ section: TodoSection, folded: Bool, drawing: Drawing) -> Bool {
        let header = Item.header(repositoryID: section.repository.id)
        guard let start = index(of: header) else { return false }
        let end = items[(start + 1)...].firstIndex { if case .header = $0 { return true } else { return false } } ?? items.endIndex
        let lineStart = firstLines[start]
        let lineEnd = end < items.endIndex ? firstLines[end] - 1 : lines.endIndex  // the blank line stays
        var fresh = ListLayout()
        fresh.append(section, folded: folded, drawing: drawing)
        lines.replaceSubrange(lineStart..<lineEnd, with: fresh.lines)
        items.replaceSubrange(start..<end, with: fresh.items)
        let shift = fresh.lines.count - (lineEnd - lineStart)
        firstLines.replaceSubrange(start..<end, with: fresh.firstLines.map { $0 + lineStart })
        lineCounts.replaceSubrange(start..<end, with: fresh.lineCounts)
        if shift != 0 {
            for index in (start + fresh.items.count)..<firstLines.count { firstLines[index] += shift }
        }
        return true
    }

    func lines(of item: Item) -> Range<Int>? {
        guard let index = index(of: item) else { return nil }
        return lines(at: index)
    }

    func lines(at index: Int) -> Range<Int> {
        firstLines[index]..<(firstLines[index] + lineCounts[index])
    }

    /// A scan, not a table: one comparison per item costs less than keeping a table of
    /// 100,000 items in step with every change.
    func index(of item: Item) -> Int? {
        items.firstIndex(of: item)
    }

    /// The first todo's item, else the first item.
    var firstTodo: Item? {
        items.first { if case .todo = $0 { return true } else { return false } } ?? items.first
    }
}

extension ListLayout.Drawing {
    /// Headers with the add button at the right edge; todos as `todo list` draws them, each
    /// drawn once for as long as it and the width stay the same (`cache`).
    static func list(renderer: ListRenderer, width: Int, idWidth: Int, cache: TodoLinesCache) -> ListLayout.Drawing {
        var header = renderer
        header.width = max(1, width - DisplayWidth.of(ListLayout.addButton) - 1)
        return ListLayout.Drawing(
            header: { section, folded in
                var title = header.header(section.repository)
                if folded { title += header.style.dim("  (\(section.todos.count) folded)") }
                let room = width - DisplayWidth.of(ListLayout.addButton)
                let shown = Styled.truncate(title, toWidth: max(0, room - 1))
                return shown + String(repeating: " ", count: max(1, room - Styled.visibleWidth(shown))) + ListLayout.addButton
            },
            todo: { todo in cache.lines(of: todo) { renderer.todoLines(todo, idWidth: idWidth) } })
    }
}

/// Each todo's lines as last drawn, with the record they were drawn from: a todo whose record
/// is the same is not drawn again. Emptied when what every line depends on changes (the width,
/// the day, the width of the IDs).
final class TodoLinesCache {
    private var drawn: [Int64: (todo: TodoRecord, lines: [String])] = [:]
    private var key: (width: Int, idWidth: Int, today: CalendarDate?)?

    /// Keeps what was drawn for the same width, IDs and day; true when it had to let go of it.
    @discardableResult
    func prepare(width: Int, idWidth: Int, today: CalendarDate?) -> Bool {
        if let key, key.width == width, key.idWidth == idWidth, key.today == today { return false }
        key = (width, idWidth, today)
        drawn = [:]
        return true
    }

    func lines(of todo: TodoRecord, draw: () -> [String]) -> [String] {
        if let found = drawn[todo.id], found.todo == todo { return found.lines }
        let lines = draw()
        drawn[todo.id] = (todo, lines)
        return lines
    }
}
