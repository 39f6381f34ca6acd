import DoogitMerge
import DoogitSupport

/// Checks of argument forms shared by several commands; each failure is a usage error.
enum InputValidation {
    static let maximumTextLength = TodoText.maximumLength

    /// The most IDs one range (`1-20000`) may stand for: a typo must not become a huge command.
    static let maximumRangeLength: Int64 = 10_000

    /// Todo IDs, each argument one or more separated by commas: `3`, `#3`, `3,4`, `1-3`.
    /// Duplicates are dropped, order kept.
    static func todoIDs(_ arguments: [String], topic: [String]) throws(UsageError) -> [Int64] {
        var ids: [Int64] = []
        var seen: Set<Int64> = []
        func add(_ id: Int64) {
            if seen.insert(id).inserted { ids.append(id) }
        }
        for argument in arguments {
            for piece in argument.split(separator: ",", omittingEmptySubsequences: false) {
                let piece = piece.hasPrefix("#") ? piece.dropFirst() : piece
                if let id = positiveNumber(piece) {
                    add(id)
                    continue
                }
                // A range LOW-HIGH: both positive, LOW first, at most maximumRangeLength IDs.
                let bounds = piece.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                guard bounds.count == 2, let low = positiveNumber(bounds[0]), let high = positiveNumber(bounds[1]) else {
                    throw notAnID(argument, topic: topic)
                }
                guard low <= high else {
                    throw UsageError(message: "'\(TerminalText.sanitize(argument))' is not a range of todo IDs; write the lower ID first (\(high)-\(low))",
                                     topic: topic)
                }
                guard high - low < maximumRangeLength else {
                    throw UsageError(message: "'\(TerminalText.sanitize(argument))' stands for more than \(maximumRangeLength) todo IDs; name fewer at a time",
                                     topic: topic)
                }
                for id in low...high { add(id) }
            }
        }
        return ids
    }

    /// A positive whole number in ASCII digits (no sign, no spaces), or nil.
    private static func positiveNumber(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let number = Int64(text), number > 0 else { return nil }
        return number
    }

    private static func notAnID(_ argument: String, topic: [String]) -> UsageError {
        UsageError(message: "'\(TerminalText.sanitize(argument))' is not a todo ID; IDs are positive whole numbers as shown by 'doogit todo list' (also #3, 3,4 and ranges such as 1-3)",
                   topic: topic)
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
