import DoogitMerge
import DoogitStore
import DoogitSupport

/// A todo as a line of the board: `- [ ] TEXT due:… pri:… +tag <!-- 3f2a9c1b o 9f3c21 -->`.
/// The content after the checkbox is what `todo add` reads (the text, then its details in the
/// shorthand), a linked todo's issue number first as a code span (`` `#12` ``), which makes no
/// cross-reference; doogit's note at the end names the todo by its UUID's 8 leading digits,
/// and its state and content as written (so that what a person changed is told apart from
/// what doogit wrote since).
struct BoardItem: Equatable {
    var prefix: String
    var done: Bool
    var content: String
    /// What a person wrote on the line, when it cannot be read, and the hash doogit's note held:
    /// written back as they left it (with the todo's state now), still reading as theirs.
    var verbatim: (content: String, fingerprint: String)?

    init(prefix: String, done: Bool, content: String) {
        self.prefix = prefix
        self.done = done
        self.content = content
    }

    init(_ todo: TodoRecord) {
        self.init(prefix: String(todo.uuid.prefix(8)), done: todo.done, content: BoardLine.content(of: todo))
    }

    var line: String {
        let (shown, fingerprint) = verbatim ?? (content, BoardMarkdown.fingerprint(content))
        return "- [\(done ? "x" : " ")] \(shown) <!-- \(prefix) \(done ? "d" : "o") \(fingerprint) -->"
    }

    static func == (lhs: BoardItem, rhs: BoardItem) -> Bool { lhs.line == rhs.line }
}

/// What a line's content says of a todo.
struct BoardFields: Equatable {
    var text: String
    var due: CalendarDate?
    var priority: Priority?
    var tags: [String]
}

enum BoardLine {
    /// The content of a todo's line.
    static func content(of todo: TodoRecord) -> String {
        var words: [String] = []
        if let issue = todo.issue { words.append("`#\(issue.number)`") }
        words += todo.text.split(separator: " ", omittingEmptySubsequences: true).map { textWord(String($0)) }
        if let due = todo.due { words.append("due:" + due.text) }
        if let priority = todo.priority { words.append("pri:" + priority.rawValue) }
        // A tag of digits alone has no shorthand (`+2024` is text): shown nowhere here, kept as it is.
        words += todo.tags.filter { Shorthand.isField("+" + $0) }.map { "+" + BoardMarkdown.escape($0) }
        return words.joined(separator: " ")
    }

    /// A word of a todo's text, escaped for Markdown, and so that it never reads as a field.
    private static func textWord(_ word: String) -> String {
        let escaped = BoardMarkdown.escape(word)
        guard Shorthand.isField(word) else { return escaped }
        return word.hasPrefix("+") ? "\\" + escaped : escaped.replacingFirstColon()
    }

    /// What a line's content says: its text (the issue's code span left out) and its details,
    /// read as `todo add` reads them, the words of the text in their order; `today` is what
    /// relative dates count from.
    static func fields(of content: String, today: CalendarDate) throws(BoardLineProblem) -> BoardFields {
        var words = content.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if let first = words.first, first.hasPrefix("`#"), first.hasSuffix("`"), first.count > 3,
           first.dropFirst(2).dropLast().allSatisfy(\.isNumber) {
            words.removeFirst()
        }
        var text: [String] = [], fieldWords: [String] = []
        for word in words {
            let plain = BoardMarkdown.unescape(word)
            // An escaped `+` or `:` is text doogit wrote so; anything else reads as `todo add` reads it.
            if !(word.hasPrefix("\\+") || word.contains("\\:")) && Shorthand.isField(plain) {
                fieldWords.append(plain)
            } else {
                text.append(plain)
            }
        }
        let read: Shorthand
        do { read = try Shorthand.read(fieldWords, today: today) } catch { throw .unreadable(error) }
        let dues = Set(read.dueWords.map(\.value)), priorities = Set(read.priorityWords.map(\.value))
        guard dues.count <= 1, priorities.count <= 1 else { throw .twoValues }
        guard let cleaned = TodoText.cleaned(text.joined(separator: " ")) else { throw .noText }
        return BoardFields(text: cleaned, due: dues.first, priority: priorities.first, tags: read.tags)
    }
}

/// Why a line's content cannot be read as a todo: it stays as written, and is reported.
enum BoardLineProblem: Error, Equatable {
    case unreadable(Shorthand.Problem)
    case twoValues
    case noText
}

private extension String {
    func replacingFirstColon() -> String {
        guard let colon = firstIndex(of: ":") else { return self }
        return String(self[..<colon]) + "\\" + String(self[colon...])
    }
}
