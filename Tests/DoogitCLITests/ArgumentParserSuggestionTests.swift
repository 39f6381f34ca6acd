import Testing
@testable import DoogitCLI

/// The parser on names it does not know: commands, subcommands, help topics and options, with the
/// one meant when one is near.
@Suite struct ArgumentParserSuggestionTests: ArgumentParserSuite {
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
}
