import DoogitStore
import Foundation
import Testing
import TestSupport

/// Every failure: the contract's exit code, one line on stderr, nothing on stdout, and the
/// database exactly as it was.
@Suite(.serialized)
struct ErrorPathTests {
    /// A sandbox with one tracked repository and two todos (1 open, 2 done).
    func prepared() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1296269, owner: "octocat", name: "Hello-World", description: "hello")
        #expect(sandbox.run("repo", "add", "octocat/Hello-World").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "octocat/Hello-World", "first").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "octocat/Hello-World", "second").status == 0)
        #expect(sandbox.run("todo", "done", "2").status == 0)
        return sandbox
    }

    func expectFailure(_ sandbox: Sandbox, _ arguments: [String], status: Int32, mentioning: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try sandbox.snapshot()
        let result = sandbox.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("doogit: error: "), sourceLocation: sourceLocation)
        #expect(result.stderr.contains(mentioning), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"), sourceLocation: sourceLocation)
        #expect(try sandbox.snapshot() == before, "\(arguments) changed the database", sourceLocation: sourceLocation)
    }

    @Test func usageErrorsExitTwo() throws {
        let sandbox = try prepared()
        let cases: [([String], String)] = [
            (["tood", "list"], "did you mean 'todo'?"),
            (["todo", "lsit"], "did you mean 'list'?"),
            (["todo", "list", "--opne"], "did you mean '--open'?"),
            (["repo", "remove", "Hello-World", "--frce"], "did you mean '--force'?"),
            (["todo", "done"], "needs ID..."),
            (["todo", "done", "abc"], "'abc' is not a todo ID"),
            (["todo", "done", "0"], "'0' is not a todo ID"),
            (["todo", "done", "-3"], "'-3' is not a todo ID"),
            (["todo", "done", "1", "99999999999999999999999"], "is not a todo ID"),
            (["todo", "add", "-R", "octocat/Hello-World", "   "], "the todo text is empty"),
            (["todo", "add", "-R", "octocat/Hello-World", ""], "the todo text is empty"),
            (["todo", "edit", "1"], "needs a new TEXT, or what to change"),
            (["todo", "edit", "x", "text"], "'x' is not a todo ID"),
            (["todo", "show", "1", "2"], "unexpected argument '2'"),
            (["todo", "list", "--open", "--done"], "cannot be used together"),
            (["todo", "add", "-R", "a/b/c", "text"], "is not a repository"),
            (["todo", "add", "-R", "/name", "text"], "is not a repository"),
            (["todo", "add", "-R", "owner/", "text"], "is not a repository"),
            (["todo", "add", "-R", "has space/x", "text"], "is not a repository"),
            (["repo", "add", "a/b/c"], "is not a repository"),
            (["repo", "add", "https://gitlab.com/a/b"], "is not a repository"),
            (["todo", "list", "--color", "sometimes"], "takes auto, always or never"),
            (["--db"], "needs a value"),
            (["todo", "add", "-R"], "needs a value"),
            (["--json=yes", "todo", "list"], "does not take a value"),
            (["repo", "list", "extra"], "unexpected argument 'extra'"),
            (["help", "nothing"], "unknown help topic 'nothing'"),
        ]
        for (arguments, message) in cases {
            try expectFailure(sandbox, arguments, status: 2, mentioning: message)
        }
        let hint = sandbox.run("todo", "add", "-R", "octocat/Hello-World", " ")
        #expect(hint.stderr.hasSuffix("Run 'doogit help todo add'.\n"))
    }

    @Test func failuresExitOne() throws {
        let sandbox = try prepared()
        try expectFailure(sandbox, ["todo", "done", "1", "7"], status: 1, mentioning: "no todo with ID 7")
        try expectFailure(sandbox, ["todo", "rm", "9", "8"], status: 1, mentioning: "IDs 9, 8")
        try expectFailure(sandbox, ["todo", "edit", "5", "new text"], status: 1, mentioning: "no todo with ID 5")
        try expectFailure(sandbox, ["todo", "add", "-R", "octocat/other", "x"], status: 1, mentioning: "repo add octocat/other")
        try expectFailure(sandbox, ["todo", "list", "nope"], status: 1, mentioning: "'nope' is not tracked")
        try expectFailure(sandbox, ["repo", "remove", "Hello-World"], status: 1, mentioning: "2 todos (1 open, 1 done)")
        try expectFailure(sandbox, ["repo", "remove", "octocat/Hello-World", "ghost/repo", "--force"], status: 1,
                          mentioning: "'ghost/repo' is not tracked")
        try expectFailure(sandbox, ["repo", "add", "octocat/missing"], status: 1, mentioning: "not found")
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World", "octocat/missing"], status: 1, mentioning: "not found")
    }

    @Test func ambiguousBareNamesAreRefused() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, owner: "octocat", name: "tools", description: nil)
        sandbox.github.addRepository(id: 2, owner: "hubot", name: "tools", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/tools", "hubot/tools").status == 0)
        try expectFailure(sandbox, ["todo", "add", "-R", "tools", "x"], status: 1, mentioning: "hubot/tools (id:2), octocat/tools (id:1); name one as OWNER/NAME, or as id:ID")
        #expect(sandbox.run("todo", "add", "-R", "hubot/tools", "x").status == 0)
    }

    @Test func authenticationErrorsExitFour() throws {
        let sandbox = try prepared()
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["PATH"] = sandbox.home.path  // no `gh` to ask
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World"], status: 4, mentioning: "GH_TOKEN")
        sandbox.environment["GITHUB_TOKEN"] = "ghp_wrong"
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World"], status: 4, mentioning: "Bad credentials")
        sandbox.environment["GITHUB_TOKEN"] = "bad\ntoken"
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World"], status: 4, mentioning: "not a valid token")
        // Local commands never need a token.
        #expect(sandbox.run("todo", "list").status == 0)
    }

    @Test func networkFailuresExitSeventyFive() throws {
        let sandbox = try prepared()
        sandbox.github.stop()
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World"], status: 75, mentioning: "cannot reach GitHub")
        sandbox.environment["DOOGIT_API_URL"] = "http://127.0.0.1:1"
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World"], status: 75, mentioning: "try again later")
    }

    @Test func insecureAPIURLIsRefusedBeforeAnyRequest() throws {
        let sandbox = try prepared()
        sandbox.environment["DOOGIT_API_URL"] = "http://example.com"
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World"], status: 1, mentioning: "plain http")
        sandbox.environment["DOOGIT_API_URL"] = "not a url"
        try expectFailure(sandbox, ["repo", "add", "octocat/Hello-World"], status: 1, mentioning: "DOOGIT_API_URL")
    }

    @Test func newerDatabaseIsRefusedAndLeftUntouched() throws {
        let sandbox = try prepared()
        do {
            let database = try Database(path: sandbox.databasePath)
            try database.execute("PRAGMA user_version = 99")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath))
        for arguments in [["todo", "list"], ["todo", "add", "-R", "Hello-World", "x"], ["repo", "list"]] {
            let result = sandbox.run(arguments)
            #expect(result.status == 1)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains("newer doogit"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath)) == before)
    }

    @Test func notADatabaseIsAClearError() throws {
        let sandbox = try Sandbox()
        let path = sandbox.home.path + "/notes.txt"
        try "just some notes, not a database at all, long enough to be read as a header".write(
            toFile: path, atomically: true, encoding: .utf8)
        let result = sandbox.run("--db", path, "todo", "list")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not a doogit database"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("just some notes"))
    }

    @Test func theTokenNeverAppearsInOutput() throws {
        let sandbox = try prepared()
        let token = sandbox.github.token
        var outputs: [ProcessResult] = []
        outputs.append(sandbox.run("-v", "repo", "add", "octocat/Hello-World"))
        outputs.append(sandbox.run("-v", "repo", "add", "octocat/missing"))
        outputs.append(sandbox.run("-v", "auth", "status"))
        sandbox.github.stop()
        outputs.append(sandbox.run("-v", "repo", "add", "octocat/Hello-World"))
        for result in outputs {
            #expect(!result.stdout.contains(token))
            #expect(!result.stderr.contains(token))
        }
        #expect(outputs[0].stderr.contains("GET "), "verbose mode logs requests")
        let database = try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath))
        #expect(!String(decoding: database, as: UTF8.self).contains(token))
        for request in sandbox.github.requests {
            #expect(!request.target.contains(token))
        }
    }
}
