import DoogitStore
import DoogitSupport

/// doogit's command line as a function: arguments and a context in, an exit code out. Output
/// goes to the context's console, so tests run it in-process.
public enum Doogit {
    public static let version = "0.3.0"

    static let tree = CommandSpec(
        name: "doogit", abstract: "a todo list for each of your GitHub repositories",
        subcommands: [TodoCommands.group, RepoCommands.group, NextCommand.spec, InteractiveCommand.spec, SyncCommand.spec, RemoteCommands.group, BoardCommands.group, TransferCommands.export,
                      TransferCommands.importCommand, AuthCommands.group, CompletionCommand.spec, CompletionCommand.candidates,
                      ManPage.command],
        shortcuts: TodoCommands.shortcuts, defaultPath: ["todo", "list"])

    /// Runs one command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], context: Context) -> Int32 {
        run({ try InputText.checked(arguments) }, context: context)
    }

    /// Runs the command line as the system gives it: each argument's bytes, which must be UTF-8
    /// (checked before anything repairs them into U+FFFD).
    public static func run(commandLine: [[UInt8]], context: Context) -> Int32 {
        run({ try InputText.arguments(commandLine) }, context: context)
    }

    private static func run(_ readArguments: () throws -> [String], context: Context) -> Int32 {
        let console = context.console
        defer { console.flush() }
        var databasePath: String?
        var runtime: Runtime?
        do {
            switch try ArgumentParser(root: tree).parse(try readArguments()) {
            case .version:
                console.print("doogit \(version)")
            case .help(let path, _):
                console.output.write(HelpFormatter(root: tree, width: min(console.width ?? 80, 100)).help(for: path))
            case .run(let invocation):
                databasePath = try? Paths(environment: context.environment).database(option: invocation.global.databasePath)
                let started = Runtime(context: context, global: invocation.global)
                runtime = started
                defer { started.keepRateLimitHold() }
                try invocation.command.run?(invocation, started)
            }
            // Output is written after any transaction: a failed write cannot undo the change, but
            // the exit status must say the output is incomplete.
            console.output.flush()
            if let code = console.output.writeFailure { throw OutputWriteError(code: code) }
            return ExitCode.success.rawValue
        } catch {
            let report = ErrorReporter.report(error, databasePath: databasePath, token: runtime?.tokenInUse)
            console.output.flush()
            console.printError("doogit: error: " + TerminalText.sanitize(report.message))
            return report.code.rawValue
        }
    }
}
