import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The remote on a GitHub that behaves as the real one does where it differs from a simple
/// model: a repository that also holds the user's scripts, notes, symlinks and submodules; a
/// replica that lags a write; a repository made public; a default branch that moves; clocks
/// that run ahead of GitHub's.
@Suite(.serialized)
struct RemoteAsGitHubHoldsItTests {
    static let notes = "octocat/notes"
    static let submodule = String(repeating: "5a", count: 20)

    /// The user's own files in their notes repository: an executable, a folder of notes, a
    /// symlink, a submodule and a README.
    static let userFiles: [String: FakePathChange] = [
        "setup.sh": .text("#!/bin/sh\necho set up\n", mode: .executable),
        "notes/a.md": .text("# a\n"), "notes/deep/b.md": .text("# b\n"),
        "latest": .text("notes/a.md", mode: .symlink),
        "vendor/lib": .submodule(commit: submodule),
        "README.md": .text("# notes\n"),
    ]

    func world(_ count: Int) throws -> (FakeGitHub, [Sandbox]) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        github.addRepository(id: 50, name: "notes", description: "my notes", isPrivate: true)
        github.contents.commitEntries(Self.notes, Self.userFiles, message: "My notes")
        let machines = try (0..<count).map { _ in try Sandbox(github: github) }
        for machine in machines { #expect(machine.run("repo", "add", "octocat/app").status == 0) }
        return (github, machines)
    }

    /// The user's files as the branch holds them now (mode and object).
    func userEntries(_ github: FakeGitHub) -> [String: String] {
        github.contents.entries(Self.notes).filter { Self.userFiles[$0.key] != nil }.mapValues { "\($0.mode) \($0.sha)" }
    }

