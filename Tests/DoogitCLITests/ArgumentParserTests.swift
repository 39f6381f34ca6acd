import Testing
@testable import DoogitCLI

/// The parser on its own: argv in, a ParsedCommandLine or a UsageError out; the short forms, and
/// options wherever they stand.
@Suite struct ArgumentParserTests: ArgumentParserSuite {
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
}
