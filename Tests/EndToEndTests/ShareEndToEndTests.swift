import DoogitSupport
import Testing
import TestSupport

/// Shared todos (`repo share`), as people who share a repository see them: the owner and a
/// collaborator of a private repository, a reader of a public one without push access, each in
/// a HOME of their own against one loopback GitHub.
@Suite(.serialized)
struct ShareEndToEndTests: RemoteEndToEndSuite {
    static let app = "octocat/app"
    static let branch = "doogit-todos"

    /// A GitHub whose octocat/app (id 1) has a commit on its default branch, and a machine of
    /// octocat's that tracks it and knows its login.
    private func owner(private isPrivate: Bool = true) throws -> (FakeGitHub, Sandbox) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app", isPrivate: isPrivate)
        github.addRepository(id: 2, name: "site", description: nil, isPrivate: true)
        github.contents.commitFiles(Self.app, ["README.md": "# app\n"], message: "First commit")
        let owner = try Sandbox(github: github)
        #expect(owner.run("repo", "add", Self.app, "octocat/site").status == 0)
        #expect(owner.run("auth", "status").status == 0)
        return (github, owner)
    }

    /// Another person's machine, with the token of `login`, tracking octocat/app.
    private func person(_ login: String, _ github: FakeGitHub, permission: FakeGitHub.Permission?) throws -> Sandbox {
        let user = github.addUser(login: login)
        if let permission { github.addCollaborator(login, to: 1, permission: permission) }
        let machine = try Sandbox(github: github)
        machine.environment["GH_TOKEN"] = user.token
        #expect(machine.run("repo", "add", Self.app).status == 0)
        #expect(machine.run("auth", "status").status == 0)
        return machine
    }

    /// Each todo of octocat/app as `text [done] author/finishedBy/assignee`, sorted.
    private func shared(_ machine: Sandbox) throws -> [String] {
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return [] }
        var found: [String] = []
        for section in sections where (try? section.field("repository").string("fullName")) == Self.app {
            for todo in try section.array("todos") {
                let who = ["author", "finishedBy", "assignee"].map { (try? todo.string($0)) ?? "-" }.joined(separator: "/")
                found.append(try todo.string("text") + ((try? todo.bool("done")) == true ? " [done] " : " ") + who)
            }
        }
        return found.sorted()
    }

    @Test func theOwnerAndACollaboratorShareAPrivateRepositorysTodosBothWays() throws {
        let (github, owner) = try owner()
        let code = try #require(github.contents.head(Self.app))
        #expect(owner.run("todo", "add", "-R", "app", "write the release notes").status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "set up CI").status == 0)
        #expect(owner.run("todo", "add", "-R", "site", "not shared").status == 0)
        let shared = owner.run("repo", "share", Self.app)
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(shared.stdout.contains("Sharing the todos of octocat/app with everyone who can read octocat/app, on its branch doogit-todos"),
                "\(shared.stdout)")
        // An orphan branch holding doogit's files for this one repository; the code's branch unchanged.
        let files = github.contents.files(Self.app, branch: Self.branch)
        #expect(Set(files.keys) == ["todos.jsonl", "remote.jsonl", "todos/1/1.jsonl"], "\(files.keys)")
        #expect(github.contents.commits(Self.app, branch: Self.branch) == 1)
        #expect(!(files["todos/1/1.jsonl"] ?? "").contains("not shared") && !(files["remote.jsonl"] ?? "").contains("site"))
        #expect(github.contents.head(Self.app) == code)

        // Tracking the repository, the collaborator is told once that it has shared todos, and how to see them.
        let hubotUser = github.addUser(login: "hubot")
        github.addCollaborator("hubot", to: 1, permission: .write)
        let hubot = try Sandbox(github: github)
        hubot.environment["GH_TOKEN"] = hubotUser.token
        let told = hubot.run("repo", "add", Self.app)
        #expect(told.status == 0 && told.stdout.contains(
            "octocat/app has shared todos (its branch doogit-todos); 'doogit repo share octocat/app' shows them here"), "\(told.stdout)")
        #expect(hubot.run("auth", "status").status == 0)
        #expect(!hubot.run("sync").stdout.contains("has shared todos"), "said once")
        // They join with the same command, and see the todos with their author.
        let joined = hubot.run("repo", "share", Self.app)
        #expect(joined.status == 0 && joined.stdout.contains("received 2 changes"), "\(joined.stdout)|\(joined.stderr)")
        #expect(try self.shared(hubot) == ["set up CI octocat/-/-", "write the release notes octocat/-/-"])
        #expect(hubot.run("todo", "list").stdout.contains("set up CI  @octocat"))
        #expect(hubot.run("todo", "done", try idOf("set up CI", hubot)).status == 0)
        #expect(hubot.run("todo", "add", "-R", "app", "review the fix", "--assignee", "@octocat").status == 0)
        let sent = hubot.run("sync")
        #expect(sent.status == 0 && sent.stdout.contains("octocat/app (shared): sent 2 changes"), "\(sent.stdout)|\(sent.stderr)")

        let received = owner.run("sync")
        #expect(received.status == 0 && received.stdout.contains("octocat/app (shared): received 2 changes"),
                "\(received.stdout)|\(received.stderr)")
        #expect(try self.shared(owner) == ["review the fix hubot/-/octocat", "set up CI [done] octocat/hubot/-",
                                            "write the release notes octocat/-/-"])
        #expect(try texts(owner.run("todo", "list", "--mine", "--json").stdout).contains("review the fix"))
        let show = owner.run("todo", "show", try idOf("set up CI", owner)).stdout
        #expect(show.contains("Finished by  @hubot"), "\(show)")

        // Settled: each side's sync reads the branch conditionally and writes nothing.
        #expect(hubot.run("sync").status == 0)
        let head = github.contents.head(Self.app, branch: Self.branch)
        github.resetCounters()
        let settled = owner.run("sync")
        #expect(settled.status == 0 && settled.stdout.isEmpty, "\(settled.stdout)|\(settled.stderr)")
        #expect(!github.requests.contains { $0.method != "GET" }, "\(github.requests.map { $0.method + " " + $0.path })")
        #expect(github.contents.head(Self.app, branch: Self.branch) == head)
        #expect(github.contents.head(Self.app) == code)

        // Unshared here: the todos stay, the branch stays, and nothing more goes there.
        let unshared = owner.run("repo", "unshare", Self.app)
        #expect(unshared.status == 0 && unshared.stdout.contains("Stopped sharing"), "\(unshared.stderr)")
        #expect(owner.run("todo", "add", "-R", "app", "mine alone").status == 0)
        #expect(owner.run("sync").status == 0)
        #expect(github.contents.head(Self.app, branch: Self.branch) == head)
        #expect(try self.shared(owner).count == 4)
        let again = owner.run("repo", "unshare", Self.app)
        #expect(again.status == 1 && again.stderrLines.count == 1 && again.stderr.contains("not shared from here"), "\(again.stderr)")
    }

    @Test func aReaderWithoutPushAccessSeesTheTodosAndTheirChangesWait() throws {
        let (github, owner) = try owner(private: false)
        // Tracked by the reader before the branch is made: the branch's push is noticed.
        let reader = try person("monalisa", github, permission: nil)
        #expect(reader.run("sync").status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "triage the issues").status == 0)
        // A public repository's todos would be public: asked for, nothing changed until then.
        let refused = owner.run("repo", "share", Self.app)
        #expect(refused.status == 1 && refused.stderrLines.count == 1 && refused.stderr.contains("repo share octocat/app --public"),
                "\(refused.stderr)")
        #expect(github.contents.head(Self.app, branch: Self.branch) == nil)
        let shared = owner.run("repo", "share", Self.app, "--public")
        #expect(shared.status == 0 && shared.stdout.contains("with everyone (octocat/app is public)"), "\(shared.stdout)|\(shared.stderr)")
        let head = try #require(github.contents.head(Self.app, branch: Self.branch))

        let told = reader.run("sync")
        #expect(told.stdout.contains("octocat/app has shared todos"), "\(told.stdout)|\(told.stderr)")
        let joined = reader.run("repo", "share", Self.app, "--public")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try self.shared(reader) == ["triage the issues octocat/-/-"])
        #expect(reader.run("todo", "done", try idOf("triage the issues", reader)).status == 0)
        let waits = reader.run("sync")
        #expect(waits.status == 0, "\(waits.stderr)")
        #expect(waits.stdout.contains("octocat/app (shared): 1 change made here waits: you cannot push to octocat/app; ask its owner for write access"),
                "\(waits.stdout)")
        // Said once; never sent, never lost, and no write is tried again.
        github.resetCounters()
        let quiet = reader.run("sync")
        #expect(quiet.status == 0 && !quiet.stdout.contains("waits"), "\(quiet.stdout)")
        #expect(!github.requests.contains { $0.method != "GET" })
        #expect(github.contents.head(Self.app, branch: Self.branch) == head)
        #expect(try self.shared(reader) == ["triage the issues [done] octocat/monalisa/-"])
        #expect(owner.run("sync").status == 0)
        #expect(try self.shared(owner) == ["triage the issues octocat/-/-"])

        // Given write access, the change that waited goes.
        github.addCollaborator("monalisa", to: 1, permission: .write)
        let goes = reader.run("sync")
        #expect(goes.status == 0 && goes.stdout.contains("sent 1 change"), "\(goes.stdout)|\(goes.stderr)")
        #expect(owner.run("sync").status == 0)
        #expect(try self.shared(owner) == ["triage the issues [done] octocat/monalisa/-"])
    }

    @Test func aRepositoryThatCannotHoldTheBranchIsRefusedWithNothingChanged() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", isPrivate: true)
        github.contents.makeEmptyRepository(Self.app)
        let owner = try Sandbox(github: github)
        #expect(owner.run("repo", "add", Self.app).status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "first").status == 0)
        // No commit yet (GitHub's 409): said what to do; not shared.
        let empty = owner.run("repo", "share", Self.app)
        #expect(empty.status == 1 && empty.stderrLines.count == 1 && empty.stderr.contains("has no commit yet")
                && empty.stderr.contains("push a first commit"), "\(empty.status) \(empty.stdout) \(empty.stderr)")
        github.resetCounters()
        #expect(owner.run("sync").status == 0)
        #expect(!github.requests.contains { $0.method != "GET" }, "not shared: nothing is written")
        #expect(!owner.run("repo", "list").stdout.contains("[shared]"))
        // Untracked: the command to run.
        let untracked = owner.run("repo", "share", "octocat/other")
        #expect(untracked.status == 1 && untracked.stderr.contains("repo add"), "\(untracked.stderr)")
        // Following the advice works.
        github.contents.commitFiles(Self.app, ["README.md": "# app\n"])
        #expect(owner.run("repo", "share", Self.app).status == 0)
        #expect(github.contents.files(Self.app, branch: Self.branch)["todos/1/1.jsonl"]?.contains("first") == true)
    }

    @Test func aProtectedBranchKeepsTheChangeHereWithAClearMessage() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "ship it").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        let hubot = try person("hubot", github, permission: .write)
        #expect(hubot.run("repo", "share", Self.app).status == 0)
        github.protectBranch(Self.branch, of: 1, allowing: ["octocat"])
        #expect(hubot.run("todo", "done", try idOf("ship it", hubot)).status == 0)
        let before = github.contents.head(Self.app, branch: Self.branch)
        let refused = hubot.run("sync")
        #expect(refused.status == 1 && refused.stderrLines.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("doogit-todos is protected against your pushes"), "\(refused.stderr)")
        #expect(github.contents.head(Self.app, branch: Self.branch) == before)
        #expect(try shared(hubot) == ["ship it [done] octocat/hubot/-"])
        github.unprotectBranch(Self.branch, of: 1)
        #expect(hubot.run("sync").status == 0)
        #expect(owner.run("sync").status == 0)
        #expect(try shared(owner) == ["ship it [done] octocat/hubot/-"])
    }

    @Test func whatOthersWriteOnTheBranchIsInput() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "keep me").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        let path = "todos/1/1.jsonl"
        let good = try #require(github.contents.files(Self.app, branch: Self.branch)[path])
        // A line that is not a todo: the exchange fails naming it; the todos here stay.
        github.contents.commitFiles(Self.app, [path: good + "{\"uuid\": 7}\n"], branch: Self.branch)
        let before = try shared(owner)
        let bad = owner.run("sync")
        #expect(bad.status == 1 && bad.stderrLines.count == 1 && bad.stderr.contains("line 3 of its shared todos' file todos/1/1.jsonl"),
                "\(bad.stderr)")
        #expect(try shared(owner) == before)
        // Mended there: the exchange goes on. A text with control characters reaches no terminal as such.
        let escape = good.replacingOccurrences(of: "keep me", with: "keep me\\u001b[2J")
        github.contents.commitFiles(Self.app, [path: escape, "README.md": "not doogit's"], branch: Self.branch)
        let mended = owner.run("sync")
        #expect(mended.status == 0, "\(mended.stderr)")
        let list = owner.run("todo", "list").stdout
        #expect(list.contains("keep me") && !list.contains("\u{1B}[2J"), "\(list)")
        // A path that is not doogit's is left alone by the next write.
        #expect(owner.run("todo", "add", "-R", "app", "one more").status == 0)
        #expect(owner.run("sync").status == 0)
        #expect(github.contents.files(Self.app, branch: Self.branch)["README.md"] == "not doogit's")
    }

    @Test func aTodoMovedOutOfTheSharedRepositoryStaysWhereItWasMoved() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "move me").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        let hubot = try person("hubot", github, permission: .write)
        #expect(hubot.run("repo", "share", Self.app).status == 0)
        #expect(owner.run("todo", "move", try idOf("move me", owner), "-R", "octocat/site").status == 0)
        #expect(owner.run("sync").status == 0)
        // The other side edits it on the branch meanwhile: the move here is not undone.
        #expect(hubot.run("todo", "edit", try idOf("move me", hubot), "move me, edited").status == 0)
        #expect(hubot.run("sync").status == 0)
        #expect(owner.run("sync").status == 0)
        let moved = try todos(owner)
        #expect(moved.contains("octocat/site: move me"), "\(moved)")
        #expect(!(github.contents.files(Self.app, branch: Self.branch)["todos/2/2.jsonl"] != nil), "no file of another repository there")
        // Writing for another reason, the mover leaves its line there as it was: no churn.
        #expect(owner.run("todo", "add", "-R", "app", "another").status == 0)
        #expect(owner.run("sync").status == 0)
        #expect(github.contents.files(Self.app, branch: Self.branch)["todos/1/1.jsonl"]?.contains("move me, edited") == true)
        #expect(hubot.run("sync").status == 0 && owner.run("sync").status == 0)
        let commits = github.contents.commits(Self.app, branch: Self.branch)
        #expect(hubot.run("sync").status == 0 && owner.run("sync").status == 0)
        #expect(github.contents.commits(Self.app, branch: Self.branch) == commits, "settled")
    }

    @Test func whatWasRemovedBeforeSharingStaysHere() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "a secret plan").status == 0)
        #expect(owner.run("todo", "rm", try idOf("a secret plan", owner)).status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "the team's").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        let file = github.contents.files(Self.app, branch: Self.branch)["todos/1/1.jsonl"] ?? ""
        #expect(file.contains("the team's") && !file.contains("secret"), "\(file)")
    }

    @Test func aRepositoryMadePublicIsWrittenNoMoreUntilSharedWithPublic() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "first").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        let head = github.contents.head(Self.app, branch: Self.branch)
        github.update(1) { $0.isPrivate = false }
        #expect(owner.run("todo", "add", "-R", "app", "after it went public").status == 0)
        let refused = owner.run("sync")
        #expect(refused.status == 1 && refused.stderrLines.count == 1 && refused.stderr.contains("it is public now"), "\(refused.stderr)")
        #expect(github.contents.head(Self.app, branch: Self.branch) == head, "nothing written")
        // Its advice works.
        #expect(owner.run("repo", "share", Self.app, "--public").status == 0)
        #expect(github.contents.files(Self.app, branch: Self.branch)["todos/1/1.jsonl"]?.contains("after it went public") == true)
    }

    @Test func aBranchDeletedOnGitHubIsMadeAgainOnlyWhenAsked() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "kept").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        github.activity.deleteBranch(repository: 1, branch: Self.branch)
        let gone = owner.run("sync")
        #expect(gone.status == 1 && gone.stderr.contains("its branch doogit-todos was deleted on GitHub"), "\(gone.stderr)")
        #expect(github.activity.branchDeleted(repository: 1, branch: Self.branch), "not made again by a sync")
        let again = owner.run("repo", "share", Self.app)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!github.activity.branchDeleted(repository: 1, branch: Self.branch))
        #expect(github.contents.files(Self.app, branch: Self.branch)["todos/1/1.jsonl"]?.contains("kept") == true)
    }

    @Test func aWriteThatLosesARaceIsMergedAndTriedAgain() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "first").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "second").status == 0)
        // Another writer's commit lands between this machine's read and its move of the branch.
        github.contents.moveRefBeforeNextUpdate(Self.app, files: ["NOTES.md": "theirs"], branch: Self.branch)
        let commits = github.contents.commits(Self.app, branch: Self.branch)
        let raced = owner.run("sync")
        #expect(raced.status == 0 && raced.stdout.contains("sent 1 change"), "\(raced.stdout)|\(raced.stderr)")
        let files = github.contents.files(Self.app, branch: Self.branch)
        #expect(files["NOTES.md"] == "theirs" && files["todos/1/1.jsonl"]?.contains("second") == true)
        #expect(github.contents.commits(Self.app, branch: Self.branch) == commits + 2)
    }

    @Test func onePersonsTwoMachinesShareThroughTheBranchAndTheirRemote() throws {
        let (github, machines) = try machines(2)
        github.contents.commitFiles(Self.app, ["README.md": "# app\n"], message: "First commit")
        let (laptop, desktop) = (machines[0], machines[1])
        #expect(laptop.run("sync").status == 0 && desktop.run("sync").status == 0)
        #expect(laptop.run("todo", "add", "-R", "app", "from the laptop").status == 0)
        #expect(laptop.run("repo", "share", Self.app, "--public").status == 0)
        #expect(desktop.run("repo", "share", Self.app, "--public").status == 0)
        let hubot = try person("hubot", github, permission: .write)
        #expect(hubot.run("repo", "share", Self.app, "--public").status == 0)
        #expect(hubot.run("todo", "add", "-R", "app", "from hubot").status == 0)
        #expect(hubot.run("sync").status == 0)
        // Each machine takes each todo once, by whichever way it comes first.
        for _ in 0..<2 {
            #expect(laptop.run("sync").status == 0)
            #expect(desktop.run("sync").status == 0)
        }
        #expect(try todos(laptop) == ["octocat/app: from the laptop, from hubot"])
        #expect(try todos(desktop) == todos(laptop))
        // Settled: the branch is read once per sync, conditionally, and nothing is written.
        github.resetCounters()
        let settled = desktop.run("sync")
        #expect(settled.status == 0 && settled.stdout.isEmpty, "\(settled.stdout)")
        #expect(!github.requests.contains { $0.method != "GET" })
        #expect(github.requests.filter { $0.path.hasSuffix("/git/ref/heads/\(Self.branch)") }.count == 1)
    }

    @Test func someoneWhoLosesReadAccessKeepsWhatTheyLastSaw() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "the team's todo").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        let hubot = try person("hubot", github, permission: .write)
        #expect(hubot.run("repo", "share", Self.app).status == 0)
        #expect(hubot.run("repo", "list").stdout.contains("[shared]"))
        github.removeAccess(of: "hubot", to: 1)
        let lost = hubot.run("sync")
        #expect(lost.status == 1 && lost.stderrLines.count == 1, "\(lost.stderr)")
        #expect(lost.stderr.contains("octocat/app: GitHub no longer shows it to you; its shared todos stay here as last seen"),
                "\(lost.stderr)")
        #expect(try shared(hubot) == ["the team's todo octocat/-/-"])
        let list = hubot.run("repo", "list")
        #expect(list.stdout.contains("[shared, unreadable since "), "\(list.stdout)")
        #expect(hubot.run("repo", "list", "--json").stdout.contains(#""shared":true,"sharedUnreadableSince":""#))
        // Its advice works: unshared, the sync goes through again.
        #expect(hubot.run("repo", "unshare", Self.app).status == 0)
        #expect(hubot.run("todo", "list").stdout.contains("the team's todo"))
    }

    @Test func aPrivateTodoInASharedRepositoryStaysTheUsersOwn() throws {
        let (github, machines) = try machines(2)
        github.contents.commitFiles(Self.app, ["README.md": "# app\n"], message: "First commit")
        let (laptop, desktop) = (machines[0], machines[1])
        #expect(laptop.run("sync").status == 0 && desktop.run("sync").status == 0)
        #expect(laptop.run("repo", "share", Self.app, "--public").status == 0)
        #expect(desktop.run("repo", "share", Self.app, "--public").status == 0)
        let hubot = try person("hubot", github, permission: .write)
        #expect(hubot.run("repo", "share", Self.app, "--public").status == 0)
        #expect(laptop.run("todo", "add", "-R", "app", "buy the team a gift", "--private").status == 0)
        #expect(laptop.run("todo", "add", "-R", "app", "for the team").status == 0)
        let show = laptop.run("todo", "show", try idOf("buy the team a gift", laptop)).stdout
        #expect(show.contains("\nPrivate ") && show.contains(" yes: never shared with its repository's team\n"), "\(show)")
        // To this user's other machine through their remote; never to the branch, from either.
        for machine in [laptop, desktop, laptop, desktop] { #expect(machine.run("sync").status == 0) }
        #expect(try todos(desktop) == ["octocat/app: buy the team a gift, for the team"])
        #expect(!(github.contents.files(Self.app, branch: Self.branch)["todos/1/1.jsonl"] ?? "").contains("gift"))
        #expect(hubot.run("sync").status == 0)
        #expect(try todos(hubot) == ["octocat/app: for the team"])
        // Edited while private: still not shared. Shared again: it goes.
        #expect(desktop.run("todo", "edit", try idOf("buy the team a gift", desktop), "buy the team a big gift").status == 0)
        #expect(desktop.run("sync").status == 0)
        #expect(!(github.contents.files(Self.app, branch: Self.branch)["todos/1/1.jsonl"] ?? "").contains("gift"))
        let both = desktop.run("todo", "edit", try idOf("buy the team a big gift", desktop), "--private", "--no-private")
        #expect(both.status == 2 && both.stderr.contains("--private and --no-private cannot be used together"))
        #expect(desktop.run("todo", "edit", try idOf("buy the team a big gift", desktop), "--no-private").status == 0)
        #expect(desktop.run("sync").status == 0)
        #expect(hubot.run("sync").status == 0)
        let seen = try todos(hubot)
        #expect(seen == ["octocat/app: buy the team a big gift, for the team"], "\(seen)")
    }

    @Test func aBranchReadAgainOrMovedByOthersKeepsWhatOthersWrote() throws {
        let (github, owner) = try owner()
        #expect(owner.run("todo", "add", "-R", "app", "first").status == 0)
        #expect(owner.run("repo", "share", Self.app).status == 0)
        // Shared again with nothing new: the branch is listed again, and the next change goes.
        #expect(owner.run("repo", "share", Self.app).status == 0)
        #expect(owner.run("sync").status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "second").status == 0)
        let second = owner.run("sync")
        #expect(second.status == 0 && second.stdout.contains("sent 1 change"), "\(second.stdout)|\(second.stderr)")
        // Another writer's commit that touches no file of doogit's: kept by the next write.
        github.contents.commitFiles(Self.app, ["NOTES.md": "theirs"], branch: Self.branch)
        #expect(owner.run("sync").status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "third").status == 0)
        #expect(owner.run("sync").status == 0)
        let files = github.contents.files(Self.app, branch: Self.branch)
        #expect(files["NOTES.md"] == "theirs" && files["todos/1/1.jsonl"]?.contains("third") == true, "\(files.keys)")
    }

    private func texts(_ json: String) throws -> [String] {
        guard case .array(let sections) = try JSONParser.parse(json) else { return [] }
        return try sections.flatMap { try $0.array("todos").map { try $0.string("text") } }
    }
}
