import Testing
@testable import DoogitCLI

/// The contract's exit codes and stream discipline, run in-process through Doogit.run.
@Suite struct ExitCodeTests {
    struct UsageCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var topic: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["tod", "list"], topic: ""),
        UsageCase(arguments: ["frobnicate"], topic: ""),
        UsageCase(arguments: ["--jsno"], topic: "todo list"),
        UsageCase(arguments: ["frobnicate"], topic: ""),
        UsageCase(arguments: ["help", "bogus"], topic: ""),
        UsageCase(arguments: ["todo", "lst"], topic: "todo"),
        UsageCase(arguments: ["help", "todo", "bogus"], topic: "todo"),
        UsageCase(arguments: ["repo", "rmove", "x"], topic: "repo"),
        UsageCase(arguments: ["todo", "list", "--opne"], topic: "todo list"),
        UsageCase(arguments: ["todo", "list", "--force"], topic: "todo list"),
        UsageCase(arguments: ["todo", "ls", "-Z"], topic: "todo list"),
        UsageCase(arguments: ["todo", "show", "1", "2"], topic: "todo show"),
        UsageCase(arguments: ["todo", "done", "1-20001"], topic: "todo done"),
        UsageCase(arguments: ["done", "3-1"], topic: "todo done"),
        UsageCase(arguments: ["todo", "list", "--grep", " "], topic: "todo list"),
        UsageCase(arguments: ["todo", "clear", "a/b", "--all"], topic: "todo clear"),
        UsageCase(arguments: ["todo", "list", "--open", "--done"], topic: "todo list"),
        UsageCase(arguments: ["todo", "list", "a/b/c"], topic: "todo list"),
        UsageCase(arguments: ["todo", "list", "--color=sometimes"], topic: "todo list"),
        UsageCase(arguments: ["--color", "sometimes", "todo", "list"], topic: "todo list"),
        UsageCase(arguments: ["todo", "add"], topic: "todo add"),
        UsageCase(arguments: ["todo", "add", "-R", "octocat/Hello-World", "  ", "\t"], topic: "todo add"),
        UsageCase(arguments: ["todo", "add", "-R", "octocat/Hello-World", ""], topic: "todo add"),
        UsageCase(arguments: ["todo", "add", "-R", "a/b/c", "text"], topic: "todo add"),
        UsageCase(arguments: ["todo", "add", "-R", "owner/", "text"], topic: "todo add"),
        UsageCase(arguments: ["todo", "add", "-R", "a b/c", "text"], topic: "todo add"),
        UsageCase(arguments: ["todo", "add", "text", "-R"], topic: "todo add"),
        UsageCase(arguments: ["todo", "add", "-x", "text"], topic: "todo add"),
        UsageCase(arguments: ["todo", "done"], topic: "todo done"),
        UsageCase(arguments: ["todo", "done", "0"], topic: "todo done"),
        UsageCase(arguments: ["todo", "done", "-3"], topic: "todo done"),
        UsageCase(arguments: ["todo", "done", "+3"], topic: "todo done"),
        UsageCase(arguments: ["todo", "done", "3", "x"], topic: "todo done"),
        UsageCase(arguments: ["todo", "done", "99999999999999999999"], topic: "todo done"),
        UsageCase(arguments: ["todo", "undo", "abc"], topic: "todo undo"),
        UsageCase(arguments: ["todo", "edit", "3"], topic: "todo edit"),
        UsageCase(arguments: ["todo", "edit", "x", "new", "text"], topic: "todo edit"),
        UsageCase(arguments: ["todo", "edit", "3", " "], topic: "todo edit"),
        UsageCase(arguments: ["todo", "rm", "1.5"], topic: "todo rm"),
        UsageCase(arguments: ["todo", "remove", "0"], topic: "todo rm"),
        UsageCase(arguments: ["repo", "remove"], topic: "repo remove"),
        UsageCase(arguments: ["repo", "rm", "a/b/c"], topic: "repo remove"),
        UsageCase(arguments: ["repo", "add"], topic: "repo add"),
        UsageCase(arguments: ["repo", "add", "https://gitlab.com/a/b"], topic: "repo add"),
        UsageCase(arguments: ["repo", "list", "extra"], topic: "repo list"),
        UsageCase(arguments: ["sync", "now"], topic: "sync"),
        UsageCase(arguments: ["sync", "--wiat"], topic: "sync"),
        UsageCase(arguments: ["auth", "status", "x"], topic: "auth status"),
        UsageCase(arguments: ["auth", "login"], topic: "auth login"),
        UsageCase(arguments: ["todo", "list", "--db"], topic: "todo list"),
        UsageCase(arguments: ["--db=", "todo", "list"], topic: "todo list"),
        UsageCase(arguments: ["todo", "list", "--json=1"], topic: "todo list"),
    ]

    @Test(arguments: usageCases)
    func usageErrorsExitTwoWithOneLineNamingTheTopic(usage: UsageCase) {
        let harness = CLIHarness()
        let result = harness.run(usage.arguments)
        expectUsageError(result, topic: usage.topic)
        #expect(harness.transportsMade == 0)
    }

    /// `'doogit todo add' needs TEXT...` followed by the sentence's full stop reads `TEXT....`.
    @Test(arguments: [["todo", "add"], ["todo", "done"], ["repo", "remove"], ["todo", "edit", "3"]])
    func missingArgumentMessageReadsCleanly(arguments: [String]) {
        let result = CLIHarness().run(arguments)
        #expect(result.code == 2)
        #expect(!result.stderr.contains("...."), "stderr: \(result.stderr)")
    }

    @Test func missingArgumentNamesWhatIsMissing() {
        let result = CLIHarness().run("todo", "add")
        #expect(result.stderr.hasPrefix("doogit: error: 'doogit todo add' needs TEXT"))
        let edit = CLIHarness().run("todo", "edit", "3")
        #expect(edit.stderr.hasPrefix("doogit: error: 'doogit todo edit' needs a new TEXT, or what to change"))
    }

    @Test func badIDIsNamedInTheMessage() {
        let result = CLIHarness().run("todo", "done", "-3")
        #expect(result.stderr == "doogit: error: '-3' is not a todo ID; IDs are positive whole numbers as shown by 'doogit todo list' (also #3, 3,4 and ranges such as 1-3). Run 'doogit help todo done'.\n")
    }

    @Test func suggestionAppearsOnTheErrorLine() {
        let result = CLIHarness().run("todo", "lst")
        #expect(result.stderr == "doogit: error: unknown subcommand 'lst' of 'doogit todo' (did you mean 'list'?). Run 'doogit help todo'.\n")
        let option = CLIHarness().run("todo", "list", "--opne")
        #expect(option.stderr == "doogit: error: unknown option '--opne' for 'doogit todo list' (did you mean '--open'?). Run 'doogit help todo list'.\n")
    }

    /// Global options may stand before the command, so a mistake there still points to its help.
    @Test func badFlagValueBeforeTheCommandPointsToTheCommandsHelp() {
        expectUsageError(CLIHarness().run("--json=1", "todo", "list"), topic: "todo list")
    }

    @Test func escapeSequencesInArgumentsNeverReachStderr() {
        for arguments in [["todo", "done", "\u{1B}[2J"], ["\u{1B}]0;pwned\u{07}"], ["todo", "list", "--\u{1B}[31mx"],
                          ["todo", "add", "-R", "a/\u{1B}[2Jb", "text"]] {
            let result = CLIHarness().run(arguments)
            #expect(result.code == 2)
            #expect(!result.stderr.contains("\u{1B}"), "stderr: \(result.stderr.debugDescription)")
            #expect(!result.stderr.contains("\u{07}"))
            #expect(result.errorLines.count == 1)
        }
    }

    @Test(arguments: [
        ["help"], ["help", "help"], ["help", "add"], ["-h"], ["--help"], ["help", "todo"], ["todo"], ["repo"], ["auth"], ["todo", "--help"],
        ["help", "todo", "add"], ["todo", "add", "-h"], ["repo", "remove", "--help"], ["sync", "-h"],
        ["--json", "help", "todo", "list"], ["-q", "auth", "login", "-h"],
    ])
    func helpExitsZeroOnStdoutOnly(arguments: [String]) {
        let harness = CLIHarness()
        let result = harness.run(arguments)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("Usage: doogit"))
        #expect(result.stdout.hasSuffix("\n"))
        #expect(harness.transportsMade == 0)
        #expect(harness.programCalls.isEmpty)
    }

    @Test func helpNeverOpensTheDatabase() {
        let harness = CLIHarness()
        _ = harness.run("help", "todo", "list")
        _ = harness.run("todo", "list", "--help")
        #expect(!FileManagerCheck.exists(harness.defaultDatabasePath))
    }

    @Test(arguments: [["--version"], ["todo", "list", "--version"], ["--version", "--json"], ["-q", "--version", "sync"]])
    func versionPrintsNameAndVersion(arguments: [String]) {
        let harness = CLIHarness()
        let result = harness.run(arguments)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == "doogit \(Doogit.version)\n")
        #expect(!FileManagerCheck.exists(harness.defaultDatabasePath))
    }

    @Test func versionIsThreeNumbers() {
        let parts = Doogit.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    }

    @Test func emptyListsAreSuccess() {
        let harness = CLIHarness()
        let todo = harness.run("todo", "list")
        #expect(todo.code == 0)
        #expect(todo.stdout.isEmpty)
        #expect(todo.stderr.isEmpty)
        let repo = harness.run("repo", "list")
        #expect(repo.code == 0)
        #expect(repo.stdout.isEmpty)
        #expect(repo.stderr.isEmpty)
        #expect(harness.run("todo", "list", "--json").stdout == "[]\n")
        #expect(harness.run("repo", "ls", "--json").stdout == "[]\n")
        #expect(harness.transportsMade == 0)
    }

    @Test func unknownTodoIsExitOneWithOneLine() throws {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepository(Fixture.helloWorld)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "write docs", at: Fixture.t0)
        let result = harness.run("todo", "done", "1", "7", "9")
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.hasPrefix("doogit: error: "))
        #expect(result.stderr.contains("7, 9"))
        // Nothing changed: todo 1 is still open.
        #expect(try store.sections().first?.todos.first?.done == false)
    }

    @Test func untrackedRepositoryIsExitOneWithTheAddCommand() {
        let result = CLIHarness().run("todo", "add", "-R", "octocat/Spoon-Knife", "fork", "it")
        #expect(result.code == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.hasPrefix("doogit: error: "))
        #expect(result.stderr.contains("'doogit repo add octocat/Spoon-Knife'"))
    }

    @Test func removingARepositoryWithOpenTodosIsRefused() throws {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepository(Fixture.helloWorld)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "write docs", at: Fixture.t0)
        let refused = harness.run("repo", "rm", "Hello-World")
        #expect(refused.code == 1)
        #expect(refused.errorLines.count == 1)
        #expect(refused.stderr.contains("--force"))
        #expect(try store.repositorySummaries().count == 1)
        let forced = harness.run("repo", "remove", "--force", "octocat/hello-world")
        #expect(forced.code == 0)
        #expect(forced.stderr.isEmpty)
        #expect(try store.repositorySummaries().isEmpty)
        #expect(harness.transportsMade == 0)
    }
}
