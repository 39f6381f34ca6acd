@testable import DoogitStore
import DoogitSupport
import Testing

/// `--grep`'s match, and the view's filter: ASCII by bytes, the rest by lowercasing, one answer.
struct FilterMatchTests {
    func todo(_ text: String) -> TodoRecord {
        TodoRecord(id: 1, uuid: "u", repositoryID: 1, repositoryFullName: "o/n", text: text, done: false, position: 1,
                   createdAt: Timestamp(secondsSinceEpoch: 0), updatedAt: Timestamp(secondsSinceEpoch: 0), doneAt: nil)
    }

    @Test(arguments: [
        ("Write The Release Notes", "release", true), ("write", "writes", false), ("abc", "", false),
        ("fix CI now", "ci n", true), ("x", "x", true), ("aaab", "aab", true), ("[ci]", "[c", true),
        ("Ünïcode Straße", "straße", true), ("ÉTÉ", "été", true), ("café", "cafe", false),
        ("K-Kelvin \u{212A}", "k-k", true), ("日本語のテキスト", "テキ", true),
    ])
    func matchesAsLowercasingWould(text: String, needle: String, expected: Bool) {
        #expect(todo(text).matches(needle) == expected)
        #expect(todo(text).matches(needle) == text.lowercased().contains(needle), "the same answer as lowercasing")
    }
}
