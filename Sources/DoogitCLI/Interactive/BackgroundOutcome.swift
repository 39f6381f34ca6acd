import DoogitSupport

/// What a command the view ran in the background brought, read from its `--json` output (never
/// from its words for people, which may change): the view's status line is made from it.
enum BackgroundOutcome {
    /// The JSON the command printed: its one line that is a JSON object or array (its notes
    /// and errors, on the same pipe, are lines of words).
    static func json(in output: [UInt8]) -> JSONValue? {
        for line in output.split(separator: 0x0A).reversed() where line.first == UInt8(ascii: "{") || line.first == UInt8(ascii: "[") {
            if let value = try? JSONParser.parse(Array(line)) { return value }
        }
        return nil
    }

    /// A sync's summary (`sync --json`) in a few words: `nothing changed`, or what changed.
    static func sync(_ json: JSONValue) -> String {
        func count(_ path: String...) -> Int64 {
            var value: JSONValue? = json
            for key in path { value = value?[key] }
            if case .number(let text)? = value { return Int64(text) ?? 0 }
            return 0
        }
        var parts: [String] = []
        let repositories = count("updated") + count("renamed") + count("gone")
        if repositories > 0 { parts.append(Counted.text(repositories, "repository", plural: "repositories") + " changed") }
        if count("remote", "pulled") > 0 { parts.append("\(count("remote", "pulled")) received") }
        if count("remote", "pushed") > 0 { parts.append("\(count("remote", "pushed")) sent") }
        let issues = count("issues", "pulled") + count("issues", "imported") + count("issues", "closedByCommit")
        if issues > 0 { parts.append(Counted.text(issues, "issue change")) }
        if count("issues", "pushed") > 0 { parts.append("\(count("issues", "pushed")) pushed to issues") }
        let board = ["finished", "reopened", "edited", "added", "removed"].map { count("board", $0) }.reduce(0, +)
        if board > 0 { parts.append("\(board) from the board") }
        return parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")
    }

    /// The issue a promote made (`todo promote --json`): `OWNER/NAME#N`.
    static func promoted(_ json: JSONValue) -> String? {
        guard case .string(let repository)? = json["repository"], case .number(let number)? = json["issue"]?["number"] else {
            return nil
        }
        return TerminalText.sanitize(repository) + "#" + number
    }
}
