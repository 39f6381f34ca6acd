/// doogit's manual page in roff, generated from the command tree, so that it lists exactly the
/// commands, options and texts that `doogit help` shows. docs/doogit.1 is this output, committed;
/// a test fails when the two differ (scripts/generate-manpage writes it again).
struct ManPage {
    let root: CommandSpec

    /// `doogit __manpage`: prints the page.
    static let command = CommandSpec(
        name: "__manpage", hidden: true, abstract: "Print the manual page (roff)", run: run)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        runtime.console.output.write(ManPage(root: Doogit.tree).render())
    }

    static let description = [
        """
        doogit keeps a todo list for each of your GitHub repositories: one line to add a todo, one to \
        finish it, and 'doogit todo list' shows everything, one section per repository. Repositories \
        are fetched from the GitHub REST API and kept, with the todos, in an SQLite database on this \
        machine. Only commands that fetch from or write to GitHub use the network; the others are local.
        """,
        """
        Global options may stand before or after the command. Options take --opt value or \
        --opt=value, short ones -R value or -Rvalue; flags may be clustered (-qv); -- ends the options. \
        'doogit help COMMAND' and -h after a command show the help of this page's sections.
        """,
    ]

    static let files = [
        ("$XDG_DATA_HOME/doogit/doogit.sqlite3",
         "the database (default ~/.local/share/doogit/doogit.sqlite3; --db or DOOGIT_DB name another), mode 0600"),
        ("$XDG_CONFIG_HOME/doogit/tokens",
         "the tokens saved by 'doogit auth login', one for each API origin (default ~/.config/doogit/tokens), mode 0600"),
    ]

    /// What a terminal without a character (an ASCII locale) shows instead, so that no locale
    /// gets warnings or gaps; characters not listed fall back to `?`.
    static let fallbacks: [String: String] = ["25CB": "o", "25CF": "*", "2026": "...", "2713": "*", "2192": "->"]

    func render() -> String {
        var out = ".\\\" Generated from doogit's command tree by 'doogit __manpage' (scripts/generate-manpage); do not edit.\n"
        out += ".TH DOOGIT 1 \"\" \"doogit \(Doogit.version)\" \"User Commands\"\n"
        // Ragged right, no hyphenation: URLs, paths and option names stay whole.
        out += ".ad l\n.nh\n"
        var body = ".SH NAME\ndoogit \\- \(Self.text(root.abstract))\n"
        body += ".SH SYNOPSIS\n.B doogit\n"
        body += "[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fISUBCOMMAND\\fR] [\\fIARGS\\fR] [\\fIOPTIONS\\fR]\n"
        body += ".SH DESCRIPTION\n" + Self.description.map { Self.text($0) + "\n" }.joined(separator: ".PP\n")
        body += ".SH COMMANDS\n"
        for node in root.subcommands where !node.hidden { body += section(node, path: [node.name]) }
        let help = HelpFormatter.helpCommand
        body += Self.heading("doogit \(help.name) \(help.arguments)") + Self.text(Self.sentence(help.abstract)) + "\n"
        body += ".SH \"GLOBAL OPTIONS\"\n" + options(GlobalOptions.specs)
        body += ".SH ENVIRONMENT\n" + Self.terms(HelpFormatter.environment)
        body += ".SH FILES\n" + Self.terms(Self.files)
        body += ".SH \"EXIT STATUS\"\n" + Self.terms(HelpFormatter.exitCodes.map { (String($0.code.rawValue), $0.meaning) })
        body += ".SH \"SEE ALSO\"\n.BR gh (1),\n.BR git (1)\n"
        for code in Self.characterCodes(in: body) {
            out += ".if !c\\[u\(code)] .char \\[u\(code)] \(Self.fallbacks[code] ?? "?")\n"
        }
        return out + body
    }

    /// The code points of the `\[uXXXX]` characters in `roff`, in order of first use.
    private static func characterCodes(in roff: String) -> [String] {
        var codes: [String] = []
        for piece in roff.split(separator: "\\[u", omittingEmptySubsequences: false).dropFirst() {
            let code = String(piece.prefix { $0 != "]" })
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// A command, or a group followed by its commands.
    private func section(_ node: CommandSpec, path: [String]) -> String {
        let name = (["doogit"] + path).joined(separator: " ")
        guard node.subcommands.isEmpty else {
            var out = Self.heading(name + " COMMAND") + Self.text(Self.sentence(node.abstract)) + "\n"
            out += paragraphs(node.discussion)
            for sub in node.subcommands where !sub.hidden { out += section(sub, path: path + [sub.name]) }
            return out
        }
        var out = Self.heading(HelpFormatter.usage(node, name: name)) + Self.text(Self.sentence(node.abstract)) + "\n"
        if !node.aliases.isEmpty {
            let parent = (["doogit"] + path.dropLast()).joined(separator: " ")
            let aliases = node.aliases.map { "\\fB\(Self.text(parent + " " + $0))\\fR" }.joined(separator: ", ")
            out += ".PP\nAlso: \(aliases).\n"
        }
        out += paragraphs(node.discussion)
        out += options(node.options)
        if !node.examples.isEmpty {
            out += ".PP\nExamples:\n.PP\n.RS 4\n.nf\n" + node.examples.map { Self.text($0) + "\n" }.joined() + ".fi\n.RE\n"
        }
        return out
    }

    private func paragraphs(_ text: String?) -> String {
        guard let text else { return "" }
        return text.split(separator: "\n").map { ".PP\n" + Self.text(String($0)) + "\n" }.joined()
    }

    private func options(_ options: [OptionSpec]) -> String {
        options.map { option in
            let short = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
            let value = option.valueName.map { " \\fI\(Self.text($0))\\fR" } ?? ""
            return ".TP\n\(short)\\fB\\-\\-\(Self.text(option.long))\\fR\(value)\n\(Self.text(option.help))\n"
        }.joined()
    }

    private static func terms(_ rows: [(String, String)]) -> String {
        rows.map { ".TP\n.B \(quoted($0.0))\n\(text($0.1))\n" }.joined()
    }

    private static func heading(_ title: String) -> String {
        ".SS \(quoted(title))\n"
    }

    private static func quoted(_ argument: String) -> String {
        "\"" + text(argument).split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\(dq") + "\""
    }

    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }

    /// Text as roff prints it literally: backslashes and minus signs escaped, characters outside
    /// ASCII named by code point (so any groff reads the file), a leading dot or quote defused.
    static func text(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default:
                if scalar.isASCII {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        return out.hasPrefix(".") || out.hasPrefix("'") ? "\\&" + out : out
    }
}

