/// "Did you mean" for mistyped commands and options.
enum Suggestions {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a typo,
    /// or the only candidate that `word` is a prefix of.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        let limit = max(1, min(3, lowered.count / 3))
        let length = lowered.count
        // Words whose lengths differ by more than the limit are further apart: not compared.
        let scored = candidates.filter { abs($0.count - length) <= limit }.map { ($0, distance(lowered, $0.lowercased())) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit { return best.0 }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(lowered) }
        return !lowered.isEmpty && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal string alignment distance (Levenshtein plus transposition of neighbours).
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
