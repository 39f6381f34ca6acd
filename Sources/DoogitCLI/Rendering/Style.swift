/// How output looks: colour (ANSI) or not, and Unicode markers or ASCII ones.
struct Style {
    var color: Bool
    var unicode: Bool

    /// The contract's precedence: `--color`, then NO_COLOR (set and not empty: never), then
    /// CLICOLOR_FORCE (set, not 0: always), then auto: colour only on a terminal (not TERM=dumb).
    static func colorEnabled(option: GlobalOptions.ColorChoice?, environment: [String: String], isTerminal: Bool) -> Bool {
        switch option {
        case .always?: return true
        case .never?: return false
        case .auto?, nil: break
        }
        if option == nil {
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if let force = environment["CLICOLOR_FORCE"], force != "0" { return true }
        }
        return isTerminal && environment["TERM"] != "dumb"
    }

    /// UTF-8 when the first of LC_ALL, LC_CTYPE, LANG that is set names UTF-8.
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                let lowered = value.lowercased()
                return lowered.contains("utf-8") || lowered.contains("utf8")
            }
        }
        return false
    }

    var openMarker: String { unicode ? "○" : "[ ]" }
    var doneMarker: String { unicode ? "●" : "[x]" }
    var ellipsis: String { unicode ? "…" : "..." }
    /// After a todo's details when it has a note.
    var noteMarker: String { unicode ? "✎" : "[note]" }

    private func paint(_ text: String, _ code: String) -> String {
        color && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func red(_ text: String) -> String { paint(text, "31") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func green(_ text: String) -> String { paint(text, "32") }
    func cyan(_ text: String) -> String { paint(text, "36") }
    /// A `--grep` match: bold red, as grep marks one.
    func highlight(_ text: String) -> String { paint(text, "1;31") }
}
