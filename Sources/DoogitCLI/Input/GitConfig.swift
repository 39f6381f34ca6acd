import DoogitSupport

/// The entries of a file in git's config format: `[section "subsection"]` headers and
/// `key = value` lines. Section and key names are lowercased (git compares them ignoring case);
/// the subsection keeps its case, as in git.
struct GitConfig {
    struct Entry: Equatable {
        var section: String
        var subsection: String?
        var key: String
        var value: String
    }

    let entries: [Entry]

    init(_ text: String) {
        var entries: [Entry] = []
        var section: (name: String, subsection: String?)?
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                section = Self.header(line)
                continue
            }
            guard let section else { continue }
            let pair = line.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            var value = pair[1].trimmingSpaces
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            entries.append(Entry(section: section.name, subsection: section.subsection,
                                 key: pair[0].trimmingSpaces.lowercased(), value: value))
        }
        self.entries = entries
    }

    /// Reads the file at `path`; nil when it cannot be read.
    init?(path: String) {
        guard let text = Files.read(path) else { return nil }
        self.init(text)
    }

    /// `[name]` or `[name "subsection"]`; nil for a header git would not accept.
    private static func header(_ line: String) -> (name: String, subsection: String?)? {
        guard let close = line.lastIndex(of: "]") else { return nil }
        let inside = line[line.index(after: line.startIndex)..<close]
        let parts = inside.split(separator: " ", maxSplits: 1)
        guard let name = parts.first?.lowercased() else { return nil }
        guard parts.count == 2 else { return (name, nil) }
        let quoted = parts[1].trimmingSpaces
        guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else { return nil }
        return (name, unescaped(quoted.dropFirst().dropLast()))
    }

    private static func unescaped(_ text: Substring) -> String {
        var out = ""
        var escaping = false
        for character in text {
            if escaping { out.append(character); escaping = false } else if character == "\\" { escaping = true } else { out.append(character) }
        }
        return out
    }

    /// The values of `key` in `[section "subsection"]` sections, in file order.
    func values(section: String, key: String) -> [(subsection: String, value: String)] {
        entries.compactMap { entry in
            guard entry.section == section, entry.key == key, let subsection = entry.subsection else { return nil }
            return (subsection, entry.value)
        }
    }
}
