import DoogitSupport
import Foundation
import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// Moving todos between repositories and taking back what was removed or cleared, with IDs as
/// lists, ranges and hashes.
@Suite struct MoveAndRestoreTests: DailyUseSuite {
    @Test func moveKeepsIDsAndUUIDs() throws {
        let harness = try harness()
        let before = try harness.openStore().requireTodos([1, 2])
        let moved = harness.run("todo", "move", "1,2", "-R", "widgets")
        #expect(moved.code == 0)
        #expect(moved.stdout == "Moved 1 2 to acme/widgets\n")
        let after = try harness.openStore().requireTodos([1, 2])
        #expect(after.map(\.uuid) == before.map(\.uuid))
        #expect(after.allSatisfy { $0.repositoryID == Self.widgets.id })
        #expect(try texts(harness) == ["acme/widgets": ["ship it", "write the Release notes", "set up CI"]])

        let snapshot = try texts(harness)
        let unknown = harness.run("todo", "move", "3", "99", "-R", "Hello-World")
        #expect(unknown.code == 1)
        #expect(unknown.stderr.hasPrefix("doogit: error: no todo with ID 99"))
        #expect(try texts(harness) == snapshot, "nothing moved")
        let untracked = harness.run("todo", "move", "3", "-R", "nobody/nothing")
        #expect(untracked.code == 1)
        #expect(untracked.stderr.contains("run 'doogit repo add nobody/nothing' first"))
        #expect(harness.run("todo", "move", "3", "-R", "Hello-World", "--json").stdout.contains("\"repository\":\"octocat/Hello-World\""))
    }

    @Test func removedTodosCanBeRestored() throws {
        let harness = try harness()
        let removed = harness.run("todo", "rm", "1-3")
        #expect(removed.stdout == """
            Removed 1  set up CI
            Removed 2  write the Release notes
            Removed 3  ship it
            To take them back: doogit todo restore 1-3

            """)
        #expect(try texts(harness).isEmpty)
        #expect(harness.run("todo", "rm", "1", "-q").code == 1, "already removed")
        let restored = harness.run("todo", "restore", "#1", "3")
        #expect(restored.code == 0)
        #expect(restored.stdout == "Restored 1 to octocat/Hello-World  set up CI\nRestored 3 to acme/widgets  ship it\n")
        #expect(try harness.openStore().requireTodos([1])[0].done, "its state comes back too")
        let again = harness.run("todo", "restore", "1", "2")
        #expect(again.code == 1)
        #expect(again.stderr.hasPrefix("doogit: error: nothing to restore as ID 1"))
        #expect(try texts(harness)["octocat/Hello-World"] == ["set up CI"], "nothing changed")
    }

    @Test func clearRemovesDoneTodosRestorably() throws {
        let harness = try harness()
        _ = try harness.openStore().setDone([3], done: true, at: Fixture.t3)
        // The current checkout's repository, by default.
        try harness.writeFile("checkout/.git/config", "[remote \"origin\"]\n\turl = https://github.com/octocat/Hello-World\n")
        let cleared = harness.run(["todo", "clear"], currentDirectory: harness.directory.path + "/checkout")
        #expect(cleared.stdout == "Cleared 1 done todo of octocat/Hello-World\nTo take it back: doogit todo restore 1\n")
        #expect(try texts(harness) == ["octocat/Hello-World": ["write the Release notes"], "acme/widgets": ["ship it"]])
        #expect(harness.run("todo", "clear", "Hello-World").stdout == "No done todos of octocat/Hello-World to clear\n")
        #expect(harness.run("todo", "clear", "--all").stdout == "Cleared 1 done todo\nTo take it back: doogit todo restore 3\n")
        #expect(harness.run("todo", "restore", "1", "3").code == 0)
        #expect(try texts(harness) == ["octocat/Hello-World": ["write the Release notes", "set up CI"], "acme/widgets": ["ship it"]])
        let nowhere = harness.run("todo", "clear")
        expectUsageError(nowhere, topic: "todo clear")
        expectUsageError(harness.run("todo", "clear", "widgets", "--all"), topic: "todo clear")
    }

    @Test func idsAsListsRangesAndHashesEverywhere() throws {
        let harness = try harness()
        #expect(harness.run("todo", "done", "2,3").stdout == "  ● 2  write the Release notes\n  ● 3  ship it\n")
        #expect(harness.run("todo", "undo", "#2", "#3").code == 0)
        #expect(harness.run("todo", "edit", "#2", "notes").stdout == "  ○ 2  notes\n")
        expectUsageError(harness.run("todo", "edit", "1-2", "x"), topic: "todo edit")
        let huge = harness.run("todo", "done", "1-100000")
        expectUsageError(huge, topic: "todo done")
        #expect(huge.stderr.contains("more than 10000 todo IDs"))
    }
}
