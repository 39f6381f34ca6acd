/// Help text for every node of the command tree: `doogit help [COMMAND...]` and `-h`/`--help`.
struct HelpFormatter {
    let root: CommandSpec
    /// Paragraphs wrap at this many columns.
    let width: Int

    /// `help`, which the argument parser answers itself: it has no node in the tree.
    static let helpCommand = (name: "help", arguments: "[COMMAND...]", abstract: "Show help for a command")

    /// The variables doogit reads, as the top-level help and the man page list them.
    static let environment = [
        ("GH_TOKEN, GITHUB_TOKEN", "the GitHub token (else the one saved by 'doogit auth login', else 'gh auth token')"),
        ("GH_REPO", "the repository for 'todo add' without -R"),
        ("GH_HOST", "a GitHub Enterprise Server host"),
        ("DOOGIT_API_URL", "the REST API base URL (default https://api.github.com)"),
        ("SSL_CERT_FILE, SSL_CERT_DIR", "the certificates to trust instead of the system's (a private CA, a TLS-inspecting proxy)"),
        ("DOOGIT_DB", "the database file"),
        ("XDG_DATA_HOME", "where the database lives (default ~/.local/share)"),
        ("XDG_CONFIG_HOME", "where a saved token lives (default ~/.config)"),
        ("NO_COLOR, CLICOLOR_FORCE", "never or always colour, unless --color says otherwise"),
        ("LC_ALL, LC_CTYPE, LANG", "the first one set decides between ○ ● and [ ] [x]"),
    ]

    static let exitCodes: [(code: ExitCode, meaning: String)] = [
        (.success, "success"), (.failure, "failure"), (.usage, "usage error"),
        (.authentication, "authentication needed"), (.temporaryFailure, "try again later"),
    ]

    func help(for path: [String]) -> String {
        var node = root
        for word in path {
            guard let next = node.subcommand(named: word) else { break }
            node = next
        }
        let name = (["doogit"] + path).joined(separator: " ")
        if path.isEmpty { return topLevel() }
        if path == ["help"] { return helpOnHelp() }
        return node.subcommands.isEmpty ? command(node, name: name) : group(node, name: name)
    }

    private func paragraph(_ text: String, indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        return TextLayout.wrap(text, width: width - indent).map { pad + $0 }.joined(separator: "\n") + "\n"
    }

    private func table(_ rows: [(String, String)]) -> String {
        let left = min(32, rows.map { $0.0.count }.max() ?? 0)
        var out = ""
        for (term, text) in rows {
            let lines = TextLayout.wrap(text, width: max(20, width - left - 4))
            if term.count > left {
                out += "  \(term)\n"
                out += lines.map { String(repeating: " ", count: left + 4) + $0 }.joined(separator: "\n") + "\n"
            } else {
                out += "  " + TextLayout.padRight(term, to: left) + "  " + lines[0] + "\n"
                for line in lines.dropFirst() { out += String(repeating: " ", count: left + 4) + line + "\n" }
            }
        }
        return out
    }

    private func optionTerm(_ option: OptionSpec) -> String {
        let short = option.short.map { "-\($0), " } ?? "    "
        return short + "--" + option.long + (option.valueName.map { " " + $0 } ?? "")
    }

    static func usage(_ node: CommandSpec, name: String) -> String {
        var parts = [name]
        if !node.arguments.display.isEmpty { parts.append(node.arguments.display) }
        if !node.options.isEmpty { parts.append("[OPTIONS]") }
        return parts.joined(separator: " ")
    }

    private func topLevel() -> String {
        var out = "doogit: a todo list for each of your GitHub repositories\n\n"
        out += "Usage: doogit [OPTIONS] COMMAND [SUBCOMMAND] [ARGS]\n\n"
        out += "Commands:\n"
        var rows: [(String, String)] = []
        for command in root.subcommands where !command.hidden {
            // A group that runs alone too (`doogit board`) is a command of its own.
            if command.subcommands.isEmpty || command.run != nil {
                rows.append(([command.name, command.arguments.display].filter { !$0.isEmpty }.joined(separator: " "),
                             command.abstract))
            }
            for sub in command.subcommands {
                rows.append(([command.name, sub.name, sub.arguments.display].filter { !$0.isEmpty }.joined(separator: " "),
                             sub.abstract))
            }
        }
        rows.append((Self.helpCommand.name + " " + Self.helpCommand.arguments, Self.helpCommand.abstract))
        out += table(rows)
        if let path = root.defaultPath, !root.shortcuts.isEmpty {
            let words = root.shortcuts.map(\.word)
            out += "\n" + paragraph("Short forms: 'doogit' alone is 'doogit \(path.joined(separator: " "))'; "
                + "doogit \(words.dropLast().joined(separator: ", ")) and \(words.last ?? "") are the todo commands "
                + "('doogit add TEXT' is 'doogit todo add TEXT').")
        }
        out += "\nGlobal options (before or after the command):\n"
        out += table(GlobalOptions.specs.map { (optionTerm($0), $0.help) })
        out += "\nEnvironment:\n"
        out += table(Self.environment)
        let exitCodes = Self.exitCodes.map { "\($0.code.rawValue) \($0.meaning)" }.joined(separator: ", ")
        out += "\n" + paragraph("Exit codes: \(exitCodes).")
        out += "Run 'doogit help COMMAND' for more about a command.\n"
        return out
    }

    /// `doogit help help`.
    private func helpOnHelp() -> String {
        let help = Self.helpCommand
        var out = "doogit \(help.name): \(help.abstract)\n\n"
        out += "Usage: doogit \(help.name) \(help.arguments)\n\n"
        out += paragraph("Shows what a command does, its arguments and options, and examples; without a COMMAND, the list of commands. 'doogit COMMAND --help' (or -h) shows the same.")
        out += "\nExamples:\n  doogit help\n  doogit help todo add\n  doogit add --help\n"
        return out
    }

    private func group(_ node: CommandSpec, name: String) -> String {
        var out = "\(name): \(node.abstract)\n\n"
        out += "Usage: \(name) COMMAND [ARGS] [OPTIONS]\n\n"
        if let discussion = node.discussion { out += paragraph(discussion) + "\n" }
        out += "Commands:\n"
        out += table(node.subcommands.filter { !$0.hidden }.map { sub in
            let aliases = sub.aliases.isEmpty ? "" : " (also: \(sub.aliases.joined(separator: ", ")))"
            return ([sub.name, sub.arguments.display].filter { !$0.isEmpty }.joined(separator: " "), sub.abstract + aliases)
        })
        out += "\nRun 'doogit help \(name.dropFirst("doogit ".count)) COMMAND' for more about a command.\n"
        return out
    }

    private func command(_ node: CommandSpec, name: String) -> String {
        var out = "\(name): \(node.abstract)\n\n"
        out += "Usage: \(Self.usage(node, name: name))\n"
        if !node.aliases.isEmpty {
            let parent = name.split(separator: " ").dropLast().joined(separator: " ")
            out += "Also: " + node.aliases.map { "\(parent) \($0)" }.joined(separator: ", ") + "\n"
        }
        if let discussion = node.discussion { out += "\n" + paragraph(discussion) }
        if !node.options.isEmpty {
            out += "\nOptions:\n" + table(node.options.map { (optionTerm($0), $0.help) })
        }
        out += "\nGlobal options:\n" + table(GlobalOptions.specs.map { (optionTerm($0), $0.help) })
        if !node.examples.isEmpty {
            out += "\nExamples:\n" + node.examples.map { "  \($0)\n" }.joined()
        }
        return out
    }
}
