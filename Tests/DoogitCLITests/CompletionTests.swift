import DoogitStore
import Foundation
import Testing
@testable import DoogitCLI

/// The completion engine on the real command tree, with made-up repositories and todos.
@Suite struct CompleterTests {
    /// What the fake database holds, and what the completer asked it for.
    final class FakeValues: @unchecked Sendable {
        var asked: [(ValueKind, String?)] = []

        func values(_ kind: ValueKind, _ databaseOption: String?) -> [Completer.Candidate] {
            asked.append((kind, databaseOption))
            switch kind {
            case .repository:
                return ["octocat/Hello-World", "acme/widgets", "Hello-World"].map { Completer.Candidate($0) }
            case .todo(.open): return [Completer.Candidate("1", "write notes"), Completer.Candidate("3", "fix CI")]
            case .todo(.done): return [Completer.Candidate("2", "set up CI")]
            case .todo(.removed): return [Completer.Candidate("9")]
            default: return []
            }
        }
    }

    let fake = FakeValues()

    func complete(_ words: String...) -> [String] { complete(words) }

    func complete(_ words: [String]) -> [String] {
        let completer = Completer(root: Doogit.tree) { [fake] kind, database in fake.values(kind, database) }
        switch completer.complete(words) {
        case .files: return [":files"]
        case .candidates(let candidates): return candidates.map(\.value)
        }
    }

