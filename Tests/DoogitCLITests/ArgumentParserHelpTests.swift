import Testing
@testable import DoogitCLI

/// The parser on help and the version: asked for wherever `-h`, `--help` or `--version` stands.
@Suite struct ArgumentParserHelpTests: ArgumentParserSuite {
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
