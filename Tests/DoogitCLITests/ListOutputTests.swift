import DoogitStore
import DoogitSupport
import Testing
@testable import DoogitCLI

/// The list through Doogit.run: terminal width, wrapping, colour and hostile text.
@Suite struct ListOutputTests {
    func harness(_ repositories: [RepositoryRecord], todos: [(Int64, String)], environment: [String: String] = ["LANG": "C.UTF-8"]) throws -> CLIHarness {
        let harness = CLIHarness(environment: environment)
        let store = try harness.openStore()
        try store.saveRepositories(repositories)
        for (repository, text) in todos { _ = try store.addTodo(repositoryID: repository, text: text, at: Fixture.t0) }
        return harness
    }

    @Test func wrapsAtTheTerminalWidth() throws {
        let harness = try harness([Fixture.helloWorld], todos: [
            (Fixture.helloWorld.id, "the quick brown fox jumps over the lazy dog again and again"),
            (Fixture.helloWorld.id, "short"),
        ])
        let result = harness.run(["todo", "list", "--color=never"], terminal: true, width: 30)
        #expect(result.code == 0)
        #expect(result.stdout == """
            octocat/Hello-World  My first…
              ○ 1  the quick brown fox
                   jumps over the lazy dog
                   again and again
              ○ 2  short

            """)
        for line in result.stdout.split(separator: "\n") { #expect(DisplayWidth.of(line) <= 30) }
    }

    @Test func colouredOutputStillFitsTheWidth() throws {
        let harness = try harness([Fixture.helloWorld], todos: [
            (Fixture.helloWorld.id, "漢字漢字漢字漢字漢字漢字漢字漢字 and some more words to wrap around"),
        ])
        let result = harness.run(["todo", "list"], terminal: true, width: 40)
        #expect(result.stdout.contains("\u{1B}["))
        for line in result.stdout.split(separator: "\n") {
            #expect(DisplayWidth.of(visible(String(line))) <= 40, "\(visible(String(line)))")
        }
    }

    @Test func notATerminalMeansNoWrappingAndNoColour() throws {
        let text = String(repeating: "lorem ipsum ", count: 20).trimmingSpaces
        let harness = try harness([Fixture.helloWorld], todos: [(Fixture.helloWorld.id, text)])
        let result = harness.run("todo", "list")
        #expect(result.stdout == "octocat/Hello-World  My first repository on GitHub!\n  ○ 1  \(text)\n")
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test func hostileDescriptionsAndNamesArePrintedClean() throws {
        let evil = Fixture.repository(id: 66, owner: "evil", name: "repo",
                                      description: "\u{1B}]0;pwned\u{07}evil \u{1B}[31mred")
        var renamed = Fixture.repository(id: 67, owner: "bad", name: "name", description: "\u{9B}2Jdesc\u{202E}")
        renamed.fullName = "bad/na\u{1B}[1Ame"
        let harness = try harness([evil, renamed], todos: [(66, "todo \u{1B}[5mblink\u{1B}[0m"), (67, "x")])
        for (terminal, width) in [(false, nil), (true, 80)] as [(Bool, Int?)] {
            let list = harness.run(["todo", "list", "--color=never"], terminal: terminal, width: width)
            #expect(list.stdout == """
                bad/name  desc
                  ○ 2  x

                evil/repo  evil red
                  ○ 1  todo blink

                """)
            let repos = harness.run(["repo", "list", "--color=never"], terminal: terminal, width: width)
            #expect(repos.stdout == """
                bad/name   1 open, 0 done  desc
                evil/repo  1 open, 0 done  evil red

                """)
            for output in [list.stdout, repos.stdout] {
                #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
                #expect(!output.contains("pwned"))
            }
        }
    }

    @Test func flaggedRepositoriesInTheList() throws {
        let archived = Fixture.repository(id: 5, owner: "acme", name: "old", description: "Old stuff", archived: true)
        let gone = Fixture.repository(id: 6, owner: "acme", name: "lost", description: nil, gone: true)
        let harness = try harness([archived, gone], todos: [(5, "a"), (6, "b")])
        let result = harness.run("todo", "list")
        #expect(result.stdout == """
            acme/lost [gone]
              ○ 2  b

            acme/old [archived]  Old stuff
              ○ 1  a

            """)
    }

    @Test func allReposAndFilters() throws {
        let empty = Fixture.repository(id: 5, owner: "acme", name: "empty", description: nil)
        let harness = try harness([Fixture.helloWorld, empty], todos: [(Fixture.helloWorld.id, "first"), (Fixture.helloWorld.id, "second")])
        #expect(harness.run("todo", "done", "1").code == 0)
        #expect(harness.run("todo", "list").stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ○ 2  second
              ● 1  first

            """)
        #expect(harness.run("todo", "ls", "--open").stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ○ 2  second

            """)
        #expect(harness.run("todo", "ls", "--done").stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ● 1  first

            """)
        #expect(harness.run("todo", "list", "--all-repos").stdout.hasPrefix("acme/empty\n\noctocat/Hello-World"))
        #expect(harness.run("todo", "list", "empty").stdout == "acme/empty\n")
        #expect(harness.run("todo", "list", "OCTOCAT/hello-world", "--done").stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ● 1  first

            """)
    }
}
