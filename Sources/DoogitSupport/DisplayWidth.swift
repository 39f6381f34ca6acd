/// How many terminal columns text takes, for wrapping and shortening lines: zero for combining
/// and format characters, two for East Asian wide characters and emoji, one otherwise.
public enum DisplayWidth {
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F }) {
            return 2  // text made an emoji by the variation selector
        }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // a flag (a pair of regional indicators)
        return of(first)
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (0x7F..<0xA0).contains(value) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF,
             0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    public static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII, the usual case: one column a byte.
        if TerminalText.isPrintableASCII(String(text)) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }
}
