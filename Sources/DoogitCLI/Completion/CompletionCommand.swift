import DoogitSupport

/// `doogit completion SHELL`, and the hidden `doogit __complete` its scripts call on every Tab.
enum CompletionCommand {
    static let spec = CommandSpec(
        name: "completion", abstract: "Print a shell completion script",
        arguments: ArgumentSpec(display: "SHELL", minimum: 1, maximum: 1,
                                values: [.choices(CompletionScripts.Shell.allCases.map(\.rawValue))]),
        discussion: """
            SHELL is bash, zsh or fish. The script completes commands, options, the values of \
            options that have a fixed set (--color), tracked repositories where a REPO is taken and \
            open todo IDs where an ID is taken. It asks doogit on every Tab, so new commands and \
            repositories are completed without loading the script again; doogit reads the database \
            read-only for that, never creates one and never uses the network.
            """,
        examples: [
            #"eval "$(doogit completion bash)"    # in ~/.bashrc"#,
            #"eval "$(doogit completion zsh)"     # in ~/.zshrc, after compinit"#,
            "doogit completion fish > ~/.config/fish/completions/doogit.fish",
        ],
        run: run)

    /// `doogit __complete -- WORDS...`: what to offer for the last of WORDS (see CompletionScripts).
    static let candidates = CommandSpec(
        name: "__complete", hidden: true, abstract: "Print completion candidates for a command line",
        arguments: ArgumentSpec(display: "WORD...", minimum: 0, maximum: nil),
        run: runCandidates)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        guard let shell = CompletionScripts.Shell(rawValue: invocation.positionals[0]) else {
            let shells = CompletionScripts.Shell.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "unknown shell '\(TerminalText.sanitize(invocation.positionals[0]))'; use one of \(shells)",
                             topic: invocation.path)
        }
        runtime.console.output.write(CompletionScripts.script(for: shell))
    }

    static func runCandidates(_ invocation: Invocation, _ runtime: Runtime) throws {
        let source = CompletionValues(paths: runtime.paths, unicode: runtime.style.unicode)
        let completer = Completer(root: Doogit.tree) { kind, databaseOption in
            source.candidates(kind, databaseOption: databaseOption)
        }
        switch completer.complete(invocation.positionals.isEmpty ? [""] : invocation.positionals) {
        case .files:
            runtime.console.print(":files")
        case .candidates(let candidates):
            for candidate in candidates {
                runtime.console.print(candidate.value + (candidate.description.map { "\t" + $0 } ?? ""))
            }
        }
    }
}
