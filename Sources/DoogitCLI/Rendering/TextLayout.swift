import DoogitSupport

/// Fitting text into terminal columns: word wrapping and shortening with an ellipsis.
enum TextLayout {
    /// Splits `text` into lines of at most `width` columns at spaces (the first line at most
    /// `firstLineWidth`, when given: 0 leaves it empty). A word longer than a whole line is
    /// broken between characters, except a URL when `wholeURLs`: it goes whole on a line of its
    /// own, so that the terminal still sees one link (and lets it be clicked or copied). A screen
    /// drawn in cells (the full-screen view) breaks it too: a longer line there would be cut.
    static func wrap(_ text: String, width: Int, firstLineWidth: Int? = nil, wholeURLs: Bool = true) -> [String] {
        let width = max(1, width)
        var limit = min(width, max(0, firstLineWidth ?? width))
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        func finishLine() {
            lines.append(line)
            line = ""
            lineWidth = 0
            limit = width
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(word)
            var wordWidth = DisplayWidth.of(word)
            if lineWidth > 0 {
                if lineWidth + 1 + wordWidth <= limit {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                finishLine()
            }
            // A short first line that cannot take this word stays empty; the word starts below.
            if wordWidth > limit && limit < width { finishLine() }
            if wordWidth > limit && wholeURLs && isURL(word) {
                line = String(word)
                finishLine()
                continue
            }
            while wordWidth > limit {
                var piece = ""
                var pieceWidth = 0
                var rest = word
                while let character = rest.first, pieceWidth + DisplayWidth.of(character) <= limit {
                    piece.append(character)
                    pieceWidth += DisplayWidth.of(character)
                    rest = rest.dropFirst()
                }
                if piece.isEmpty, let character = rest.first {  // a wide character in a 1-column line
                    piece.append(character)
                    rest = rest.dropFirst()
                }
                line = piece
                finishLine()
                word = rest
                wordWidth = DisplayWidth.of(word)
            }
            line = String(word)
            lineWidth = wordWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` wrapped as `wrap` does, then `tail` (words set apart from it, as a todo's details)
    /// after two spaces on its last line while they fit there, the rest on lines below. Each line
    /// is its piece of the text and its piece of the tail (either may be empty).
    static func wrap(_ text: String, tail: String, width: Int, firstLineWidth: Int? = nil,
                     wholeURLs: Bool = true) -> [(text: String, tail: String)] {
        var lines = wrap(text, width: width, firstLineWidth: firstLineWidth, wholeURLs: wholeURLs).map { (text: $0, tail: "") }
        guard !tail.isEmpty, let last = lines.last else { return lines }
        let limit = lines.count == 1 ? min(max(1, width), max(0, firstLineWidth ?? width)) : max(1, width)
        let used = DisplayWidth.of(last.text)
        let room = used == 0 ? limit : limit - used - 2
        let tailLines = wrap(tail, width: width, firstLineWidth: max(0, room))
        lines[lines.count - 1].tail = tailLines[0]
        lines += tailLines.dropFirst().map { (text: "", tail: $0) }
        return lines
    }

    /// Whether a word is (or holds) a web address: `https://...`, `www....`.
    static func isURL(_ word: Substring) -> Bool {
        word.contains("://") || word.hasPrefix("www.")
    }

    /// `text` shortened to `width` columns, ending in `ellipsis` when something was cut.
    static func truncate(_ text: String, width: Int, ellipsis: String) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        let room = width - DisplayWidth.of(ellipsis)
        guard room > 0 else { return "" }
        // Printable ASCII, the usual case, is one column a byte: no need to walk its characters.
        if TerminalText.isPrintableASCII(text) {
            var bytes = text.utf8.prefix(room)
            while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
            return String(decoding: bytes, as: UTF8.self) + ellipsis
        }
        var out = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > room { break }
            out.append(character)
            used += characterWidth
        }
        while out.last == " " { out.removeLast() }
        return out + ellipsis
    }

    static func padRight(_ text: String, to width: Int) -> String {
        let missing = width - DisplayWidth.of(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }
}
