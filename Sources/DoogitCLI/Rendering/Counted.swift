/// A count and its noun, as a sentence says it: `1 day`, `3 days`, `0 days`.
enum Counted {
    static func text<Count: BinaryInteger>(_ count: Count, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
