import DoogitSupport

/// The words of a todo's text that are its details, as `todo add` reads them and as the board's
/// lines carry them: `+tag` a tag, `due:WHEN` the due date, `pri:X` (or `priority:X`) the
/// priority; every other word is text. One reader for every front end: the commands, the view
/// and the board read a line alike.
public struct Shorthand: Sendable {
    /// What a word of the shorthand cannot be.
    public enum Problem: Error, Equatable, Sendable {
        /// `due:WHEN` whose WHEN names no date.
        case notADate(word: String)
        /// A date outside the years a todo can be due in (`CalendarDate.dueYears`).
        case notADueDate(word: String)
        case notAPriority(word: String)
        case notATag(word: String)
    }

    public var text: [String] = []
    public var tags: [String] = []
    /// Each word that sets the due date or the priority, with what it sets: a front end names
    /// two that disagree.
    public var dueWords: [(word: String, value: CalendarDate)] = []
    public var priorityWords: [(word: String, value: Priority)] = []

    public init() {}

    /// Whether `todo add` reads the word as a field (`+tag`, `due:WHEN`, `pri:X`), right or wrong.
    public static func isField(_ word: String) -> Bool {
        let lower = word.lowercased()
        if word.contains(where: \.isWhitespace) { return false }
        if word.hasPrefix("+") { return word.count > 1 && !word.dropFirst().allSatisfy(\.isNumber) }
        return ["due:", "pri:", "priority:"].contains { lower.hasPrefix($0) && word.count > $0.count }
    }

    /// The words read; `today` is what relative dates (`due:fri`, `due:+3d`) count from.
    public static func read(_ words: [String], today: CalendarDate) throws(Problem) -> Shorthand {
        var found = Shorthand()
        for word in words {
            let lower = word.lowercased()
            // A quoted argument with spaces in it is text, whatever it starts with.
            if word.contains(where: \.isWhitespace) {
                found.text.append(word)
            } else if word.hasPrefix("+"), word.count > 1, !word.dropFirst().allSatisfy(\.isNumber) {
                let tag = String(word.dropFirst())
                guard TagSet.isValid(tag) else { throw .notATag(word: tag) }
                found.tags.append(tag)
            } else if lower.hasPrefix("due:"), word.count > 4 {
                found.dueWords.append((word, try due(String(word.dropFirst(4)))))
            } else if let key = ["pri:", "priority:"].first(where: { lower.hasPrefix($0) && word.count > $0.count }) {
                let text = String(word.dropFirst(key.count))
                guard let priority = Priority(text: text) else { throw .notAPriority(word: text) }
                found.priorityWords.append((word, priority))
            } else {
                found.text.append(word)
            }
        }
        return found

        func due(_ when: String) throws(Problem) -> CalendarDate {
            guard let date = date(when, today: today) else { throw .notADate(word: when) }
            guard date.isDueDate else { throw .notADueDate(word: when) }
            return date
        }
    }

    /// The date WHEN names, seen from `today`: `YYYY-MM-DD`, `today`, `tomorrow`, a weekday or
    /// its first three letters (its next one after today), `+Nd`, `+Nw`; nil when it names none.
    public static func date(_ when: String, today: CalendarDate) -> CalendarDate? {
        let word = when.lowercased()
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let date = CalendarDate(text: word) { return date }
        if word.hasPrefix("+"), word.count >= 3, let unit = word.last, let count = Int(word.dropFirst().dropLast()),
           (0...3650).contains(count) {
            switch unit {
            case "d": return today.adding(days: count)
            case "w": return today.adding(days: count * 7)
            default: return nil
            }
        }
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        guard let weekday = names.firstIndex(where: { $0 == word || (word.count == 3 && $0.hasPrefix(word)) }) else { return nil }
        let ahead = (weekday - today.weekday + 7) % 7
        return today.adding(days: ahead == 0 ? 7 : ahead)
    }
}
