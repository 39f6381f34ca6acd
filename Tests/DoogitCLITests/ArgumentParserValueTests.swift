import Testing
@testable import DoogitCLI

/// The parser on arguments and option values: missing, extra, empty, not taken, and the colours.
@Suite struct ArgumentParserValueTests: ArgumentParserSuite {
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
}