    @Test func commandsAtTheTopLevelHidePlumbing() {
        let top = complete("")
        for name in ["todo", "repo", "sync", "auth", "completion", "help"] { #expect(top.contains(name)) }
        #expect(!top.contains { $0.hasPrefix("__") })
        #expect(complete("to") == ["todo"])
        #expect(complete("co") == ["completion"])
        #expect(complete("c") == ["completion", "clear"], "the short forms too")
    }

    @Test func subcommandsAndAliases() {
        #expect(complete("todo", "l") == ["list", "ls", "link"])
        #expect(complete("repo", "r") == ["remove", "rm"])
        #expect(complete("-q", "--json", "todo", "d") == ["done"], "global options before the command")
        #expect(complete("help", "") == complete(""), "help takes a command")
        #expect(complete("help", "todo", "e") == ["edit"])
        #expect(complete("todo", "add", "x", "").isEmpty, "no command after a todo's text")
    }

    /// Commands added to the tree are completed with no other change.
    @Test func everyCommandOfTheTreeIsOffered() {
        func walk(_ node: CommandSpec, _ path: [String]) {
            let offered = complete(path + [""])
            for sub in node.subcommands where !sub.hidden {
                for name in [sub.name] + sub.aliases { #expect(offered.contains(name), "\(path + [name])") }
                walk(sub, path + [sub.name])
            }
        }
        walk(Doogit.tree, [])
    }

    @Test func optionsOfTheCommandAndGlobalOnes() {
        #expect(complete("todo", "list", "--a") == ["--all-repos", "--ascii"])
        let all = complete("repo", "remove", "-")
        #expect(all.contains("--force") && all.contains("--db") && all.contains("--json") && all.contains("--color"))
        #expect(!all.contains("--open"), "another command's option")
        #expect(complete("todo", "add", "--", "-").isEmpty, "after -- everything is text")
    }

    @Test func optionValuesWithAFixedSet() {
        #expect(complete("--color", "") == ["auto", "always", "never"])
        #expect(complete("--color=a") == ["--color=auto", "--color=always"])
        #expect(complete("todo", "list", "--color", "n") == ["never"])
        #expect(complete("completion", "") == ["bash", "zsh", "fish"])
        #expect(complete("completion", "bash", "").isEmpty, "one shell only")
    }

    @Test func filesWhereAPathIsTaken() {
        #expect(complete("--db", "") == [":files"])
        #expect(complete("--db=/tm") == [":files"])
    }

    @Test func trackedRepositoriesWhereARepoIsTaken() {
        #expect(complete("todo", "add", "-R", "oc") == ["octocat/Hello-World"])
        #expect(complete("todo", "add", "-R", "OC") == ["octocat/Hello-World"], "GitHub names ignore case")
        #expect(complete("todo", "add", "--repo=oc") == ["--repo=octocat/Hello-World"])
        #expect(complete("todo", "add", "-Roc") == ["-Roctocat/Hello-World"])
        #expect(complete("todo", "add", "-qRoc") == ["-qRoctocat/Hello-World"])
        #expect(complete("todo", "list", "H") == ["Hello-World"])
        #expect(complete("todo", "clear", "acme/widgets", "").isEmpty, "todo clear takes one REPO")
        #expect(complete("todo", "list", "acme/widgets", "") == ["octocat/Hello-World", "Hello-World"], "todo list takes several")
        #expect(complete("repo", "remove", "acme/widgets", "") == ["octocat/Hello-World", "Hello-World"])
        #expect(complete("repo", "add", "").isEmpty, "repo add names repositories on GitHub, not tracked ones")
    }

    /// `doogit add`, `doogit done`, ...: the short forms complete as the todo commands do.
    @Test func shortFormsCompleteAsTheirCommands() {
        #expect(complete("ad") == ["add"])
        #expect(complete("done", "") == ["1", "3"])
        #expect(complete("ls", "H") == ["Hello-World"])
        #expect(complete("add", "-R", "oc") == ["octocat/Hello-World"])
    }

    @Test func todoIDsWhereAnIDIsTaken() {
        #expect(complete("todo", "done", "") == ["1", "3"])
        #expect(complete("todo", "done", "1", "") == ["3"], "an ID already given is not offered again")
        #expect(complete("todo", "rm", "") == ["1", "3"])
        #expect(complete("todo", "edit", "") == ["1", "3"])
        #expect(complete("todo", "edit", "1", "").isEmpty, "then the text")
        #expect(complete("todo", "undo", "") == ["2"], "undo offers done todos")
    }

    @Test func theDatabaseIsTheOneTheLineNames() {
        _ = complete("--db", "/tmp/a.db", "todo", "done", "")
        _ = complete("todo", "done", "--db=/tmp/b.db", "")
        _ = complete("todo", "done", "")
        #expect(fake.asked.map(\.1) == ["/tmp/a.db", "/tmp/b.db", nil])
    }

    @Test func descriptionsComeFromTheTree() throws {
        let completer = Completer(root: Doogit.tree) { _, _ in [] }
        guard case .candidates(let candidates) = completer.complete(["todo", "a"]) else { throw CancellationError() }
        #expect(candidates == [Completer.Candidate("add", "Add a todo"), Completer.Candidate("assign", "Assign todos to a GitHub user")])
        guard case .candidates(let options) = completer.complete(["sync", "--w"]) else { throw CancellationError() }
        #expect(options == [Completer.Candidate("--wait", "wait for a sync already running instead of exiting")])
    }

    @Test func kindsFollowThePlaceholdersUnlessSet() {
        let edit = ArgumentSpec(display: "ID TEXT...", minimum: 2, maximum: nil)
        #expect(edit.valueKind(at: 0) == .todo(.open))
        #expect(edit.valueKind(at: 1) == .text)
        #expect(edit.valueKind(at: 5) == .text)
        let list = ArgumentSpec(display: "[REPO]", minimum: 0, maximum: 1)
        #expect(list.valueKind(at: 0) == .repository)
        #expect(list.valueKind(at: 1) == nil)
        #expect(ArgumentSpec(display: "REPO...", minimum: 1, maximum: nil).valueKind(at: 3) == .repository)
        #expect(ArgumentSpec(display: "FILE|-", minimum: 1, maximum: 1).valueKind(at: 0) == .text)
        #expect(ArgumentSpec.none.valueKind(at: 0) == nil)
        #expect(ArgumentSpec(display: "ID...", minimum: 1, maximum: nil, values: [.todo(.removed)]).valueKind(at: 2)
                == .todo(.removed))
        #expect(OptionSpec("repo", value: "REPO", help: "").valueKind == .repository)
        #expect(OptionSpec("out", value: "FILE", help: "").valueKind == .file)
        #expect(OptionSpec("body", value: "TEXT", help: "").valueKind == .text)
        #expect(OptionSpec("json", help: "").valueKind == .text)
    }
}

/// `doogit __complete` and `doogit completion` in-process, against a real database.
@Suite struct CompletionCommandTests {
    func prepared(locale: String = "C.UTF-8") throws -> CLIHarness {
        let harness = CLIHarness(environment: ["LANG": locale])
        let store = try harness.openStore()
        try store.saveRepositories([
            Fixture.helloWorld,
            Fixture.repository(id: 2, owner: "acme", name: "widgets", description: nil),
            Fixture.repository(id: 3, owner: "other", name: "widgets", description: nil),
        ])
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "write the release notes", at: Fixture.t0)
        _ = try store.addTodo(repositoryID: 2, text: "set up CI", at: Fixture.t0)
        _ = try store.addTodo(repositoryID: 2, text: "tab\there \u{1B}[31mred\u{1B}[0m and a very long text that goes on and on and on",
                              at: Fixture.t0)
        _ = try store.setDone([2], done: true, at: Fixture.t1)
        return harness
    }

