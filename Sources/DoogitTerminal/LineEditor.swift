import DoogitSupport

/// One line of text being typed, with the keys of a shell's line editor. The cursor counts
/// graphemes (Characters), so an accented letter or a family emoji moves and deletes as one.
/// The text is always one line of printable text: line breaks and tabs become spaces and
/// controls are dropped, so it can be shown as it is.
public struct LineEditor: Equatable, Sendable {
    public private(set) var text: String
    /// 0 before the first character, `text.count` after the last.
    public private(set) var cursor: Int

    /// Starts with the cursor after the text.
    public init(text: String = "") {
        self.text = Self.oneLine(text)
        cursor = self.text.count
    }

    /// Applies a key or a paste; true if it was one for the editor (even when it changed
    /// nothing, as Left at the start), false for the caller to handle (Enter, Escape, Up...).
    public mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .paste(let pasted):
            insert(pasted)
            return true
        case .mouse:
            return false
        case .key(let key, alt: false):
            return handle(key)
        case .key(let key, alt: true):
            return handleAlt(key)
        }
    }

    private mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character): insert(String(character))
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(text.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .backspace: if cursor > 0 { remove(cursor - 1, cursor) }
        case .delete, .control("d"): if cursor < text.count { remove(cursor, cursor + 1) }
        case .control("u"): remove(0, cursor)
        case .control("k"): remove(cursor, text.count)
        case .control("w"): remove(wordStart(), cursor)
        default: return false
        }
        return true
    }

    /// Alt-B and Alt-F move by word, Alt-Backspace and Alt-D delete one.
    private mutating func handleAlt(_ key: Key) -> Bool {
        switch key {
        case .character("b"), .left: cursor = wordStart()
        case .character("f"), .right: cursor = wordEnd()
        case .backspace: remove(wordStart(), cursor)
        case .character("d"): remove(cursor, wordEnd())
        default: return false
        }
        return true
    }

    // MARK: Editing

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: max(0, min(offset, text.count)))
    }

    private mutating func insert(_ inserted: String) {
        let clean = Self.oneLine(inserted)
        guard !clean.isEmpty else { return }
        let split = index(cursor)
        let before = String(text[..<split]) + clean
        text = before + text[split...]
        // Counted again rather than added: a combining mark joins the character before it.
        cursor = min(before.count, text.count)
    }

    private mutating func remove(_ start: Int, _ end: Int) {
        guard start < end else { return }
        text.removeSubrange(index(start)..<index(end))
        cursor = min(start, text.count)
    }

    /// Where the word before the cursor starts: back over spaces, then over what is not.
    private func wordStart() -> Int {
        let characters = Array(text)
        var position = min(cursor, characters.count)
        while position > 0, characters[position - 1].isWhitespace { position -= 1 }
        while position > 0, !characters[position - 1].isWhitespace { position -= 1 }
        return position
    }

    /// Where the word at or after the cursor ends: over spaces, then over what is not.
    private func wordEnd() -> Int {
        let characters = Array(text)
        var position = min(cursor, characters.count)
        while position < characters.count, characters[position].isWhitespace { position += 1 }
        while position < characters.count, !characters[position].isWhitespace { position += 1 }
        return position
    }

    /// Line breaks and tabs as spaces (one each, CRLF being one character), controls and
    /// direction overrides removed.
    private static func oneLine(_ text: String) -> String {
        var out = ""
        for character in text {
            if character.isNewline || character == "\t" {
                out.append(" ")
            } else if character.unicodeScalars.contains(where: TerminalText.isUnsafe) {
                out.unicodeScalars.append(contentsOf: character.unicodeScalars.filter { !TerminalText.isUnsafe($0) })
            } else {
                out.append(character)
            }
        }
        return out
    }

    // MARK: Showing

    /// What to show in `width` columns: a slice of the text that holds the cursor, and the
    /// cursor's column in it. Text that does not fit scrolls so the cursor stays near the middle,
    /// except near the ends, where as much text as fits is shown; so moving the cursor either
    /// way scrolls smoothly with nothing to remember between calls. A wide character that does
    /// not fit at the right edge is left out (the caller pads the row).
    public func visible(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        let characters = Array(text)
        let widths = characters.map { DisplayWidth.of($0) }
        let cursor = min(self.cursor, characters.count)
        // The cell under the cursor: its character, or one column after the text.
        let cursorCell = cursor < widths.count ? max(1, widths[cursor]) : 1

        // The leftmost start from which the text to the end (and the cursor cell after it) fits.
        var tailStart = characters.count
        var tailWidth = cursor == characters.count ? 1 : 0
        while tailStart > 0, tailWidth + widths[tailStart - 1] <= width {
            tailStart -= 1
            tailWidth += widths[tailStart]
        }
        // The leftmost start that leaves at most half the width before the cursor.
        var centredStart = cursor
        var before = 0
        while centredStart > 0, before + widths[centredStart - 1] <= width / 2 {
            centredStart -= 1
            before += widths[centredStart]
        }
        var start = min(tailStart, centredStart)
        // Very narrow: make sure the cursor cell itself fits.
        while start < cursor, widths[start..<cursor].reduce(0, +) + cursorCell > width { start += 1 }

        var shown = ""
        var used = 0
        for position in start..<characters.count {
            guard used + widths[position] <= width else { break }
            shown.append(characters[position])
            used += widths[position]
        }
        return (shown, widths[start..<cursor].reduce(0, +))
    }
}
