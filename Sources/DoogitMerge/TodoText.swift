import DoogitSupport

/// What a todo's text may be, wherever it comes from (a command's words, an import, a line of
/// the board): no control characters, not blank, at most 10,000 characters.
public enum TodoText {
    public static let maximumLength = 10_000

    /// The text cleaned (control characters out, spaces trimmed); nil when nothing but blanks
    /// is left, or it is longer than `maximumLength`.
    public static func cleaned(_ text: String) -> String? {
        let cleaned = TerminalText.sanitize(text).trimmingSpaces
        guard !cleaned.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }),
              cleaned.count <= maximumLength else { return nil }
        return cleaned
    }
}
