import DoogitMerge
import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The same todos on several machines, as a user sees it: one HOME per machine, the built
/// binary, one loopback GitHub holding the private repository with the todos' files.
@Suite(.serialized)
struct RemoteEndToEndTests {
    static let data = "octocat/doogit-data"

    /// `count` machines of one user, the first of which tracks octocat/app and created the remote.
    func machines(_ count: Int) throws -> (FakeGitHub, [Sandbox]) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        github.addRepository(id: 2, name: "site", description: nil)
        let machines = try (0..<count).map { _ in try Sandbox(github: github) }
        #expect(machines[0].run("repo", "add", "octocat/app").status == 0)
        let created = machines[0].run("remote", "init", "--create")
        #expect(created.status == 0, "\(created.stderr)")
        for machine in machines.dropFirst() { #expect(machine.run("remote", "init").status == 0) }
        return (github, machines)
    }

    /// Todos as `text [done]` by section, with the list's order, IDs left out.
    func todos(_ machine: Sandbox) throws -> [String] {
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return [] }
        return sections.map { section in
            let name = (try? section.field("repository").string("fullName")) ?? "?"
            let items = ((try? section.array("todos")) ?? []).map { todo in
                ((try? todo.string("text")) ?? "?") + ((try? todo.bool("done")) == true ? " [done]" : "")
            }
            return "\(name): " + items.joined(separator: ", ")
        }
    }

    func idOf(_ text: String, _ machine: Sandbox) throws -> String {
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return "" }
        for section in sections {
            for todo in (try? section.array("todos")) ?? [] where (try? todo.string("text")) == text {
                return (try? todo.int64("id")).map(String.init) ?? ""
            }
        }
        Issue.record("no todo '\(text)'")
        return ""
    }

    /// Requests to the remote's files (the Git Data API, and the Contents API).
    func remoteRequests(_ github: FakeGitHub) -> [ReceivedRequest] {
        github.requests.filter { $0.path.hasPrefix("/repos/\(Self.data)/git/") || $0.path.contains("/contents/") }
    }

    func refUpdates(_ github: FakeGitHub) -> [ReceivedRequest] {
        github.requests.filter { $0.method == "PATCH" && $0.path.contains("/git/refs/heads/") }
    }

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
        #expect(repositories.count == 2 && repositories[0] == #"{"format":"doogit","version":"4.0"}"#)
        #expect(repositories[1].hasPrefix(#"{"type":"repository","id":1,"fullName":"octocat/app","url":"https://github.com/octocat/app","tracked":true,"clock":{"#))
        let lines = try #require(files["todos/1/1.jsonl"]).split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == #"{"format":"doogit","version":"4.0","repository":"octocat/app"}"#)
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

    @Test(arguments: [true, false])
    func concurrentChangesOnTwoMachinesEndTheSameWhateverTheOrder(aSyncsFirst: Bool) throws {
        let (_, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["fields", "same field", "removed here", "flip"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        // Different fields of one todo; one field on both; a removal and an edit; done and undo.
        #expect(a.run("todo", "edit", try idOf("fields", a), "fields, edited on a").status == 0)
        #expect(b.run("todo", "done", try idOf("fields", b)).status == 0)
        #expect(a.run("todo", "edit", try idOf("same field", a), "same field, a").status == 0)
        #expect(b.run("todo", "edit", try idOf("same field", b), "same field, b").status == 0)
        #expect(a.run("todo", "rm", try idOf("removed here", a)).status == 0)
        #expect(b.run("todo", "edit", try idOf("removed here", b), "edited elsewhere").status == 0)
        #expect(a.run("todo", "done", try idOf("flip", a)).status == 0)
        #expect(b.run("todo", "done", try idOf("flip", b)).status == 0)
        #expect(b.run("todo", "undo", try idOf("flip", b)).status == 0)
        let order = aSyncsFirst ? [a, b, a] : [b, a, b]
        for machine in order { #expect(machine.run("sync").status == 0) }
        let expected = try todos(a)
        #expect(try todos(b) == expected)
        #expect(expected.count == 1)
        let items = expected[0]
        #expect(items.contains("fields, edited on a [done]"))
        #expect(items.contains("same field, b"), "the later edit (b's) wins")
        #expect(!items.contains("removed here") && !items.contains("edited elsewhere"))
        #expect(items.contains("flip") && !items.contains("flip [done]"), "b's undo came last")
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

    /// Both machines write at once: the first one's move of the branch is held until the second's
    /// sync is done, so it is not a fast forward (422), and the first reads, merges and writes again.
    @Test(arguments: [false, true])
    func twoMachinesWritingAtOnceBothKeepEverything(fileExists: Bool) throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        if fileExists {
            #expect(a.run("sync").status == 0)
            #expect(b.run("sync").status == 0)
        }
        #expect(a.run("todo", "add", "-R", "app", "from a").status == 0)
        #expect(b.run("repo", "add", "octocat/site").status == 0)
        #expect(b.run("todo", "add", "-R", "site", "from b").status == 0)
        github.resetCounters()
        let arrived = Event(), release = Event()
        let first = Counter()
        github.script { request in
            guard request.method == "PATCH", request.path.contains("/git/refs/heads/"), first.next() == 1 else { return nil }
            arrived.signal()
            _ = release.wait(seconds: 60)
            return nil
        }
        defer { release.signal() }
        let held = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: a.environment)
        try #require(arrived.wait(seconds: 60), "a's write never arrived")
        let other = b.run("sync")
        #expect(other.status == 0, "\(other.stderr)")
        release.signal()
        let lost = held.finish(timeoutSeconds: 60)
        #expect(lost.status == 0, "\(lost.stderr)")
        #expect(refUpdates(github).count == 3, "a's held write, b's, a's retry")
        #expect(b.run("sync").status == 0)
        #expect(try todos(a) == todos(b))
        #expect(try todos(a) == ["octocat/app: from a", "octocat/site: from b"])
    }

    /// `kill -9` at each step of a sync: while it reads, once the merge is committed here but not
    /// written there (its commit made, the branch not moved), and once GitHub moved the branch but
    /// the answer has not arrived.
    @Test(arguments: ["read", "write", "answer"])
    func aSyncKilledAtEachStepLosesNothing(step: String) throws {
        let (github, machines) = try machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "from a").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "later from a").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("todo", "add", "-R", "app", "from b").status == 0)
        let arrived = Event(), release = Event()
        let hold = AnswerHold()
        if step == "answer" {
            // GitHub moves the branch; the answer never comes.
            github.dropNextRefUpdate(Self.data, with: .holdAfterProcessing(hold))
        } else {
            github.script { request in
                let reading = request.method == "GET" && request.path.contains("/git/trees/")
                let moving = request.method == "PATCH" && request.path.contains("/git/refs/heads/")
                guard (step == "read" && reading) || (step == "write" && moving) else { return nil }
                arrived.signal()
                _ = release.wait(seconds: 60)
                return ServerResponse(status: 500).hangingUp()
            }
        }
        defer { release.signal(); hold.releaseAnswer() }
        let sync = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: b.environment)
        try #require(step == "answer" ? hold.waitForArrival(seconds: 60) : arrived.wait(seconds: 60))
        sync.kill()
        _ = sync.finish(timeoutSeconds: 10)
        release.signal()
        hold.releaseAnswer()
        github.script(nil)
        #expect(try Database(path: b.databasePath).scalarString("PRAGMA integrity_check") == "ok")
        let afterKill = try todos(b)
        #expect(afterKill.first?.contains("from b") == true, "the local todo is kept")
        if step != "read" {
            #expect(afterKill == ["octocat/app: from a, later from a, from b"] || afterKill == ["octocat/app: from a, from b, later from a"],
                    "the merge was committed before the write: \(afterKill)")
        }
        #expect(b.run("sync").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(try todos(a).first.map { $0.split(separator: ",").count } == 3)
        #expect(try todos(b) == todos(a))
    }

    @Test func threeMachinesWithRandomChangesAndSyncsConverge() throws {
        let (_, machines) = try machines(3)
        var random = SplitMix64(seed: 0xD006_1710)
        for machine in machines { #expect(machine.run("sync").status == 0) }
        var operations = 0
        for round in 0..<12 {
            for (index, machine) in machines.enumerated() {
                let ids = (try? JSONParser.parse(machine.run("todo", "list", "--json").stdout))
                    .map { json -> [String] in
                        guard case .array(let sections) = json else { return [] }
                        return sections.flatMap { (try? $0.array("todos")) ?? [] }.compactMap { try? $0.int64("id") }.map(String.init)
                    } ?? []
                let pick = ids.isEmpty ? nil : ids[Int.random(in: 0..<ids.count, using: &random)]
                let arguments: [String]
                switch (Int.random(in: 0..<10, using: &random), pick) {
                case (0..<3, _), (_, nil): arguments = ["todo", "add", "-R", "app", "m\(index) r\(round)"]
                case (3..<5, let id?): arguments = ["todo", "edit", id, "edited by m\(index) r\(round)"]
                case (5, let id?): arguments = ["todo", "done", id]
                case (6, let id?): arguments = ["todo", "undo", id]
                case (7, let id?): arguments = ["todo", "rm", id]
                default: arguments = ["sync", "--quiet"]
                }
                let result = machine.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                operations += 1
            }
        }
        for _ in 0..<2 {
            var order = Array(machines.indices)
            order.shuffle(using: &random)
            for index in order { #expect(machines[index].run("sync", "--quiet").status == 0) }
        }
        let expected = try todos(machines[0])
        #expect(!expected.isEmpty)
        for machine in machines.dropFirst() { #expect(try todos(machine) == expected) }
        #expect(operations == 36)
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
