import DoogitSupport
import Foundation
import Testing
import TestSupport

/// `repo remove --force` on one machine stops tracking the repository on every machine of the
/// remote: the machine that did it says so, the others' syncs say what they removed and how to
/// get it back, and the removed todos (an edit made there meanwhile included) can come back.
@Suite(.serialized)
struct UntrackedElsewhereTests {
    @Test func aRepositoryRemovedWithItsTodosOnOneMachineIsSaidOnTheOthers() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        for text in ["write the docs", "ship it"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        machines.syncAll([0, 1])
        #expect(b.run("todo", "edit", try machines.id("ship it", on: b), "ship it on friday").status == 0)

        let removed = a.run("repo", "remove", "octocat/app", "--force")
        #expect(removed.status == 0)
        #expect(removed.stdout == "Stopped tracking octocat/app and its 2 todos, here and on every machine of the remote "
                + "octocat/doogit-data at its next sync ('doogit repo add octocat/app' and 'doogit todo restore' bring them back)\n",
                "\(removed.stdout)")
        machines.syncAll([0])

        let said = b.run("sync")
        #expect(said.status == 0, "\(said.stderr)")
        #expect(said.stdout.contains("octocat/app: no longer tracked, stopped on another machine with its 2 todos "
                                     + "(1 changed here since the last sync); 'doogit todo list --removed' shows what can come back, "
                                     + "after 'doogit repo add octocat/app'"), "\(said.stdout)")
        #expect(b.run("repo", "list").stdout.isEmpty)
        let json = b.run("sync", "--json").stdout
        #expect(json.contains(#""untracked":[]"#), "said once: \(json)")

        // The removed todos are listed, marked, and come back once the repository is tracked again.
        let listed = b.run("todo", "list", "--removed")
        #expect(listed.stdout.hasPrefix("octocat/app [not tracked]\n"), "\(listed.stdout)")
        #expect(listed.stdout.contains("ship it on friday"), "the edit made here is kept with the todo")
        let id = try #require(listed.stdout.split(separator: "\n").first { $0.contains("ship it on friday") }?
            .split(separator: " ").first { Int($0) != nil })
        let refused = b.run("todo", "restore", String(id))
        #expect(refused.status == 1 && refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("octocat/app is no longer tracked") && refused.stderr.contains("doogit repo add octocat/app"),
                "\(refused.stderr)")
        #expect(b.run("repo", "add", "octocat/app").status == 0)
        let restored = b.run("todo", "restore", String(id))
        #expect(restored.status == 0, "\(restored.stderr)")
        machines.syncAll([1, 0])
        #expect(try machines.list(a) == ["octocat/app: ship it on friday"])
    }
}
