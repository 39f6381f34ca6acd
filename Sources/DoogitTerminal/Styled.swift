import DoogitSupport

/// Rows of styled text: text with escape sequences in it (SGR colours such as "ESC[1m", and
/// OSC 8 links), which take no columns on the screen.
public enum Styled {
    /// The columns the row takes on the screen.
    public static func visibleWidth(_ row: String) -> Int {
        var width = 0
        for piece in pieces(of: row) where !piece.isSequence {
            width += DisplayWidth.of(piece.text)
        }
        return width
    }

    /// The row cut to `width` columns, every escape sequence kept (so a closing "ESC[0m" still
    /// closes). A wide character that would straddle the edge is left out and a space takes its
    /// one column, so the row is exactly `width` wide when it was wider.
    public static func truncate(_ row: String, toWidth width: Int) -> String {
        guard visibleWidth(row) > width else { return row }
        var out = ""
        var used = 0
        var full = false
        for piece in pieces(of: row) {
            if piece.isSequence {
                out += piece.text
                continue
            }
            if full { continue }
            for character in piece.text {
                let characterWidth = DisplayWidth.of(character)
                if used + characterWidth <= width {
                    out.append(character)
                    used += characterWidth
                } else {
                    if used < width { out += String(repeating: " ", count: width - used) }
                    used = max(used, width)
                    full = true
                    break
                }
            }
        }
        return out
    }

    private struct Piece {
        var isSequence: Bool
        var text: String
    }

    /// The row as runs of text and escape sequences. Scalars rather than Characters are walked,
    /// since a combining mark after a sequence's final letter would join it into one Character.
    private static func pieces(of row: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = String.UnicodeScalarView()
        var scalars = row.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                text.append(scalar)
                continue
            }
            if !text.isEmpty {
                pieces.append(Piece(isSequence: false, text: String(text)))
                text = String.UnicodeScalarView()
            }
            var sequence = String.UnicodeScalarView([scalar])
            readSequence(&scalars, into: &sequence)
            pieces.append(Piece(isSequence: true, text: String(sequence)))
        }
        if !text.isEmpty { pieces.append(Piece(isSequence: false, text: String(text))) }
        return pieces
    }

    /// The rest of a sequence after its ESC: CSI up to its final byte, OSC up to BEL or ST, or
    /// one character.
    private static func readSequence(_ scalars: inout String.UnicodeScalarView.Iterator, into sequence: inout String.UnicodeScalarView) {
        guard let kind = scalars.next() else { return }
        sequence.append(kind)
        switch kind {
        case "[":
            while let next = scalars.next() {
                sequence.append(next)
                if (0x40...0x7E).contains(next.value) { return }
            }
        case "]":
            var afterESC = false
            while let next = scalars.next() {
                sequence.append(next)
                if next == "\u{07}" || (afterESC && next == "\\") { return }
                afterESC = next == "\u{1B}"
            }
        default:
            return
        }
    }
}
