import DoogitStore
import DoogitSupport
import DoogitTerminal

/// The list as the interactive view lays it out: the lines of `todo list` (each section's header,
/// each todo's lines as the list wraps them), each line knowing what it stands for. Laid out when
/// the todos change, not on every key: a move only picks other lines.
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
    private var itemIndex: [Item: Int] = [:]
    private var firstLine: [Item: Int] = [:]
    private var lineCount: [Item: Int] = [:]

    /// The add button at the right end of a header, as the app has one.
    static let addButton = "[+]"

    init() {}

    init(sections: [TodoSection], folded: Set<Int64>, renderer: ListRenderer, width: Int) {
        let idWidth = String(sections.lazy.flatMap(\.todos).map(\.id).max() ?? 1).count
        var header = renderer
        header.width = max(1, width - DisplayWidth.of(Self.addButton) - 1)
        for (index, section) in sections.enumerated() {
            if index > 0 { lines.append(Line(item: nil, text: "")) }
            let repositoryID = section.repository.id
            var title = header.header(section.repository)
            if folded.contains(repositoryID) {
                title += header.style.dim("  (\(section.todos.count) folded)")
            }
            append(.header(repositoryID: repositoryID), [Self.withButton(title, width: width)])
            guard !folded.contains(repositoryID) else { continue }
            for todo in section.todos {
                append(.todo(id: todo.id), renderer.todoLines(todo, idWidth: idWidth))
            }
        }
    }

    private mutating func append(_ item: Item, _ texts: [String]) {
        itemIndex[item] = items.count
        firstLine[item] = lines.count
        lineCount[item] = texts.count
        items.append(item)
        lines += texts.map { Line(item: item, text: $0) }
    }

    /// A header with the add button at the right edge (or after it, when the row is narrow).
    private static func withButton(_ title: String, width: Int) -> String {
        let room = width - DisplayWidth.of(addButton)
        let shown = Styled.truncate(title, toWidth: max(0, room - 1))
        let padding = max(1, room - Styled.visibleWidth(shown))
        return shown + String(repeating: " ", count: padding) + addButton
    }

    func lines(of item: Item) -> Range<Int>? {
        guard let first = firstLine[item], let count = lineCount[item] else { return nil }
        return first..<(first + count)
    }

    func index(of item: Item) -> Int? {
        itemIndex[item]
    }

    /// The first todo's item, else the first item.
    var firstTodo: Item? {
        items.first { if case .todo = $0 { return true } else { return false } } ?? items.first
    }
}
