import DoogitSupport
import TestSupport
import Testing

struct TrimmingTests {
    /// The definition: without the white-space characters at either end, walked one by one.
    private func walked(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }

    @Test("text is trimmed as its characters say, whatever its first and last bytes")
    func trimsAsTheCharactersSay() {
        let pieces = ["a", "Z", "~", " ", "\t", "\r\n", "\n", "\u{00A0}", "\u{2003}", "\u{3000}", "e\u{0301}", "\u{0301}",
                      "日本", "🇫🇷", "\u{200D}", "x\u{200D}", "!", "\u{0600}a", "\u{85}"]
        var random = SplitMix64(seed: 35)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(text.trimmingSpaces == walked(text), "\(Array(text.unicodeScalars))")
            #expect(text[...].trimmingSpaces == walked(text))
        }
        #expect("  plain words\t".trimmingSpaces == "plain words")
        #expect("plain words".trimmingSpaces == "plain words")
        #expect(" \u{3000}".trimmingSpaces == "")
    }
}
