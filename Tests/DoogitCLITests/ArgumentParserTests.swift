import Testing
@testable import DoogitCLI

/// The parser on its own: argv in, a ParsedCommandLine or a UsageError out.
@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(root: Doogit.tree)

    struct NotARun: Error {}

    func invocation(_ arguments: [String]) throws -> Invocation {
        guard case .run(let invocation) = try parser.parse(arguments) else { throw NotARun() }
        return invocation
    }

    func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    /// The help path the arguments ask for, or nil when they do not ask for help.
    func helpPath(_ arguments: [String]) throws -> [String]? {
        if case .help(let path, _) = try parser.parse(arguments) { return path }
        return nil
    }

    // MARK: Short forms

    /// `doogit add`, `doogit ls`, ...: the todo commands without `todo`, with their options.
    @Test(arguments: [
        (["ls"], ["todo", "list"]), (["add", "x"], ["todo", "add", "x"]), (["show", "1"], ["todo", "show", "1"]),
        (["done", "1"], ["todo", "done", "1"]), (["undo", "1"], ["todo", "undo", "1"]),
        (["edit", "1", "x"], ["todo", "edit", "1", "x"]), (["move", "1", "-R", "a/b"], ["todo", "move", "1", "-R", "a/b"]),
        (["rm", "1"], ["todo", "rm", "1"]), (["restore", "1"], ["todo", "restore", "1"]), (["clear"], ["todo", "clear"]),
        (["--json", "ls", "-R", "a/b", "--long"], ["--json", "todo", "list", "-R", "a/b", "--long"]),
    ])
    func shortFormsAreTheTodoCommands(short: [String], long: [String]) throws {
        let parsed = try invocation(short)
        let expected = try invocation(long)
        #expect(parsed.path == expected.path)
        #expect(parsed.positionals == expected.positionals)
        #expect(parsed.options == expected.options)
        #expect(parsed.global == expected.global)
    }

    /// Nothing but global options: the list, with the list's options.
    @Test func aLineWithoutACommandIsTheList() throws {
        #expect(try invocation([]).path == ["todo", "list"])
        let json = try invocation(["--json", "--open"])
        #expect(json.path == ["todo", "list"])
        #expect(json.global.json && json.flag("open"))
        #expect(try helpPath(["-h"]) == [], "help alone is still the top-level help")
    }

    @Test func aMistypedShortFormIsSuggested() throws {
        let error = try #require(usageError(["ad", "x"]))
        #expect(error.message == "unknown command 'ad' (did you mean 'add'?)")
        #expect(try #require(usageError(["help", "restor"])).message == "unknown help topic 'restor' (did you mean 'restore'?)")
    }

    /// `--ascii` is global: accepted by every command, before or after it.
    @Test(arguments: [["--ascii", "todo", "done", "1"], ["repo", "search", "--ascii"], ["todo", "show", "1", "--ascii"]])
    func asciiIsAGlobalOption(arguments: [String]) throws {
        #expect(try invocation(arguments).global.ascii)
    }

    // MARK: Global options anywhere

    @Test func globalOptionBeforeOrAfterTheCommandIsTheSame() throws {
        let before = try invocation(["--json", "todo", "list"])
        let after = try invocation(["todo", "list", "--json"])
        let between = try invocation(["todo", "--json", "list"])
        #expect(before.global.json)
        for other in [after, between] {
            #expect(other.path == before.path)
            #expect(other.global == before.global)
            #expect(other.positionals == before.positionals)
            #expect(other.options == before.options)
        }
        #expect(before.path == ["todo", "list"])
    }

    @Test(arguments: [
        ["--db=/tmp/x.sqlite3", "todo", "list"],
        ["--db", "/tmp/x.sqlite3", "todo", "list"],
        ["todo", "list", "--db", "/tmp/x.sqlite3"],
        ["todo", "list", "--db=/tmp/x.sqlite3"],
    ])
    func databaseOptionTakesTheValueEitherWay(arguments: [String]) throws {
        let parsed = try invocation(arguments)
        #expect(parsed.global.databasePath == "/tmp/x.sqlite3")
        #expect(parsed.path == ["todo", "list"])
        #expect(parsed.positionals.isEmpty)
    }

    @Test func valueContainingEqualsSignsIsKeptWhole() throws {
        let parsed = try invocation(["--db=/tmp/a=b.sqlite3", "todo", "list"])
        #expect(parsed.global.databasePath == "/tmp/a=b.sqlite3")
    }

    @Test(arguments: [
        (["todo", "add", "-R", "octocat/Hello-World", "fix", "CI"], "octocat/Hello-World"),
        (["todo", "add", "-Roctocat/Hello-World", "fix", "CI"], "octocat/Hello-World"),
        (["todo", "add", "-R=octocat/Hello-World", "fix", "CI"], "octocat/Hello-World"),
        (["todo", "add", "--repo", "octocat/Hello-World", "fix", "CI"], "octocat/Hello-World"),
        (["todo", "add", "--repo=octocat/Hello-World", "fix", "CI"], "octocat/Hello-World"),
        (["todo", "add", "fix", "-R", "octocat/Hello-World", "CI"], "octocat/Hello-World"),
        (["-R", "a/b", "todo", "add", "fix", "CI", "-R", "octocat/Hello-World"], "octocat/Hello-World"),
    ])
    func repoOptionForms(arguments: [String], repo: String) throws {
        let parsed = try invocation(arguments)
        #expect(parsed.path == ["todo", "add"])
        #expect(parsed.value("repo") == repo)
        #expect(parsed.positionals == ["fix", "CI"])
    }

    @Test func clusteredShortFlags() throws {
        let parsed = try invocation(["-qv", "todo", "list"])
        #expect(parsed.global.quiet)
        #expect(parsed.global.verbose)
        let remove = try invocation(["repo", "remove", "-fq", "octocat/Hello-World"])
        #expect(remove.flag("force"))
        #expect(remove.global.quiet)
        #expect(remove.positionals == ["octocat/Hello-World"])
    }

    @Test func clusterEndingInAnOptionWithAValue() throws {
        let parsed = try invocation(["todo", "add", "-qR", "octocat/Hello-World", "text"])
        #expect(parsed.global.quiet)
        #expect(parsed.value("repo") == "octocat/Hello-World")
        #expect(parsed.positionals == ["text"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try invocation(["todo", "add", "-R", "o/n", "--", "-remember", "--json", "-q"])
        #expect(parsed.positionals == ["-remember", "--json", "-q"])
        #expect(!parsed.global.json)
        #expect(!parsed.global.quiet)
        #expect(parsed.value("repo") == "o/n")
    }

    @Test func aLoneDashIsAnArgument() throws {
        let parsed = try invocation(["todo", "add", "-", "x"])
        #expect(parsed.positionals == ["-", "x"])
    }

    @Test(arguments: [["todo", "done", "-3"], ["todo", "done", "-12", "4"], ["todo", "add", "-5", "degrees"]])
    func negativeNumbersAreArguments(arguments: [String]) throws {
        let parsed = try invocation(arguments)
        #expect(parsed.positionals == Array(arguments.dropFirst(2)))
    }

    @Test(arguments: [
        (["todo", "ls"], ["todo", "list"]),
        (["todo", "remove", "3"], ["todo", "rm"]),
        (["repo", "rm", "octocat/Hello-World"], ["repo", "remove"]),
        (["repo", "ls"], ["repo", "list"]),
    ])
    func aliasesRunTheCommand(arguments: [String], path: [String]) throws {
        let parsed = try invocation(arguments)
        #expect(parsed.path == path)
        #expect(parsed.command.name == path.last)
    }

    @Test func commandOptionsAreCollectedByLongName() throws {
        let parsed = try invocation(["todo", "list", "Hello-World", "--open", "--all-repos"])
        #expect(parsed.flag("open"))
        #expect(parsed.flag("all-repos"))
        #expect(!parsed.flag("done"))
        #expect(parsed.positionals == ["Hello-World"])
    }

    // MARK: Unknown names and suggestions

    @Test(arguments: [
        (["tod", "list"], "unknown command 'tod' (did you mean 'todo'?)", [String]()),
        (["tdoo"], "unknown command 'tdoo' (did you mean 'todo'?)", []),
        (["sycn"], "unknown command 'sycn' (did you mean 'sync'?)", []),
        (["frobnicate"], "unknown command 'frobnicate'", []),
        // A command of a group, named without its group, before any name a typo away ('remote').
        (["promote", "3"], "unknown command 'promote' (did you mean 'todo promote'?)", []),
        (["link", "3", "12"], "unknown command 'link' (did you mean 'todo link'?)", []),
        (["status"], "unknown command 'status' (did you mean 'remote status' or 'auth status'?)", []),
        (["pormote"], "unknown command 'pormote' (did you mean 'todo promote'?)", []),
        (["help", "promote"], "unknown help topic 'promote' (did you mean 'todo promote'?)", []),
        (["todo", "lst"], "unknown subcommand 'lst' of 'doogit todo' (did you mean 'list'?)", ["todo"]),
        (["todo", "ad", "x"], "unknown subcommand 'ad' of 'doogit todo' (did you mean 'add'?)", ["todo"]),
        (["repo", "rmove", "x"], "unknown subcommand 'rmove' of 'doogit repo' (did you mean 'remove'?)", ["repo"]),
        (["repo", "serach"], "unknown subcommand 'serach' of 'doogit repo' (did you mean 'search'?)", ["repo"]),
        (["auth", "frobnicate"], "unknown subcommand 'frobnicate' of 'doogit auth'", ["auth"]),
        (["help", "bogus"], "unknown help topic 'bogus'", []),
        (["help", "todo", "bogus"], "unknown help topic 'bogus' of 'doogit todo'", ["todo"]),
    ])
    func unknownCommands(arguments: [String], message: String, topic: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message == message)
        #expect(error.topic == topic)
    }

    @Test(arguments: [
        (["todo", "list", "--opne"], "unknown option '--opne' for 'doogit todo list' (did you mean '--open'?)", ["todo", "list"]),
        (["todo", "ls", "--jsn"], "unknown option '--jsn' for 'doogit todo list' (did you mean '--json'?)", ["todo", "list"]),
        (["todo", "list", "--all-repo"], "unknown option '--all-repo' for 'doogit todo list' (did you mean '--all-repos'?)", ["todo", "list"]),
        // `doogit` alone is `todo list`: its options are the list's.
        (["--jsno"], "unknown option '--jsno' for 'doogit todo list' (did you mean '--json'?)", ["todo", "list"]),
        (["todo", "list", "--bogus"], "unknown option '--bogus' for 'doogit todo list'", ["todo", "list"]),
        (["todo", "list", "-Z"], "unknown option '-Z' for 'doogit todo list'", ["todo", "list"]),
        (["-qZ", "todo", "list"], "unknown option '-Z' for 'doogit todo list'", ["todo", "list"]),
        (["sync", "--wiat"], "unknown option '--wiat' for 'doogit sync' (did you mean '--wait'?)", ["sync"]),
    ])
    func unknownOptions(arguments: [String], message: String, topic: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message == message)
        #expect(error.topic == topic)
    }

    @Test(arguments: [
        (["todo", "list", "--force"], "unknown option '--force' for 'doogit todo list'", ["todo", "list"]),
        (["todo", "add", "-f", "x"], "unknown option '-f' for 'doogit todo add'", ["todo", "add"]),
        (["repo", "list", "--open"], "unknown option '--open' for 'doogit repo list'", ["repo", "list"]),
        (["sync", "-R", "o/n"], "unknown option '-R' for 'doogit sync'", ["sync"]),
        (["todo", "done", "--with-token", "3"], "unknown option '--with-token' for 'doogit todo done'", ["todo", "done"]),
    ])
    func optionsOfAnotherCommandAreRejected(arguments: [String], message: String, topic: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message == message)
        #expect(error.topic == topic)
    }

    // MARK: Arguments and values

    @Test(arguments: [
        (["todo", "add"], ["todo", "add"]),
        (["todo", "done"], ["todo", "done"]),
        (["repo", "remove"], ["repo", "remove"]),
        (["repo", "rm"], ["repo", "remove"]),
        (["repo", "add", "--json"], ["repo", "add"]),
    ])
    func missingArguments(arguments: [String], topic: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message.hasPrefix("'doogit \(topic.joined(separator: " "))' needs "))
        #expect(error.topic == topic)
    }

    @Test(arguments: [
        (["repo", "list", "extra"], "unexpected argument 'extra' for 'doogit repo list'", ["repo", "list"]),
        (["todo", "show", "1", "2"], "unexpected argument '2' for 'doogit todo show'", ["todo", "show"]),
        (["sync", "now"], "unexpected argument 'now' for 'doogit sync'", ["sync"]),
        (["auth", "status", "x"], "unexpected argument 'x' for 'doogit auth status'", ["auth", "status"]),
        (["todo", "clear", "a", "b"], "unexpected argument 'b' for 'doogit todo clear'", ["todo", "clear"]),
    ])
    func extraArguments(arguments: [String], message: String, topic: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message == message)
        #expect(error.topic == topic)
    }

    @Test(arguments: [
        (["todo", "add", "x", "-R"], "option '-R' needs a value", ["todo", "add"]),
        (["todo", "add", "x", "--repo"], "option '--repo' needs a value", ["todo", "add"]),
        (["todo", "list", "--db"], "option '--db' needs a value", ["todo", "list"]),
        (["todo", "list", "--color"], "option '--color' needs a value", ["todo", "list"]),
        (["--db"], "option '--db' needs a value", ["todo", "list"]),
        (["--db=", "todo", "list"], "option '--db' needs a file path", ["todo", "list"]),
    ])
    func missingOptionValues(arguments: [String], message: String, topic: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message == message)
        #expect(error.topic == topic)
    }

    /// `-R=` attaches an empty value; it must not take the next word (the todo text) instead.
    @Test func attachedEmptyValueDoesNotSwallowTheNextArgument() throws {
        let error = try #require(usageError(["todo", "add", "-R=", "fix", "CI"]))
        #expect(error.message.contains("'-R'"), "\(error.message)")
        #expect(error.topic == ["todo", "add"])
    }

    @Test(arguments: [
        (["todo", "list", "--json=yes"], "option '--json' does not take a value", ["todo", "list"]),
        (["repo", "remove", "--force=1", "a/b"], "option '--force' does not take a value", ["repo", "remove"]),
    ])
    func flagsTakeNoValue(arguments: [String], message: String, topic: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message == message)
        #expect(error.topic == topic)
    }

    /// A usage error's hint names the command even when the bad option stands before it.
    @Test func flagWithAValueBeforeTheCommandNamesTheCommand() throws {
        let error = try #require(usageError(["--json=yes", "todo", "list"]))
        #expect(error.message == "option '--json' does not take a value")
        #expect(error.topic == ["todo", "list"])
    }

    @Test(arguments: [
        ("auto", GlobalOptions.ColorChoice.auto),
        ("always", .always),
        ("never", .never),
    ])
    func colorValues(value: String, choice: GlobalOptions.ColorChoice) throws {
        #expect(try invocation(["--color", value, "todo", "list"]).global.color == choice)
        #expect(try invocation(["todo", "list", "--color=\(value)"]).global.color == choice)
    }

    @Test func colorDefaultsToNil() throws {
        #expect(try invocation(["todo", "list"]).global.color == nil)
    }

    @Test(arguments: ["sometimes", "", "yes", "ALWAYS"])
    func badColorValues(value: String) throws {
        let error = try #require(usageError(["todo", "list", "--color=\(value)"]))
        #expect(error.message == "option '--color' takes auto, always or never, not '\(value)'")
        #expect(error.topic == ["todo", "list"])
    }

    // MARK: Help and version

    @Test(arguments: [
        (["help"], []),
        (["help", "help"], ["help"]),
        (["help", "add"], ["todo", "add"]),
        (["add", "-h"], ["todo", "add"]),
        (["ls", "--help"], ["todo", "list"]),
        (["help", "restore"], ["todo", "restore"]),
        (["-h"], []),
        (["--help"], []),
        (["help", "todo"], ["todo"]),
        (["todo"], ["todo"]),
        (["repo"], ["repo"]),
        (["auth", "--json"], ["auth"]),
        (["todo", "-h"], ["todo"]),
        (["help", "todo", "add"], ["todo", "add"]),
        (["todo", "add", "-h"], ["todo", "add"]),
        (["todo", "add", "--help", "some", "text"], ["todo", "add"]),
        (["-h", "todo", "add"], ["todo", "add"]),
        (["help", "todo", "ls"], ["todo", "list"]),
        (["todo", "ls", "--help"], ["todo", "list"]),
        (["repo", "rm", "-h"], ["repo", "remove"]),
        (["--json", "sync", "-h"], ["sync"]),
        (["sync", "--bogus", "-h"], ["sync"]),
    ])
    func helpRequests(arguments: [String], path: [String]) throws {
        #expect(try helpPath(arguments) == path)
    }

    /// `-h` asks for help wherever it stands, so a mistaken option before it does not matter,
    /// whether that option is unknown everywhere or belongs to another command.
    @Test func helpAfterAMistakenOptionStillGivesHelp() throws {
        #expect(try helpPath(["todo", "list", "--bogus", "--help"]) == ["todo", "list"])
        #expect(try helpPath(["todo", "list", "--help", "--force"]) == ["todo", "list"])
        #expect(try helpPath(["todo", "list", "--force", "--help"]) == ["todo", "list"])
    }

    /// An option left without its value at the end of the line does not hide a `-h` before it.
    @Test(arguments: [["todo", "add", "-h", "-R"], ["todo", "add", "--help", "--repo"], ["todo", "list", "-h", "--db"],
                      ["-h", "--color"], ["todo", "add", "-hR"]])
    func helpWinsOverAMissingValue(arguments: [String]) throws {
        #expect(try helpPath(arguments) == (arguments.contains("add") ? ["todo", "add"] : arguments.contains("list") ? ["todo", "list"] : []))
    }

    @Test(arguments: [["--version"], ["todo", "list", "--version"], ["--version", "repo", "remove"]])
    func versionAnywhere(arguments: [String]) throws {
        guard case .version = try parser.parse(arguments) else {
            Issue.record("\(arguments) did not ask for the version")
            return
        }
    }
}