    @Test func repositoriesFullNamesAndUniqueNames() throws {
        let result = try prepared().run("__complete", "--", "todo", "add", "-R", "")
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        // "widgets" alone names two repositories, so only their full names are offered.
        #expect(result.stdout == "acme/widgets\noctocat/Hello-World\nother/widgets\nHello-World\n")
    }

    @Test func openTodosWithTheirTextSafeForATerminal() throws {
        let harness = try prepared()
        let result = harness.run("__complete", "--", "todo", "done", "")
        #expect(result.code == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0] == "1\twrite the release notes")
        let description = try #require(lines[1].split(separator: "\t", maxSplits: 1).last.map(String.init))
        #expect(lines[1].hasPrefix("3\ttab here red and a very long"))
        #expect(!description.contains("\t") && !description.contains("\u{1B}"))
        #expect(description.hasSuffix("…") && description.count == CompletionValues.descriptionWidth)
        let ascii = try prepared(locale: "C").run("__complete", "--", "todo", "done", "3").stdout
        #expect(ascii.hasPrefix("3\ttab here") && ascii.hasSuffix("...\n"))
        #expect(harness.run("__complete", "--", "todo", "undo", "").stdout == "2\tset up CI\n")
    }

    @Test func removedTodosForRestore() throws {
        let harness = try prepared()
        _ = try harness.openStore().removeTodos([1], at: Fixture.t2)
        let values = CompletionValues(paths: Paths(environment: harness.environment), unicode: true)
        #expect(values.candidates(.todo(.removed), databaseOption: nil) == [Completer.Candidate("1")])
        #expect(values.candidates(.todo(.open), databaseOption: nil).map(\.value) == ["3"])
    }

    @Test func theDatabaseNamedOnTheLine() throws {
        let harness = try prepared()
        let moved = harness.directory.path + "/other.sqlite3"
        try FileManager.default.moveItem(atPath: harness.defaultDatabasePath, toPath: moved)
        #expect(harness.run("__complete", "--", "todo", "done", "").stdout.isEmpty)
        #expect(harness.run("__complete", "--", "--db", moved, "todo", "done", "").stdout.hasPrefix("1\t"))
        #expect(harness.run("__complete", "--", "todo", "done", "--db=" + moved, "").stdout.hasPrefix("1\t"))
    }

    @Test func withoutADatabaseNothingIsOfferedAndNoneIsCreated() {
        let harness = CLIHarness()
        for words in [["todo", "done", ""], ["todo", "add", "-R", ""], ["--db", harness.directory.path + "/x.db", "todo", "rm", ""]] {
            let result = harness.run(["__complete", "--"] + words)
            #expect(result.code == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(words): \(result)")
        }
        #expect(!FileManagerCheck.exists(harness.defaultDatabasePath))
        #expect(!FileManagerCheck.exists(harness.home))
        #expect(!FileManagerCheck.exists(harness.directory.path + "/x.db"))
        // Commands still complete.
        #expect(harness.run("__complete", "--", "todo", "ad").stdout == "add\tAdd a todo\n")
        #expect(harness.run("__complete", "--", "--db", "").stdout == ":files\n")
    }

    @Test func aFileThatIsNotADatabaseOffersNothing() throws {
        let harness = CLIHarness()
        let path = try harness.writeFile("notes.txt", "not a database\n")
        let result = harness.run("__complete", "--", "--db", path, "todo", "done", "")
        #expect(result.code == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a database\n")
    }

    @Test func theDatabaseIsOnlyRead() throws {
        let harness = try prepared()
        let before = try Data(contentsOf: URL(fileURLWithPath: harness.defaultDatabasePath))
        #expect(harness.run("__complete", "--", "todo", "done", "").stdout.hasPrefix("1\t"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.defaultDatabasePath)) == before)
    }

    @Test func scriptsForEachShell() {
        let harness = CLIHarness()
        let bash = harness.run("completion", "bash")
        #expect(bash.code == 0 && bash.stdout == CompletionScripts.bash)
        #expect(bash.stdout.contains("complete -F _doogit doogit"))
        #expect(harness.run("completion", "zsh").stdout.hasPrefix("#compdef doogit\n"))
        #expect(harness.run("completion", "fish").stdout.contains("complete -c doogit "))
        for shell in CompletionScripts.Shell.allCases {
            #expect(CompletionScripts.script(for: shell).contains("doogit __complete -- "), "\(shell)")
        }
        expectUsageError(harness.run("completion", "tcsh"), topic: "completion")
        expectUsageError(harness.run("completion"), topic: "completion")
        #expect(!FileManagerCheck.exists(harness.defaultDatabasePath))
    }
}
