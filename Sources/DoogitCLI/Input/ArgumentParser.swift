/// What a command line asks for.
enum ParsedCommandLine {
    case run(Invocation)
    /// Help for the command at this path (empty: the top level).
    case help([String], GlobalOptions)
    case version(GlobalOptions)
}

/// Turns argv into a ParsedCommandLine: a pure function of the arguments and the command tree.
/// Global options may stand anywhere; `--opt value` and `--opt=value`; clustered short flags;
/// `--` ends options; a negative number is an argument (so `todo done -3` is reported as a bad ID).
struct ArgumentParser {
    let root: CommandSpec

    private struct GivenOption {
        var spec: OptionSpec
        var value: String?
        var spelling: String
    }

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        let (words, given, unknown, problems) = split(arguments)

        // The command path: `help` names a topic; otherwise descend through the groups.
        var remaining = words[...]
        var helpTopic = false
        if remaining.first == "help" {
            helpTopic = true
            remaining = remaining.dropFirst()
        }
        // A shortcut at the top (`doogit add`) stands for its path (`doogit todo add`); a line
        // with no command word runs the default command, unless it asks for help.
        if let word = remaining.first, root.subcommand(named: word) == nil,
           let shortcut = root.shortcuts.first(where: { $0.word == word }) {
            remaining = (shortcut.path + remaining.dropFirst())[...]
        } else if remaining.isEmpty, !helpTopic, let path = root.defaultPath,
                  !given.contains(where: { $0.spec.long == "help" }) {
            remaining = path[...]
        }
        if helpTopic, remaining == ["help"] { return .help(["help"], GlobalOptions()) }
        var node = root
        var path: [String] = []
        while !node.subcommands.isEmpty, let word = remaining.first {
            guard let next = node.subcommand(named: word) else {
                throw unknownCommand(word, under: node, path: path, helpTopic: helpTopic)
            }
            node = next
            path.append(next.name)
            remaining = remaining.dropFirst()
        }

        if helpTopic, let extra = remaining.first {
            throw UsageError(message: "unknown help topic '\(extra)' of '\(commandName(path))'", topic: path)
        }

        // Help and version win over every other mistake on the line, wherever they stand.
        let wantsHelp = helpTopic || given.contains { $0.spec.long == "help" }
        var global = GlobalOptions()
        var options: [String: [String]] = [:]
        for option in given {
            if GlobalOptions.specs.contains(option.spec) {
                if wantsHelp, option.spec.long != "help" { continue }
                try apply(option, to: &global, path: path)
            } else if node.option(named: option.spec.long) != nil {
                options[option.spec.long, default: []].append(option.value ?? "")
            } else if !wantsHelp {
                throw unknownOption(option.spelling, for: node, path: path)
            }
        }
        if global.version { return .version(global) }
        if wantsHelp { return .help(path, global) }
        if let problem = problems.first { throw UsageError(message: problem, topic: path) }
        if let spelling = unknown.first { throw unknownOption(spelling, for: node, path: path) }
        if node.run == nil { return .help(path, global) }

