import DoogitMerge
import DoogitSupport

/// A board's body as read: which part of the board it is, the task lines doogit wrote (each
/// with its todo's leading UUID digits, and its state and content as written and as they are
/// now), the task lines a person added under a repository's heading, the todos the body listed
/// when doogit wrote it, and every other line a person wrote, kept to be written back where
/// it was.
///
/// Each line is read on its own: a heading of no tracked repository (a note's heading, or a
/// repository no longer tracked) keeps the lines of a person's under it, never doogit's, which
/// are read wherever they stand.
struct BoardDocument: Equatable {
    /// A task line doogit wrote.
    struct Line: Equatable {
        var prefix: String
        var writtenDone: Bool
        var writtenFingerprint: String
        var done: Bool
        /// The content after the checkbox, as it is now (Markdown, escaped).
        var content: String
        /// The tracked repository's heading it is under, in lower case (nil: none).
        var section: String?
        /// The line as it stands in the body.
        var raw: String
    }

    /// A task line a person added: under a tracked repository's heading, a todo to add.
    struct NewLine: Equatable {
        var section: String
        var done: Bool
        var content: String
        var raw: String
    }

    var part: Int?
    var lines: [Line] = []
    var added: [NewLine] = []
    /// The UUID digits of the todos the body held when doogit last wrote it.
    var listed: [String] = []
    /// Lines of a person's kept as written: before any heading, under a tracked repository's
    /// heading (by its name in lower case), and under headings of no tracked repository (each
    /// such heading with the lines under it).
    var top: [String] = []
    var bySection: [String: [String]] = [:]
    var tail: [String] = []

    /// Every line kept, in the order of the body.
    var kept: [String] { top + bySection.keys.sorted().flatMap { bySection[$0] ?? [] } + tail }

    static let marker = "<!-- doogit board part "
    static let footer = "<!-- doogit board lines:"
    static let own = "<!-- doogit -->"

    /// Reads a body; `section` gives a heading's tracked repository (its name in lower case; a
    /// former name of one counts), nil for a heading of none.
    static func read(_ body: String, section: (String) -> String?) -> BoardDocument {
        var document = BoardDocument()
        var current: String?
        var underForeignHeading = false
        // Lines end at a line feed alone: a U+2028 in a todo's text is text.
        for raw in body.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = String(decoding: raw, as: UTF8.self).trimmingTrailingSpaces()
            if line.trimmingSpaces.isEmpty || line.hasSuffix(own) { continue }
            if line.hasPrefix(marker) {
                document.part = Int(line.dropFirst(marker.count).prefix { $0.isNumber })
            } else if line.hasPrefix(footer) {
                document.listed = line.dropFirst(footer.count).split(separator: " ").map(String.init).filter(isPrefix)
            } else if let name = heading(line) {
                current = section(name)
                underForeignHeading = current == nil
                if underForeignHeading { document.tail.append(line) }
            } else if let task = task(line), let written = task.written {
                document.lines.append(Line(prefix: written.prefix, writtenDone: written.done, writtenFingerprint: written.fingerprint,
                                           done: task.done, content: task.content, section: current, raw: line))
            } else if let task = task(line), let current, !task.content.isEmpty {
                document.added.append(NewLine(section: current, done: task.done, content: task.content, raw: line))
            } else if underForeignHeading {
                document.tail.append(line)
            } else if let current {
                document.bySection[current, default: []].append(line)
            } else {
                document.top.append(line)
            }
        }
        return document
    }

    /// The repository a heading names: `## OWNER/NAME` and whatever follows.
    static func heading(_ line: String) -> String? {
        guard line.hasPrefix("## ") else { return nil }
        let name = line.dropFirst(3).prefix { !$0.isWhitespace }
        return GitHubNames.isValidFullName(String(name)) ? String(name) : nil
    }

    /// A task line: `- [ ] content`, `- [x] content` (`*` or `+` as the bullet), with what doogit
    /// wrote of it when it holds doogit's note (`<!-- 3f2a9c1b o 9f3c21 -->`), at its end or
    /// anywhere: what a person typed after it is content too.
    static func task(_ line: String) -> (done: Bool, content: String, written: (prefix: String, done: Bool, fingerprint: String)?)? {
        var rest = Substring(line).drop { $0 == " " }
        guard let bullet = rest.first, "-*+".contains(bullet) else { return nil }
        rest = rest.dropFirst()
        guard rest.hasPrefix(" [") else { return nil }
        rest = rest.dropFirst(2)
        guard let mark = rest.first, " xX".contains(mark), rest.dropFirst().hasPrefix("]") else { return nil }
        rest = rest.dropFirst(2)
        guard rest.isEmpty || rest.first == " " else { return nil }
        let content = String(rest.trimmingSpaces)
        guard let (range, written) = note(in: content) else { return (mark != " ", content, nil) }
        let around = [String(content[..<range.lowerBound]).trimmingSpaces, String(content[range.upperBound...]).trimmingSpaces]
        return (mark != " ", around.filter { !$0.isEmpty }.joined(separator: " "), written)
    }

    /// The last note of doogit's in `content`: where it stands, and what it says.
    private static func note(in content: String) -> (Range<String.Index>, (prefix: String, done: Bool, fingerprint: String))? {
        var end = content.endIndex
        while let open = lastOpening(in: content[..<end]) {
            // `<!-- ` 8 digits, ` o|d `, 6 digits, ` -->`: 26 characters.
            if let close = content.index(open, offsetBy: 26, limitedBy: content.endIndex) {
                let note = content[open..<close]
                let words = note.dropFirst(5).dropLast(4).split(separator: " ")
                if note.hasSuffix(" -->"), words.count == 3, isPrefix(words[0]), ["o", "d"].contains(words[1]), words[2].count == 6,
                   words[2].allSatisfy(\.isHexDigit) {
                    return (open..<close, (String(words[0]), words[1] == "d", String(words[2])))
                }
            }
            end = open
        }
        return nil
    }

    private static func lastOpening(in text: Substring) -> String.Index? {
        var index = text.endIndex
        while index > text.startIndex {
            index = text.index(before: index)
            if text[index...].hasPrefix("<!-- ") { return index }
        }
        return nil
    }

    static func isPrefix(_ word: some StringProtocol) -> Bool {
        word.utf8.count == 8 && word.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\t" || last == "\r" { end = index(before: end) }
        return String(self[..<end])
    }
}
