import DoogitSupport
import DoogitTerminal

/// The repository screen: your repositories on GitHub with a search field that takes the keys
/// as it opens, the tracked ones marked; Enter (or a click) tracks or stops tracking. Pure: the
/// session reads the listing, tracks (`repo add`) and stops tracking (`repo remove`).
struct RepositoryView {
    struct Entry: Equatable {
        var id: Int64
        var fullName: String
        var description: String?
        var isPrivate: Bool
        /// Nil when GitHub's listing did not say.
        var archived: Bool?
        var tracked: Bool
    }

    enum Request: Equatable {
        case track(Entry)
        /// `confirmed`: the user said yes to dropping its todos.
        case untrack(Entry, confirmed: Bool)
        case back
        case quit
    }

    private(set) var entries: [Entry] = []
    private(set) var matches: [Int] = []
    private(set) var cursor = 0
    private(set) var top = 0
    private(set) var search = LineEditor()
    /// A repository with todos whose untracking waits for a yes.
    var confirming: (entry: Entry, todos: Int)?
    var loading = false
    var message: String?
    private(set) var width: Int
    private(set) var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Rows for repositories: the screen less the search line, the status line and the hints.
    var listHeight: Int { max(1, height - 3) }

    var selected: Entry? {
        matches.indices.contains(cursor) && entries.indices.contains(matches[cursor]) ? entries[matches[cursor]] : nil
    }

    mutating func show(_ entries: [Entry]) {
        let current = selected?.id
        self.entries = entries
        refilter()
        if let current, let index = matches.firstIndex(where: { self.entries[$0].id == current }) { cursor = index }
        keepCursorShown()
    }

    mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        keepCursorShown()
    }

    /// `repo search`'s match: every word in the owner, the name or the description, ignoring case.
    static func matches(_ entry: Entry, words: [Substring]) -> Bool {
        let parts = entry.fullName.lowercased().split(separator: "/", maxSplits: 1)
        let fields = parts.map(String.init) + [(entry.description ?? "").lowercased()]
        return words.allSatisfy { word in fields.contains { $0.contains(word) } }
    }

    private mutating func refilter() {
        let words = search.text.lowercased().split(whereSeparator: \.isWhitespace)
        matches = entries.indices.filter { Self.matches(entries[$0], words: words) }
        cursor = min(cursor, max(0, matches.count - 1))
    }

    mutating func handle(_ event: InputEvent) -> [Request] {
        if let confirming {
            // Only a key answers: the release of the click that asked comes next.
            guard case .key(let key, _) = event else { return [] }
            self.confirming = nil
            if key == .character("y") || key == .character("Y") { return [.untrack(confirming.entry, confirmed: true)] }
            message = "Still tracking \(TerminalText.sanitize(confirming.entry.fullName))"
            return []
        }
        switch event {
        case .key(.down, _), .key(.control("n"), _): move(by: 1)
        case .key(.up, _), .key(.control("p"), _): move(by: -1)
        case .key(.pageDown, _): move(by: listHeight)
        case .key(.pageUp, _): move(by: -listHeight)
        case .key(.enter, _):
            guard let entry = selected else { return [] }
            return [entry.tracked ? .untrack(entry, confirmed: false) : .track(entry)]
        case .key(.escape, _):
            if search.text.isEmpty { return [.back] }
            search = LineEditor()
            refilter()
        case .key(.control("c"), _):
            return [.quit]
        case .mouse(let mouse):
            switch mouse.action {
            case .wheelDown: move(by: 3)
            case .wheelUp: move(by: -3)
            case .press where mouse.button == 0:
                let index = top + mouse.row - 1
                guard mouse.row >= 1, mouse.row <= listHeight, matches.indices.contains(index) else { return [] }
                cursor = index
                if let entry = selected { return [entry.tracked ? .untrack(entry, confirmed: false) : .track(entry)] }
            default: break
            }
        default:
            let before = search.text
            guard search.handle(event) else { return [] }
            if search.text != before {
                cursor = 0
                top = 0
                refilter()
            }
        }
        message = nil
        keepCursorShown()
        return []
    }

    private mutating func move(by offset: Int) {
        cursor = min(max(0, cursor + offset), max(0, matches.count - 1))
        keepCursorShown()
    }

    private mutating func keepCursorShown() {
        if cursor < top { top = cursor }
        if cursor >= top + listHeight { top = cursor - listHeight + 1 }
        top = max(0, min(top, max(0, matches.count - listHeight)))
    }

    /// A repository tracked or not any more, as the store now says.
    mutating func setTracked(_ id: Int64, _ tracked: Bool) {
        for index in entries.indices where entries[index].id == id { entries[index].tracked = tracked }
    }
}
