import DoogitSupport
import Testing
import TestSupport

/// Who added, finished and is assigned each todo, as two people see it who keep their todos in
/// one remote: the logins of their tokens, exchanged with the todos.
@Suite(.serialized)
struct WhoEndToEndTests: RemoteEndToEndSuite {
    /// A todo's `author`, `finishedBy` and `assignee` as `todo list --json` gives them, by text.
    private func who(_ machine: Sandbox) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return [:] }
        for section in sections {
            for todo in try section.array("todos") {
                found[try todo.string("text")] = ["author", "finishedBy", "assignee"].map { key in
                    (try? todo.string(key)) ?? "-"
                }
            }
        }
        return found
    }

    @Test func twoPeopleSeeWhoAddedFinishedAndIsAssignedEachTodo() throws {
        let (github, machines) = try machines(1)
        let owner = machines[0]
        #expect(owner.run("todo", "add", "-R", "app", "from before").status == 0)
        // Before doogit has seen the token's login, --mine says so and what to do; the advice works.
        let unknown = owner.run("todo", "list", "--mine")
        #expect(unknown.status == 1 && unknown.stderrLines.count == 1, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("doogit does not know your GitHub login yet") && unknown.stderr.contains("doogit auth status"))
        #expect(owner.run("auth", "status").status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "write the notes").status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "review the fix", "pri:H", "--assignee", "@hubot").status == 0)
        #expect(try who(owner) == ["from before": ["-", "-", "-"], "write the notes": ["octocat", "-", "-"],
                                   "review the fix": ["octocat", "-", "hubot"]])
        let list = owner.run("todo", "list").stdout
        #expect(list.contains("(H) review the fix  @hubot\n") && list.contains("write the notes\n") && !list.contains("@octocat"), "\(list)")
        #expect(try texts(owner.run("todo", "list", "--mine", "--json").stdout) == ["from before", "write the notes"])
        // Mine first, then the others', though theirs is more urgent.
        let next = owner.run("next").stdout.split(separator: "\n")
        #expect(next.count == 3 && next[2].contains("review the fix"), "\(next)")
        #expect(owner.run("sync").status == 0)

        // The other person, with write access to the remote and the repository.
        let data = try #require(github.repositoryNamed(Self.data))
        let hubot = github.addUser(login: "hubot")
        github.addCollaborator("hubot", to: 1, permission: .write)
        github.addCollaborator("hubot", to: data.id, permission: .write)
        let other = try Sandbox(github: github)
        other.environment["GH_TOKEN"] = hubot.token
        #expect(other.run("repo", "add", "octocat/app").status == 0)
        #expect(other.run("remote", "init", Self.data).status == 0)
        let joined = other.run("sync")
        #expect(joined.status == 0, "\(joined.stderr)")
        let seen = other.run("todo", "list").stdout
        #expect(seen.contains("write the notes  @octocat\n") && seen.contains("(H) review the fix\n"), "\(seen)")
        #expect(try texts(other.run("todo", "list", "--mine", "--json").stdout) == ["review the fix", "from before"])
        let review = try idOf("review the fix", other)
        let done = other.run("todo", "done", review)
        #expect(done.status == 0 && done.stdout.contains("review the fix"))
        #expect(other.run("sync").status == 0)

        #expect(owner.run("sync").status == 0)
        #expect(try who(owner) == ["from before": ["-", "-", "-"], "write the notes": ["octocat", "-", "-"],
                                   "review the fix": ["octocat", "hubot", "hubot"]])
        let shown = owner.run("todo", "show", try idOf("review the fix", owner)).stdout
        #expect(shown.contains("Added by     @octocat\n") && shown.contains("Finished by  @hubot\n")
                && shown.contains("Assigned to  @hubot\n"), "\(shown)")
        // Assigned to oneself and back to nobody; reopened, nobody finished it.
        let notes = try idOf("write the notes", owner)
        #expect(owner.run("todo", "assign", notes, "@me").status == 0)
        #expect(owner.run("todo", "unassign", try idOf("review the fix", owner)).status == 0)
        #expect(owner.run("todo", "undo", try idOf("review the fix", owner)).status == 0)
        #expect(try who(owner) == ["from before": ["-", "-", "-"], "write the notes": ["octocat", "-", "octocat"],
                                   "review the fix": ["octocat", "-", "-"]])
        #expect(owner.run("sync").status == 0 && other.run("sync").status == 0)
        #expect(try who(other) == who(owner))
    }

    @Test func aLoginThatIsNoneIsRefusedAndChangesNothing() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "app", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/app").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "app", "a todo").status == 0)
        let before = try sandbox.snapshot()
        for bad in [["todo", "assign", "1", "not a login"], ["todo", "assign", "1", "--", "-dash"], ["todo", "assign", "1", "evil\u{1B}[2J"],
                    ["todo", "edit", "1", "--assignee", "a b"], ["todo", "add", "-R", "app", "x", "--assignee", "@"]] {
            let refused = sandbox.run(bad)
            #expect(refused.status == 2 && refused.stderrLines.count == 1, "\(bad): \(refused.stderr)")
            #expect(refused.stderr.contains("is not a GitHub login") && !refused.stderr.contains("\u{1B}"), "\(refused.stderr)")
        }
        let forgotten = sandbox.run("todo", "assign", "1", "4")
        #expect(forgotten.status == 2 && forgotten.stderrLines.count == 1 && forgotten.stderr.contains("'4' reads as a todo ID"),
                "\(forgotten.stderr)")
        let me = sandbox.run("todo", "assign", "1", "@me")
        #expect(me.status == 1 && me.stderr.contains("doogit does not know your GitHub login yet"), "\(me.stderr)")
        #expect(sandbox.run("todo", "assign", "9", "octocat").status == 1)
        #expect(try sandbox.snapshot() == before)
        // The first sync learns the login; then @me is it.
        #expect(sandbox.run("sync").status == 0)
        #expect(sandbox.run("todo", "assign", "1", "@me").status == 0)
        #expect(sandbox.run("todo", "show", "1", "--json").stdout.contains(#""assignee":"octocat""#))
        // A todo added with its issue has its author and assignee too.
        let withIssue = sandbox.run("--json", "todo", "add", "-R", "app", "--issue", "crash on start", "--assignee", "hubot")
        #expect(withIssue.status == 0 && withIssue.stdout.contains(#""author":"octocat""#)
                && withIssue.stdout.contains(#""assignee":"hubot""#), "\(withIssue.stdout)|\(withIssue.stderr)")
    }

    @Test func anotherAccountsTokenIsAskedWhoseItIsOnce() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "app", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/app").status == 0)
        #expect(sandbox.run("sync").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "app", "from octocat").status == 0)
        #expect(sandbox.run("todo", "show", "1", "--json").stdout.contains(#""author":"octocat""#))
        // Another account's token: the next sync asks whose it is, once.
        let hubot = sandbox.github.addUser(login: "hubot")
        sandbox.github.addCollaborator("hubot", to: 1, permission: .write)
        sandbox.environment["GH_TOKEN"] = hubot.token
        sandbox.github.resetCounters()
        #expect(sandbox.run("sync").status == 0)
        #expect(sandbox.github.requests.filter { $0.path == "/user" }.count == 1)
        #expect(sandbox.run("todo", "add", "-R", "app", "from hubot").status == 0)
        #expect(sandbox.run("todo", "show", "2", "--json").stdout.contains(#""author":"hubot""#))
        sandbox.github.resetCounters()
        #expect(sandbox.run("sync").status == 0)
        #expect(!sandbox.github.requests.contains { $0.path == "/user" }, "the same token: not asked again")
    }

    private func texts(_ json: String) throws -> [String] {
        guard case .array(let sections) = try JSONParser.parse(json) else { return [] }
        return try sections.flatMap { try $0.array("todos").map { try $0.string("text") } }
    }
}
