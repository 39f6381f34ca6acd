import DoogitMerge
import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The same todos on several machines, as a user sees it: one HOME per machine, the built
/// binary, one loopback GitHub holding the private repository with the todos' files.
@Suite(.serialized)
struct RemoteEndToEndTests: RemoteEndToEndSuite {
    @Test func aNewUserKeepsTheSameTodosOnTwoMachines() throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(github.contents.file(Self.data, "README.md") != nil, "created private, with a first commit")
        #expect(a.run("todo", "add", "-R", "app", "write the release notes").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "fix CI").status == 0)
        #expect(a.run("todo", "done", "2").status == 0)
        let waiting = a.run("remote", "status").stdout
        #expect(waiting.contains("Waiting: 3 local changes; run 'doogit sync'"), "\(waiting)")
        let pushed = a.run("sync")
        #expect(pushed.status == 0 && pushed.stderr.isEmpty, "\(pushed.stderr)")
        #expect(pushed.stdout == "\(Self.data): sent 3 changes\n")
        #expect(a.run("remote", "status").stdout.contains("Waiting: nothing"))

        // The files read well: each a header, then one line per repository or todo, sorted.
        let files = github.contents.files(Self.data)
        #expect(Set(files.keys) == ["README.md", "todos.jsonl", "remote.jsonl", "repositories.jsonl", "todos/1/1.jsonl"])
        #expect(files["todos.jsonl"] == #"{"format":"doogit","version":"4.0"}"# + "\n", "the header alone")
        let repositories = try #require(files["repositories.jsonl"]).split(separator: "\n")
        #expect(repositories.count == 2 && repositories[0] == #"{"format":"doogit","version":"4.2"}"#)
        #expect(repositories[1].hasPrefix(#"{"type":"repository","id":1,"fullName":"octocat/app","url":"https://github.com/octocat/app","tracked":true,"clock":{"#))
        let lines = try #require(files["todos/1/1.jsonl"]).split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == #"{"format":"doogit","version":"4.2","repository":"octocat/app"}"#)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(#"{"type":"todo","uuid":""#) && !$0.contains("localID") })

        // The other machine gets them, and the repository they are in.
        let pulled = b.run("sync")
        #expect(pulled.status == 0 && pulled.stdout == "\(Self.data): received 3 changes\n", "\(pulled.stdout)|\(pulled.stderr)")
        #expect(try todos(b) == ["octocat/app: write the release notes, fix CI [done]"])
        #expect(b.run("repo", "list").stdout == a.run("repo", "list").stdout)
        #expect(b.run("todo", "list", "--json").stdout == a.run("todo", "list", "--json").stdout)

