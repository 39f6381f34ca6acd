/// Makes text safe to print on a terminal. Text that came from GitHub (or, later, from another
/// machine) must not move the cursor, retitle the window, change colours or reorder what is
/// shown, so escape sequences, C0/C1 controls and bidirectional overrides are removed.
public enum TerminalText {
    /// Characters that act on a terminal or on the order of text rather than being shown.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true           // C0, DEL, C1
        case 0x061C, 0x200E, 0x200F: return true             // directional marks
        case 0x202A...0x202E, 0x2066...0x2069: return true   // bidi embeddings, overrides, isolates
        default: return false
        }
    }

    /// Whether every byte is printable ASCII (space to tilde): such text needs no cleaning and
    /// takes one column a byte.
    public static func isPrintableASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isPrintableASCII)
    }

    /// `isPrintableASCII` on bytes, eight at a time: every text of a list passes through here.
    public static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A byte with its high bit set, below 0x20, or DEL (0x7F, found as a zero after the
            // XOR): each test is exact for "any byte", the borrows only ever come from a hit.
            let below = (word &- 0x20 &* ones) & ~word
            let del = word ^ (0x7F &* ones)
            if (word | below | ((del &- ones) & ~del)) & highs != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x7F { return false }
            index += 1
        }
        return true
    }

    /// The text with escape sequences and unsafe characters removed; tabs and line breaks
    /// become single spaces, since every caller prints the text on one line. What is removed
    /// leaves no gap wider than the text had: where a removal brings spaces after it up to
    /// spaces before it (`word \e[1m word`), those after it go, so the run before it stays
    /// as it was. Spaces that were side by side in the text are kept as they are.
    public static func sanitize(_ text: String) -> String {
        // Fast paths: most text is printable ASCII, or at least has nothing to remove.
        if isPrintableASCII(text) { return text }
        if !text.unicodeScalars.contains(where: isUnsafe) { return text }
        var out = String.UnicodeScalarView()
        // Whether something was removed since the last character kept.
        var removed = false
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:  // ESC: drop the whole sequence, not only the ESC.
                skipEscapeSequence(&scalars)
                removed = true
            case 0x9B:  // C1 CSI
                skipControlSequence(&scalars)
                removed = true
            case 0x9D:  // C1 OSC
                skipString(&scalars)
                removed = true
            case 0x09, 0x0A, 0x0D:
                if out.last != " " {
                    out.append(" ")
                    removed = false
                }
            case 0x20:
                if removed && out.last == " " { continue }
                out.append(scalar)
                removed = false
            default:
                if isUnsafe(scalar) {
                    removed = true
                } else {
                    out.append(scalar)
                    removed = false
                }
            }
        }
        return String(out)
    }

    /// The lines of a text of several (a note), each sanitized: lines end at LF, CRLF or CR (a
    /// note written on another system), so none is shown as one long line.
    public static func lines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { sanitize(String($0)) }
    }

    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipControlSequence(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        default: return  // a two-character sequence such as ESC c
        }
    }

    /// CSI: parameter and intermediate bytes up to a final byte in 0x40...0x7E.
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let next = scalars.next() {
            if (0x40...0x7E).contains(next.value) { return }
            if !(0x20...0x3F).contains(next.value) { return }
        }
    }

    /// OSC, DCS and the like: up to BEL, ST (ESC \) or C1 ST.
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let next = scalars.next() {
            switch next.value {
            case 0x07, 0x9C: return
            case 0x1B: _ = scalars.next(); return
            default: continue
            }
        }
    }
}
