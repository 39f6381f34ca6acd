/// What to offer for the word being typed on a doogit command line: the engine behind the
/// scripts of `doogit completion`, so bash, zsh and fish offer the same things. It reads the words
/// as ArgumentParser does (global options anywhere, `--opt value`, `--opt=value`, `-Rvalue`, `--`)
/// from the same command tree, so a command added to the tree is completed without more work.
struct Completer {
    struct Candidate: Equatable {
        var value: String
        var description: String?

        init(_ value: String, _ description: String? = nil) {
            self.value = value
            self.description = description
        }
    }

    enum Result: Equatable {
        case candidates([Candidate])
        /// The shell completes file names itself.
        case files
    }

    let root: CommandSpec
    /// Tracked repositories or todos of a kind, from the database `--db` names (nil: the default one).
    let values: (ValueKind, _ databaseOption: String?) -> [Candidate]

    /// `words`: the command line after the program name, up to and including the word being
    /// completed (empty when the cursor follows a space).
    func complete(_ words: [String]) -> Result {
        let current = words.last ?? ""
        let known = root.optionsOfTree
        var node = root
        var atRoot = true
        var helpTopic = false
        var positionals: [String] = []
        var endOfOptions = false
        var pending: OptionSpec?
        var databaseOption: String?

        func given(_ option: OptionSpec, _ value: String) {
            if option.long == "db" { databaseOption = value }
        }

        for word in words.dropLast() {
            if let option = pending {
                given(option, word)
                pending = nil
            } else if !endOfOptions && Self.isOption(word) {
                if word == "--" {
                    endOfOptions = true
                } else if let (option, value) = Self.optionTakingValue(word, among: known) {
                    if let value { given(option, value) } else { pending = option }
                }
            } else if atRoot && !helpTopic && word == "help" {
                helpTopic = true
            } else if positionals.isEmpty, let next = node.subcommand(named: word) {
                node = next
                atRoot = false
            } else if atRoot && positionals.isEmpty, let target = shortcutTarget(word) {
                node = target  // `doogit add` is `doogit todo add`
                atRoot = false
            } else {
                positionals.append(word)
            }
        }

        func offer(_ kind: ValueKind, prefix: String = "", typed: String) -> Result {
            let found: [Candidate]
            switch kind {
            case .text: return .candidates([])
            case .file: return .files
            case .choices(let choices): found = choices.map { Candidate($0) }
            case .repository, .todo, .tag: found = values(kind, databaseOption)
            }
            // GitHub names ignore case; IDs already on the line are not offered again.
            let ignoreCase = kind == .repository
            let matching = found.filter { candidate in
                !positionals.contains(candidate.value)
                    && (ignoreCase ? candidate.value.lowercased().hasPrefix(typed.lowercased()) : candidate.value.hasPrefix(typed))
            }
            return .candidates(matching.map { Candidate(prefix + $0.value, $0.description) })
        }

        if let option = pending { return offer(option.valueKind, typed: current) }
        if !endOfOptions && current.hasPrefix("-") && !ArgumentParser.isNegativeNumber(current) {
            if let (option, value) = Self.optionTakingValue(current, among: known), let value {
                return offer(option.valueKind, prefix: String(current.dropLast(value.count)), typed: value)
            }
            let options = node.options + GlobalOptions.specs
            return .candidates(options.map { Candidate("--" + $0.long, $0.help) }.filter { $0.value.hasPrefix(current) })
        }
        if helpTopic || (!node.subcommands.isEmpty && positionals.isEmpty) {
            var commands = node.subcommands.filter { !$0.hidden }.flatMap { command in
                ([command.name] + command.aliases).map { Candidate($0, command.abstract) }
            }
            if atRoot {
                commands.append(Candidate(HelpFormatter.helpCommand.name, HelpFormatter.helpCommand.abstract))
                commands += root.shortcuts.compactMap { shortcut in
                    shortcutTarget(shortcut.word).map { Candidate(shortcut.word, $0.abstract) }
                }
            }
            return .candidates(commands.filter { $0.value.hasPrefix(current) })
        }
        guard node.run != nil, let kind = node.arguments.valueKind(at: positionals.count) else { return .candidates([]) }
        return offer(kind, typed: current)
    }

    /// The command a top-level shortcut stands for.
    private func shortcutTarget(_ word: String) -> CommandSpec? {
        guard let shortcut = root.shortcuts.first(where: { $0.word == word }) else { return nil }
        var node = root
        for name in shortcut.path {
            guard let next = node.subcommand(named: name) else { return nil }
            node = next
        }
        return node
    }

    private static func isOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-" && !ArgumentParser.isNegativeNumber(word)
    }

    /// The option `word` gives, when it takes a value, with the value attached to it
    /// (`--repo=x`, `-Rx`); nil for a flag or an unknown option.
    private static func optionTakingValue(_ word: String, among known: [OptionSpec]) -> (OptionSpec, String?)? {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name = body.prefix { $0 != "=" }
            guard let option = known.first(where: { $0.long == name }), option.takesValue else { return nil }
            return (option, body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) })
        }
        // Clustered flags end at the first option that takes a value: the rest is its value.
        var cluster = word.dropFirst()
        while let letter = cluster.first {
            cluster = cluster.dropFirst()
            guard let option = known.first(where: { $0.short == letter }) else { return nil }
            if option.takesValue { return (option, cluster.isEmpty ? nil : String(cluster)) }
        }
        return nil
    }
}
