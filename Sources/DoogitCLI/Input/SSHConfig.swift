import DoogitSupport

/// The `Host` and `HostName` lines of an OpenSSH client config, so that a remote such as
/// `git@github-work:octo/alpha.git` is known to reach the host its alias stands for.
struct SSHConfig {
    private struct Block {
        var patterns: [Substring]
        var hostName: String?
    }

    private let blocks: [Block]

    init(_ text: String) {
        var blocks: [Block] = []
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            // `Keyword value` or `Keyword=value`.
            let keyword = line.prefix(while: { !$0.isWhitespace && $0 != "=" }).lowercased()
            var rest = line.dropFirst(keyword.count).drop(while: { $0.isWhitespace })
            if rest.first == "=" { rest = rest.dropFirst().drop(while: { $0.isWhitespace }) }
            switch keyword {
            case "host":
                blocks.append(Block(patterns: rest.split(whereSeparator: { $0.isWhitespace })))
            case "match":
                blocks.append(Block(patterns: []))  // conditions doogit does not evaluate: matches nothing
            case "hostname":
                if let last = blocks.indices.last, blocks[last].hostName == nil {
                    var value = rest.trimmingSpaces
                    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                    blocks[last].hostName = value
                }
            default:
                continue
            }
        }
        self.blocks = blocks
    }

    init?(path: String) {
        guard let text = Files.read(path) else { return nil }
        self.init(text)
    }

    /// The host `alias` connects to: the first HostName of a Host block that matches it (as
    /// ssh takes the first value it finds), else `alias` itself.
    func hostName(for alias: String) -> String {
        for block in blocks where Self.matches(alias, block.patterns) {
            // `%h` stands for the alias itself (`HostName %h.example.com`).
            if let hostName = block.hostName { return hostName.split(separator: "%h", omittingEmptySubsequences: false).joined(separator: alias) }
        }
        return alias
    }

    private static func matches(_ host: String, _ patterns: [Substring]) -> Bool {
        var matched = false
        for pattern in patterns {
            if pattern.hasPrefix("!") {
                if glob(pattern.dropFirst(), matches: Substring(host.lowercased())) { return false }
            } else if glob(pattern, matches: Substring(host.lowercased())) {
                matched = true
            }
        }
        return matched
    }

    /// ssh's patterns: `*` any run of characters, `?` one character; case is ignored.
    static func glob(_ pattern: Substring, matches text: Substring) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "*":
            var rest = text
            while true {
                if glob(pattern.dropFirst(), matches: rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case "?":
            return !text.isEmpty && glob(pattern.dropFirst(), matches: text.dropFirst())
        default:
            guard let character = text.first, Character(first.lowercased()) == character else { return false }
            return glob(pattern.dropFirst(), matches: text.dropFirst())
        }
    }
}
