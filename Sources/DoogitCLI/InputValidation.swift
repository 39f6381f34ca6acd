import DoogitSupport

/// Checks of argument forms shared by several commands; each failure is a usage error.
enum InputValidation {
    static let maximumTextLength = 10_000

    /// Todo IDs: positive whole numbers. Duplicates are dropped, order kept.
    static func todoIDs(_ arguments: [String], topic: [String]) throws(UsageError) -> [Int64] {
        var ids: [Int64] = []
        for argument in arguments {
            guard let id = Int64(argument), id > 0, argument.first != "+" else {
                throw UsageError(message: "'\(TerminalText.sanitize(argument))' is not a todo ID; IDs are positive whole numbers as shown by 'doogit todo list'",
                                 topic: topic)
            }
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    /// The words of a todo joined with spaces; control characters become spaces or go; an
    /// empty or blank result is refused.
    static func todoText(_ words: [String], topic: [String]) throws(UsageError) -> String {
        let text = TerminalText.sanitize(words.joined(separator: " ")).trimmingSpaces
        guard !text.isEmpty else {
            throw UsageError(message: "the todo text is empty", topic: topic)
        }
        guard text.count <= maximumTextLength else {
            throw UsageError(message: "the todo text is longer than \(maximumTextLength) characters", topic: topic)
        }
        return text
    }
}