        let json = try JSONParser.parse(b.run("sync", "--json").stdout)
        #expect(json["remote"] == .object([JSONMember("pulled", .int(0)), JSONMember("pushed", .int(0)), JSONMember("retries", .int(0)),
                                           JSONMember("dropped", .int(0)), JSONMember("untracked", .array([]))]))
        let status = try JSONParser.parse(b.run("remote", "status", "--json").stdout)
        #expect(status["repository"] == .string(Self.data) && status["pending"] == .int(0) && status["branch"] == .string("master"))
        // b only read: the remote lists a alone, and b says when it will be listed.
        #expect(try status.array("machines").count == 1)
        #expect(b.run("remote", "status").stdout.contains("  (listed there from its first change)\n"))

        #expect(b.run("remote", "remove").stdout == "Stopped exchanging todos with \(Self.data); the files on GitHub are left as they are\n")
        #expect(b.run("remote", "status").stdout.hasPrefix("No remote"))
        #expect(try JSONParser.parse(b.run("sync", "--json").stdout)["remote"] == .null)
        #expect(b.run("remote", "remove").status == 1)
    }

    @Test func aPublicRepositoryIsRefusedAndAMissingOneNamesTheCommandToCreateIt() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 5, name: "notes", description: nil)
        let before = try sandbox.snapshot()
        let public_ = sandbox.run("remote", "init", "notes")
        #expect(public_.status == 1 && public_.stderrLines.count == 1)
        #expect(public_.stderr.contains("octocat/notes is public, and anyone could read your todos there; nothing was changed"))
        let missing = sandbox.run("remote", "init", "octocat/todos")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasSuffix("create it, private, with 'doogit remote init octocat/todos --create'\n"))
        #expect(sandbox.run("remote", "status").stdout.hasPrefix("No remote"))
        _ = before
        let created = sandbox.run("remote", "init", "octocat/todos", "--create")
        #expect(created.stdout == "Created octocat/todos (private)\nTodos will be kept in octocat/todos (on master); run 'doogit sync' to exchange them\n")
    }

    @Test func offlineCommandsThenOneSyncSendEverything() throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        // Without syncing: adds, a repository tracked, done, edits, removals.
        #expect(b.run("repo", "add", "octocat/site").status == 0)
        for index in 0..<6 { #expect(b.run("todo", "add", "-R", index % 2 == 0 ? "app" : "site", "offline \(index)").status == 0) }
        #expect(b.run("todo", "done", "1", "2").status == 0)
        #expect(b.run("todo", "edit", "3", "offline 2, edited").status == 0)
        #expect(b.run("todo", "rm", "4").status == 0)
        github.resetCounters()
        let synced = b.run("sync")
        #expect(synced.status == 0)
        #expect(refUpdates(github).count == 1, "one commit carries everything")
        #expect(a.run("sync").status == 0)
        #expect(try todos(a) == todos(b))
        #expect(try todos(a) == ["octocat/app: offline 2, edited, offline 4, offline 0 [done]",
                                 "octocat/site: offline 5, offline 1 [done]"])
    }

    @Test func aSecondSyncIsOne304AndNoWrite() throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "one").status == 0)
        for machine in [a, b, a, b] { #expect(machine.run("sync").status == 0) }
        for machine in [a, b] {
            github.resetCounters()
            let writes = github.contents.writes
            let again = machine.run("sync")
            #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty)
            #expect(remoteRequests(github).count == 1 && remoteRequests(github)[0].headers["if-none-match"] != nil)
            #expect(github.rateLimitUsed == 0, "the 304s cost nothing")
            #expect(github.contents.writes == writes)
        }
    }

    @Test func exportThenImportIntoAThirdEmptyHomeGivesTheSameList() throws {
        let (github, machines) = try machines(1)
        let a = machines[0]
        for text in ["one", "two", "three"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        #expect(a.run("todo", "done", "2").status == 0)
        #expect(a.run("todo", "rm", "1").status == 0)
        let exported = a.run("export")
        let empty = try Sandbox(github: github)
        let imported = empty.run(["import", "-"], stdin: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(empty.run("todo", "list", "--json").stdout == a.run("todo", "list", "--json").stdout)
        #expect(empty.run(["import", "-"], stdin: exported.stdout).stdout.contains("Imported 0 todos"))
    }

    @Test func linksAndSettingsReachTheOtherHomeAndAnExportOfIt() throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        let number = github.activity.addIssue(repository: 1, title: "Crash on start")
        #expect(a.run("todo", "add", "-R", "app", "fix the crash").status == 0)
        #expect(a.run("todo", "link", "1", "#\(number)").status == 0)
        #expect(a.run("repo", "set", "app", "--push-issues", "on").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        let shown = try JSONParser.parse(b.run("todo", "show", "1", "--json").stdout)
        #expect(try shown.field("issue").int64("number") == number)
        #expect(b.run("repo", "list").stdout.contains("push issues"))
        // Settled: the link neither retitles the todo nor the issue.
        for machine in [b, a, b] { #expect(machine.run("sync", "--quiet").status == 0) }
        #expect(b.run("todo", "list").stdout.contains("fix the crash"))
        #expect(github.activity.writes(repository: 1, method: "PATCH").isEmpty)
        // b's export carries them into a third, empty HOME.
        let third = try Sandbox(github: github)
        #expect(third.run(["import", "-"], stdin: b.run("export").stdout).status == 0)
        let imported = try JSONParser.parse(third.run("todo", "show", "1", "--json").stdout)
        #expect(try imported.field("issue") == shown.field("issue") && imported.string("uuid") == shown.string("uuid"))
        #expect(third.run("repo", "list").stdout.contains("push issues"))
    }
}
