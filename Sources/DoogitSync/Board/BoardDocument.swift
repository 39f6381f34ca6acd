import DoogitMerge
import DoogitSupport

/// A board's body as read: which part of the board it is, the task lines doogit wrote (each
/// with its todo's leading UUID digits, and its state and content as written and as they are
/// now), the task lines a person added under a repository's heading, the todos the body listed
/// when doogit wrote it, and every other line a person wrote, kept to be written back where
/// it was.
struct BoardDocument: Equatable {
    /// A task line doogit wrote.
    struct Line: Equatable {
        var prefix: String
        var writtenDone: Bool
        var writtenFingerprint: String
        var done: Bool
        /// The content after the checkbox, as it is now (Markdown, escaped).
        var content: String
        /// The heading it is under (nil: none).
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
    /// heading (by its name in lower case), and from a heading of no tracked repository on.
    var top: [String] = []
    var bySection: [String: [String]] = [:]
    var tail: [String] = []

    /// Every line kept, in the order of the body.
    var kept: [String] { top + bySection.keys.sorted().flatMap { bySection[$0] ?? [] } + tail }

    static let marker = "<!-- doogit board part "
    static let footer = "<!-- doogit board lines:"
    static let own = "<!-- doogit -->"

    /// Reads a body; `tracks` says whether a heading's name is a tracked repository's.
    static func read(_ body: String, tracks: (String) -> Bool) -> BoardDocument {
        var document = BoardDocument()
        var section: String?
        var inTail = false
        for raw in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingTrailing()
            if line.trimmingSpaces.isEmpty || line.hasSuffix(own) { continue }
            if line.hasPrefix(marker) {
                document.part = Int(line.dropFirst(marker.count).prefix { $0.isNumber })
            } else if line.hasPrefix(footer) {
                document.listed = line.dropFirst(footer.count).split(separator: " ").map(String.init).filter(isPrefix)
            } else if let name = heading(line) {
                if tracks(name) && !inTail {
                    section = name.lowercased()
                } else {
                    (inTail, section) = (true, nil)
                    document.tail.append(line)
                }
            } else if let task = task(line), !inTail {
                if let written = task.written {
                    document.lines.append(Line(prefix: written.prefix, writtenDone: written.done, writtenFingerprint: written.fingerprint,
                                               done: task.done, content: task.content, section: section, raw: line))
                } else if let section, !task.content.isEmpty {
                    document.added.append(NewLine(section: section, done: task.done, content: task.content, raw: line))
                } else {
                    document.keep(line, in: section)
                }
            } else if inTail {
                document.tail.append(line)
            } else {
                document.keep(line, in: section)
            }
        }
        return document
    }

    private mutating func keep(_ line: String, in section: String?) {
        if let section { bySection[section, default: []].append(line) } else { top.append(line) }
    }

    /// The repository a heading names: `## OWNER/NAME` and whatever follows.
    static func heading(_ line: String) -> String? {
        guard line.hasPrefix("## ") else { return nil }
        let name = line.dropFirst(3).prefix { !$0.isWhitespace }
        return GitHubNames.isValidFullName(String(name)) ? String(name) : nil
    }

    /// A task line: `- [ ] content`, `- [x] content` (`*` or `+` as the bullet), with what doogit
    /// wrote of it (`<!-- 3f2a9c1b o 9f3c21 -->` at its end) when it is doogit's.
    static func task(_ line: String) -> (done: Bool, content: String, written: (prefix: String, done: Bool, fingerprint: String)?)? {
        var rest = Substring(line).drop { $0 == " " }
        guard let bullet = rest.first, "-*+".contains(bullet) else { return nil }
        rest = rest.dropFirst()
        guard rest.hasPrefix(" [") else { return nil }
        rest = rest.dropFirst(2)
        guard let mark = rest.first, " xX".contains(mark), rest.dropFirst().hasPrefix("]") else { return nil }
        rest = rest.dropFirst(2)
        guard rest.isEmpty || rest.first == " " else { return nil }
        var content = String(rest.trimmingSpaces)
        var written: (prefix: String, done: Bool, fingerprint: String)?
        // doogit's note ends the line: `<!-- 3f2a9c1b o 9f3c21 -->`, 26 characters.
        if content.hasSuffix(" -->"), content.utf8.count >= 26 {
            let note = content.suffix(26)
            let words = note.dropFirst(5).dropLast(4).split(separator: " ")
            if note.hasPrefix("<!-- "), words.count == 3, isPrefix(words[0]), ["o", "d"].contains(words[1]), words[2].count == 6,
               words[2].allSatisfy(\.isHexDigit) {
                written = (String(words[0]), words[1] == "d", String(words[2]))
                content = String(content.dropLast(26)).trimmingSpaces
            }
        }
        return (mark != " ", content, written)
    }

    static func isPrefix(_ word: some StringProtocol) -> Bool {
        word.utf8.count == 8 && word.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

private extension Substring {
    func trimmingTrailing() -> String {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\t" || last == "\r" { end = index(before: end) }
        return String(self[..<end])
    }
}