    @Test func aRemoteThatAlsoHoldsTheUsersFilesKeepsEveryOneThroughEveryWrite() throws {
        let (github, machines) = try world(2)
        let (a, b) = (machines[0], machines[1])
        let before = userEntries(github)
        #expect(before.count == Self.userFiles.count)

        // Doogit does not write among someone's files without being asked.
        let refused = a.run("remote", "init", Self.notes)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("octocat/notes already holds files of its own (README.md, latest, notes/, setup.sh and 1 more)"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("'doogit remote init octocat/notes --shared'"))
        #expect(a.run("remote", "status").stdout.contains("No remote"), "nothing was set")
        let shared = a.run("remote", "init", Self.notes, "--shared")
        #expect(shared.status == 0 && shared.stdout.contains("on master, beside its other files"), "\(shared.stdout)\(shared.stderr)")

        // Writes from two machines: adds, a finish, an edit, a removal, a repository's settings.
        #expect(a.run("todo", "add", "-R", "app", "write the notes").status == 0)
        #expect(a.run("sync").status == 0)
        // A machine that joins a remote doogit already writes needs no flag.
        let joined = b.run("remote", "init", Self.notes)
        #expect(joined.status == 0, "\(joined.stderr)")
        for step in [["todo", "add", "-R", "app", "from b"], ["todo", "done", "1"], ["repo", "set", "app", "--commits", "off"]] {
            #expect(b.run(step).status == 0)
            let synced = b.run("sync")
            #expect(synced.status == 0, "\(synced.stderr)")
        }
        for step in [["todo", "edit", "1", "write the notes, edited"], ["todo", "rm", "2"], ["todo", "add", "-R", "app", "last"]] {
            #expect(a.run(step).status == 0)
            #expect(a.run("sync").status == 0)
        }
        #expect(b.run("sync").status == 0)
        #expect(github.contents.writes >= 6)
        #expect(userEntries(github) == before, "every file of the user's, with its mode, through every write")
        let files = github.contents.files(Self.notes).keys
        #expect(files.contains("repositories.jsonl") && files.contains("remote.jsonl") && files.contains("todos/1/1.jsonl"))
        let texts = { (machine: Sandbox) throws -> [String] in
            guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout),
                  let first = sections.first else { return [] }
            return try first.array("todos").map { try $0.string("text") }
        }
        #expect(try texts(a) == ["write the notes, edited", "last"])
        #expect(try texts(b) == texts(a))
    }

    @Test func aTreeThatWouldDropFilesIsNeverCommitted() throws {
        let (github, machines) = try world(1)
        let a = machines[0]
        #expect(a.run("remote", "init", Self.notes, "--shared").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "first").status == 0)
        #expect(a.run("sync").status == 0)
        let head = github.contents.head(Self.notes)
        let before = userEntries(github)

        // A tree made without its base (as a write that forgot it would be) holds only the
        // files written: the branch must not move to it.
        #expect(a.run("todo", "add", "-R", "app", "second").status == 0)
        github.contents.ignoreBaseTreeOfNextTreeWrite(Self.notes)
        let guarded = a.run("sync")
        #expect(guarded.status == 1)
        #expect(guarded.stderr.contains("doogit did not write to octocat/notes: the commit it made would have removed or changed files it did not mean to touch (README.md, latest, notes and"),
                "\(guarded.stderr)")
        #expect(guarded.stderr.contains("Run 'doogit sync' again"))
        #expect(github.contents.head(Self.notes) == head, "the branch did not move")
        #expect(userEntries(github) == before)

        // As the message says: the next sync sends what waited.
        let again = a.run("sync")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(userEntries(github) == before)
        #expect(github.contents.file(Self.notes, "todos/1/1.jsonl")?.text.contains("second") == true)
    }

    @Test func aReplicaThatLagsIsWaitedForAndNeverTakenForAGoneRemote() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        machines.syncAll([0, 1])
        // Right after a's write, b's first read of the new commit meets a replica that lags once.
        #expect(a.run("todo", "add", "-R", "app", "one").status == 0)
        machines.github.contents.lagReadsOfNextWrite(Machines.data, count: 1)
        machines.syncAll([0])
        let caughtUp = b.run("sync")
        #expect(caughtUp.status == 0, "\(caughtUp.stderr)")
        #expect(try machines.list(b) == ["octocat/app: one"])

        // A replica that lags longer: try again later, and nothing is said about making it again.
        #expect(a.run("todo", "add", "-R", "app", "two").status == 0)
        machines.github.contents.lagReadsOfNextWrite(Machines.data, count: 100)
        machines.syncAll([0])
        let lagging = b.run("sync")
        #expect(lagging.status == 75)
        #expect(lagging.stderr.contains("GitHub cannot show the latest commit of octocat/doogit-data yet"), "\(lagging.stderr)")
        #expect(lagging.stderr.contains("Try again in a minute") && !lagging.stderr.contains("--create"))
        machines.github.contents.lagReadsOfNextWrite(Machines.data, count: 0)
        machines.syncAll([1])
        #expect(try machines.list(b) == ["octocat/app: one, two"])
    }

    @Test func aRemoteMadePublicIsSaidOnEveryMachineAtEverySync() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "private thought").status == 0)
        machines.syncAll([0, 1, 0, 1])
        let id = try #require(machines.github.repositoryNamed(Machines.data)?.id)
        machines.github.update(id) { $0.isPrivate = false }
        let writes = machines.github.contents.writes

        // b has nothing to send, and says it anyway, every time; the check is a conditional read.
        for round in 0..<2 {
            machines.github.resetCounters()
            let said = b.run("sync")
            #expect(said.status == 1, "round \(round)")
            #expect(said.stderr.contains("octocat/doogit-data is public now, and anyone could read your todos there"), "\(said.stderr)")
            if round == 1 { #expect(machines.github.rateLimitUsed == 0, "an unchanged repository costs nothing to check") }
        }
        // a has something to send: nothing is written.
        #expect(a.run("todo", "add", "-R", "app", "another").status == 0)
        #expect(a.run("sync").status == 1)
        #expect(machines.github.contents.writes == writes)

        machines.github.update(id) { $0.isPrivate = true }
        machines.syncAll([0, 1])
        #expect(try machines.list(b) == ["octocat/app: private thought, another"])
    }

    @Test func theBranchBelongsToTheRemoteWhateverTheDefaultBranchBecomes() throws {
        let machines = try Machines(3)
        let (a, b, c) = (machines[0], machines[1], machines[2])
        let github = machines.github
        let id = try #require(github.repositoryNamed(Machines.data)?.id)
        // Before anyone wrote, the default branch moves to a new branch, which holds no todos.
        github.contents.createBranch(Machines.data, "trunk")
        github.update(id) { $0.defaultBranch = "trunk" }
        // a set its remote on master; c joins now, on trunk, where there is nothing of doogit's yet.
        let joined = c.run("remote", "init")
        #expect(joined.status == 0 && joined.stdout.contains("(on trunk)"), "\(joined.stdout)\(joined.stderr)")
        #expect(a.run("todo", "add", "-R", "app", "from a").status == 0)
        machines.syncAll([0])
        #expect(github.contents.file(Machines.data, "remote.jsonl")?.text.contains("\"branch\":\"master\"") == true)

        // c's first exchange finds the branch a writes; b, set up before, stays on it too.
        #expect(c.run("todo", "add", "-R", "app", "from c").status == 0)
        machines.syncAll([2, 1, 0])
        for machine in [a, b, c] {
            #expect(try machines.list(machine) == ["octocat/app: from a, from c"])
            #expect(machine.run("remote", "status").stdout.contains("master"))
        }
        #expect(github.contents.files(Machines.data, branch: "trunk") == ["README.md": "# doogit-data\n"],
                "nothing written on the new default branch")

        // A machine that joins later finds the files by what remote.jsonl names.
        let late = try Sandbox(github: github)
        #expect(late.run("repo", "add", "octocat/app").status == 0)
        let found = late.run("remote", "init")
        #expect(found.status == 0 && found.stdout.contains("(on master)"), "\(found.stdout)\(found.stderr)")
        #expect(late.run("sync").status == 0)
        #expect(try machines.list(late) == ["octocat/app: from a, from c"])
    }

    @Test func aClockAheadOfGitHubsReceivesNothingFalseAndKeepsOneOrder() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        // GitHub's time is 20 minutes behind these machines' clocks.
        machines.github.contents.setDate(Date().addingTimeInterval(-20 * 60))
        for text in ["first", "second", "third", "fourth"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        let first = a.run("sync")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.contains("received"), "nothing came from elsewhere: \(first.stdout)")
        #expect(first.stderr.contains("ahead"), "the clock is named: \(first.stderr)")
        let order = ["octocat/app: first, second, third, fourth"]
        for _ in 0..<3 {
            let listA = try machines.list(a)
            #expect(listA == order, "\(listA)")
            machines.syncAll([1, 0])
            let listB = try machines.list(b)
            #expect(listB == order, "\(listB)")
        }
    }
}