        let positionals = Array(remaining)
        if positionals.count < node.arguments.minimum {
            let what = node.arguments.display.isEmpty ? "an argument" : node.arguments.display
            throw UsageError(message: "'\(commandName(path))' needs \(what)", topic: path)
        }
        if let maximum = node.arguments.maximum, positionals.count > maximum {
            throw UsageError(message: "unexpected argument '\(positionals[maximum])' for '\(commandName(path))'",
                             topic: path)
        }
        return .run(Invocation(path: path, command: node, global: global, positionals: positionals, options: options))
    }

    /// The command that the words so far name (a shortcut standing for its path), if any.
    private func commandReached(by words: [String]) -> CommandSpec? {
        var remaining = words.first == "help" ? words.dropFirst() : words[...]
        if let word = remaining.first, root.subcommand(named: word) == nil,
           let shortcut = root.shortcuts.first(where: { $0.word == word }) {
            remaining = (shortcut.path + remaining.dropFirst())[...]
        }
        var node = root
        while let word = remaining.first, let next = node.subcommand(named: word) {
            node = next
            remaining = remaining.dropFirst()
        }
        return node.run == nil ? nil : node
    }

    private func commandName(_ path: [String]) -> String {
        (["doogit"] + path).joined(separator: " ")
    }

    /// Splits argv into words (the command path and arguments), options, unknown options, and
    /// problems that are reported once the command, and so the help topic, is known.
    private func split(_ arguments: [String])
        -> (words: [String], given: [GivenOption], unknown: [String], problems: [String])
    {
        let known = root.optionsOfTree
        var words: [String] = []
        var given: [GivenOption] = []
        var unknown: [String] = []
        var problems: [String] = []
        var index = 0
        var endOfOptions = false
        // A missing value is a problem reported later, so `-h` anywhere on the line still wins.
        func nextValue(for spelling: String) -> String? {
            guard index < arguments.count else {
                problems.append("option '\(spelling)' needs a value")
                return nil
            }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if endOfOptions || argument == "-" || !argument.hasPrefix("-") || Self.isNegativeNumber(argument) {
                words.append(argument)
            } else if argument == "--" {
                endOfOptions = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix(while: { $0 != "=" }))
                let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                guard let spec = known.first(where: { $0.long == name }) else {
                    unknown.append("--" + name)
                    continue
                }
                if spec.takesValue {
                    guard let value = inline ?? nextValue(for: "--" + name) else { continue }
                    given.append(GivenOption(spec: spec, value: value, spelling: "--" + name))
                } else if inline != nil {
                    problems.append("option '--\(name)' does not take a value")
                } else {
                    given.append(GivenOption(spec: spec, value: nil, spelling: "--" + name))
                }
            } else {
                // Short options, possibly clustered (-qv); a value may be attached (-Rowner/name).
                var cluster = Substring(argument.dropFirst())
                while let letter = cluster.first {
                    cluster = cluster.dropFirst()
                    // The command named so far decides a letter that two commands use (`sync -n`, `next -n N`).
                    let reached = commandReached(by: words)?.options.first { $0.short == letter }
                    guard let spec = reached ?? known.first(where: { $0.short == letter }) else {
                        unknown.append("-" + String(letter))
                        break
                    }
                    if spec.takesValue {
                        var attached = String(cluster)
                        let value: String
                        if attached.hasPrefix("=") {
                            attached.removeFirst()
                            guard !attached.isEmpty else {
                                problems.append("option '-\(letter)' needs a value")
                                break
                            }
                            value = attached
                        } else if attached.isEmpty {
                            guard let next = nextValue(for: "-" + String(letter)) else { break }
                            value = next
                        } else {
                            value = attached
                        }
                        given.append(GivenOption(spec: spec, value: value, spelling: "-" + String(letter)))
                        break
                    }
                    given.append(GivenOption(spec: spec, value: nil, spelling: "-" + String(letter)))
                }
            }
        }
        return (words, given, unknown, problems)
    }

    static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    private func apply(_ option: GivenOption, to global: inout GlobalOptions, path: [String]) throws(UsageError) {
        switch option.spec.long {
        case "db":
            guard let value = option.value, !value.isEmpty else {
                throw UsageError(message: "option '--db' needs a file path", topic: path)
            }
            global.databasePath = value
        case "json": global.json = true
        case "color":
            guard let choice = option.value.flatMap(GlobalOptions.ColorChoice.init(rawValue:)) else {
                throw UsageError(message: "option '--color' takes auto, always or never, not '\(option.value ?? "")'",
                                 topic: path)
            }
            global.color = choice
        case "quiet": global.quiet = true
        case "verbose": global.verbose = true
        case "help": global.help = true
        case "version": global.version = true
        case "ascii": global.ascii = true
        default: break
        }
    }

    private func unknownCommand(_ word: String, under node: CommandSpec, path: [String], helpTopic: Bool) -> UsageError {
        let names = node.subcommands.filter { !$0.hidden }.flatMap { [$0.name] + $0.aliases } + node.shortcuts.map(\.word)
        // A subcommand of a group named without its group (`promote` for `todo promote`) is what
        // was meant, before any name here a typo away; then a subcommand a typo away.
        let nested = node.subcommands.filter { !$0.hidden }.flatMap { group in
            group.subcommands.filter { !$0.hidden }.map { (name: $0.name, words: [$0.name] + $0.aliases, path: "\(group.name) \($0.name)") }
        }
        var meant = nested.filter { $0.words.contains(word) }.map(\.path)
        if meant.isEmpty, let name = Suggestions.closest(to: word, among: names) {
            meant = [name]
        } else if meant.isEmpty, let name = Suggestions.closest(to: word, among: nested.map(\.name)) {
            meant = nested.filter { $0.name == name }.map(\.path)
        }
        let suggestion = meant.isEmpty ? "" : " (did you mean " + meant.map { "'\($0)'" }.joined(separator: " or ") + "?)"
        let place = path.isEmpty ? "" : " of '\(commandName(path))'"
        let kind = path.isEmpty ? "command" : "subcommand"
        return UsageError(message: "unknown \(helpTopic ? "help topic" : kind) '\(word)'\(place)\(suggestion)", topic: path)
    }

    private func unknownOption(_ spelling: String, for node: CommandSpec, path: [String]) -> UsageError {
        let candidates = (node.options + GlobalOptions.specs).map { "--" + $0.long }
        let suggestion = spelling.hasPrefix("--")
            ? Suggestions.closest(to: spelling, among: candidates).map { " (did you mean '\($0)'?)" } ?? "" : ""
        let place = path.isEmpty ? "" : " for '\(commandName(path))'"
        return UsageError(message: "unknown option '\(spelling)'\(place)\(suggestion)", topic: path)
    }
}
