/// An option a command accepts. Options of the same name take a value everywhere or nowhere,
/// so argv can be split before the command is known.
struct OptionSpec: Equatable, Sendable {
    var long: String
    var short: Character?
    /// The placeholder of the value (`PATH`), or nil for a flag.
    var valueName: String?
    var help: String
    /// What the value is, for shell completion; nil: what the placeholder says (ValueKind.named).
    var values: ValueKind?

    init(_ long: String, short: Character? = nil, value: String? = nil, help: String, values: ValueKind? = nil) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
        self.values = values
    }

    var takesValue: Bool { valueName != nil }

    /// What the option's value is; `.text` for a flag.
    var valueKind: ValueKind { values ?? valueName.map(ValueKind.named) ?? .text }
}

/// The positional arguments a command takes.
struct ArgumentSpec: Equatable, Sendable {
    /// As shown in usage lines, e.g. `ID...`.
    var display: String
    var minimum: Int
    var maximum: Int?
    /// What each positional is, for shell completion, in order; the last one stands for every
    /// further argument. Nil: what the placeholders of `display` say (ValueKind.named).
    var values: [ValueKind]? = nil

    static let none = ArgumentSpec(display: "", minimum: 0, maximum: 0)

    /// What the positional at `index` (from 0) is; nil past the last one the command takes.
    func valueKind(at index: Int) -> ValueKind? {
        if let maximum, index >= maximum { return nil }
        let kinds = values ?? display.split(separator: " ").map { placeholder in
            ValueKind.named(String(placeholder.filter { $0 != "[" && $0 != "]" && $0 != "." }))
        }
        return kinds.isEmpty ? nil : kinds[min(index, kinds.count - 1)]
    }
}

/// What a positional or an option's value is: what shell completion offers for it.
enum ValueKind: Equatable, Sendable {
    /// Anything (a todo's text, a search query): nothing to offer.
    case text
    /// A tracked repository: OWNER/NAME, or NAME where only one tracked repository has it.
    case repository
    /// The ID of a todo in this state.
    case todo(TodoState)
    case file
    case choices([String])
    /// A tag in use on some todo.
    case tag

    enum TodoState: Sendable { case open, done, removed }

    /// The kind a placeholder of the help text stands for: ID is an open todo's, REPO a tracked
    /// repository, FILE and PATH a file.
    static func named(_ placeholder: String) -> ValueKind {
        switch placeholder {
        case "ID": .todo(.open)
        case "REPO": .repository
        case "FILE", "PATH": .file
        default: .text
        }
    }
}

/// A node of the command tree: a group (`todo`) with subcommands, or a command with a handler.
struct CommandSpec: Sendable {
    var name: String
    var aliases: [String] = []
    /// Left out of help, docs and completion: plumbing for the shell scripts and the docs.
    var hidden = false
    var abstract: String
    var arguments: ArgumentSpec = .none
    var options: [OptionSpec] = []
    /// Paragraphs shown after the usage line in help.
    var discussion: String? = nil
    var examples: [String] = []
    var subcommands: [CommandSpec] = []
    /// Words that stand for a longer command path right under this node (`ls` for `todo list`).
    var shortcuts: [(word: String, path: [String])] = []
    /// The command a line without any command word runs (`doogit` alone is `todo list`).
    var defaultPath: [String]? = nil
    var run: (@Sendable (Invocation, Runtime) throws -> Void)? = nil

    func subcommand(named word: String) -> CommandSpec? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    func option(named long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }

    /// The global options and every option of the tree, each name once: argv is split with
    /// them before the command is known.
    var optionsOfTree: [OptionSpec] {
        var all = GlobalOptions.specs
        var pending = [self]
        while let node = pending.popLast() {
            for option in node.options where !all.contains(where: { $0.long == option.long }) { all.append(option) }
            pending += node.subcommands
        }
        return all
    }
}

/// A parsed command line, ready to run.
struct Invocation {
    var path: [String]
    var command: CommandSpec
    var global: GlobalOptions
    var positionals: [String]
    /// Command options given, by long name, each value in order (flags have "").
    var options: [String: [String]]

    func flag(_ long: String) -> Bool { options[long] != nil }

    /// The last value given for the option.
    func value(_ long: String) -> String? { options[long]?.last }
}

/// Options every command accepts, before or after the command.
struct GlobalOptions: Equatable {
    enum ColorChoice: String, CaseIterable { case auto, always, never }

    var databasePath: String?
    var json = false
    var color: ColorChoice?
    var quiet = false
    var verbose = false
    var help = false
    var version = false
    var ascii = false

    static let specs: [OptionSpec] = [
        OptionSpec("db", value: "PATH", help: "the database file (default: $DOOGIT_DB, else $XDG_DATA_HOME/doogit/doogit.sqlite3)"),
        OptionSpec("json", help: "machine-readable output on stdout"),
        OptionSpec("color", value: "WHEN", help: "colour: auto (default), always or never",
                   values: .choices(ColorChoice.allCases.map(\.rawValue))),
        OptionSpec("quiet", short: "q", help: "print nothing but errors and requested data"),
        OptionSpec("verbose", short: "v", help: "print more on stderr (requests to GitHub, timings)"),
        OptionSpec("help", short: "h", help: "show help for the command"),
        OptionSpec("version", help: "print doogit's version"),
        OptionSpec("ascii", help: "use ASCII markers: [ ] and [x] for ○ and ●"),
    ]
}
