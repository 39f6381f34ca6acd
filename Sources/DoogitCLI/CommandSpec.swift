/// An option a command accepts. Options of the same name take a value everywhere or nowhere,
/// so argv can be split before the command is known.
struct OptionSpec: Equatable, Sendable {
    var long: String
    var short: Character?
    /// The placeholder of the value (`PATH`), or nil for a flag.
    var valueName: String?
    var help: String

    init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
    }

    var takesValue: Bool { valueName != nil }
}

/// The positional arguments a command takes.
struct ArgumentSpec: Equatable, Sendable {
    /// As shown in usage lines, e.g. `ID...`.
    var display: String
    var minimum: Int
    var maximum: Int?

    static let none = ArgumentSpec(display: "", minimum: 0, maximum: 0)
}

/// A node of the command tree: a group (`todo`) with subcommands, or a command with a handler.
struct CommandSpec: Sendable {
    var name: String
    var aliases: [String] = []
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
    enum ColorChoice: String { case auto, always, never }

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
        OptionSpec("color", value: "WHEN", help: "colour: auto (default), always or never"),
        OptionSpec("quiet", short: "q", help: "print nothing but errors and requested data"),
        OptionSpec("verbose", short: "v", help: "print more on stderr (requests to GitHub, timings)"),
        OptionSpec("help", short: "h", help: "show help for the command"),
        OptionSpec("version", help: "print doogit's version"),
        OptionSpec("ascii", help: "use ASCII markers: [ ] and [x] for ○ and ●"),
    ]
}
