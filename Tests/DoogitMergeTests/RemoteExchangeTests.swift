import DoogitMerge
import DoogitSupport
import Testing

/// The remote in files: an exchange touches only the files of what changed, removals leave once
/// every machine has merged them (or after the horizon), and a machine back from longer away
/// removes what left instead of bringing it back.
@Suite struct RemoteExchangeTests {
    static func uuid(_ number: Int) -> String {
        let digits = String(number, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    @Test func pathsNameTheRepositoryInABucket() {
        #expect(RemoteLayout.todosPath(1296269) == "todos/d/1296269.jsonl")
        #expect(RemoteLayout.repository(ofTodosPath: "todos/d/1296269.jsonl") == 1296269)
        #expect(RemoteLayout.repository(ofTodosPath: "todos/0/1296269.jsonl") == nil, "not in its bucket")
        #expect(RemoteLayout.repository(ofTodosPath: "todos.jsonl") == nil)
        #expect(RemoteLayout.repository(ofTodosPath: "todos/d/x.jsonl") == nil)
    }

    /// A todo on both sides merges to the same entry whichever side holds more todos (the plan
    /// merges the smaller side into the larger), even where the copies differ only in an
    /// observation's labels at one stamp.
    @Test func aTodoOnBothSidesMergesAlikeWhicheverSideHoldsMore() {
        let stamp = HybridTimestamp(wall: 1_700_000_000_000, counter: 0, machine: "aaaaaaaaaaaa")
        func entry(_ number: Int, labels: [String] = []) -> TodoEntry {
            var todo = TodoEntry(uuid: Self.uuid(number), repository: 1, text: "todo \(number)",
                                 createdAt: Timestamp(millisecondsSinceEpoch: 0), stamp: stamp)
            todo.seen = Register(IssueObservation(number: 1, state: "open", title: "t", url: "https://github.com/o/r/issues/1",
                                                  updatedAt: nil, seenAt: stamp, labels: labels), at: stamp)
            return todo
        }
        let here = entry(1, labels: ["there", "z"]), there = entry(1, labels: ["here"])
        #expect(here.merged(with: there) == there.merged(with: here))
        for remoteHoldsMore in [false, true] {
            var local = Replica(), piece = RemotePiece()
            local.todos[Self.uuid(1)] = here
            piece.replica.todos[Self.uuid(1)] = there
            for number in 10..<13 {
                if remoteHoldsMore { piece.replica.todos[Self.uuid(number)] = entry(number) } else { local.todos[Self.uuid(number)] = entry(number) }
            }
            let plan = RemoteExchange.plan(RemoteExchange.Input(
                machine: "bbbbbbbbbbbb", machineName: "b", now: Timestamp(millisecondsSinceEpoch: 1_700_000_100_000),
                stamp: HybridTimestamp(wall: 1_700_000_100_000, counter: 0, machine: "bbbbbbbbbbbb"), meta: RemoteMeta(),
                repositories: RemotePiece(), todoFiles: [1: piece], existingTodoFiles: [1], local: local, pendingTodos: [],
                pendingRepositories: [], exchangedBefore: false, reportMerge: false))
            #expect(plan.local.todos[Self.uuid(1)] == here.merged(with: there), "remote holds more: \(remoteHoldsMore)")
            #expect(plan.local.todos.count == 4)
        }
    }

    @Test func aTodoTravelsInItsRepositorysFileAndAnEditTouchesThatFileAlone() {
        var world = RemoteWorld(2)
        for number in 1...20 { world.add(0, Self.uuid(number), repository: Int64(number % 4 + 1), text: "todo \(number)") }
        world.settle()
        #expect(world.live(1) == world.live(0) && world.live(0).count == 20)
        #expect(Set(world.remote.keys) == [RemoteLayout.stubPath, RemoteLayout.metaPath, RemoteLayout.repositoriesPath,
                                            "todos/1/1.jsonl", "todos/2/2.jsonl", "todos/3/3.jsonl", "todos/4/4.jsonl"])
        let before = world.remote
        world.retext(1, Self.uuid(5), "todo five")
        let wrote = world.exchange(1)
        #expect(wrote)
        let changed = Set(world.remote.keys.filter { world.remote[$0] != before[$0] })
        #expect(changed == ["todos/2/2.jsonl", RemoteLayout.metaPath], "the todo's file and the generation")
        world.exchange(0)
        #expect(world.live(0)[Self.uuid(5)] == "2 todo five false")
    }

    @Test func aMovedTodoLeavesOneFileForTheOther() {
        var world = RemoteWorld(2)
        world.add(0, Self.uuid(1), repository: 1, text: "moving")
        world.add(0, Self.uuid(2), repository: 2, text: "staying")
        world.settle()
        world.move(1, Self.uuid(1), to: 2)
        world.settle()
        #expect(world.remote["todos/1/1.jsonl"] == nil, "emptied: removed")
        #expect(RemoteWorld.piece(world.remote["todos/2/2.jsonl"]).replica.todos.count == 2)
        #expect(world.live(0) == world.live(1))
    }

    @Test func aRemovalLeavesOnceEveryMachineMergedItAndStaysRestorableUntilThen() throws {
        var world = RemoteWorld(3)
        world.add(0, Self.uuid(1), repository: 1, text: "done with it")
        world.add(0, Self.uuid(2), repository: 1, text: "kept")
        // Every machine writes once, and so has a line that removals wait for.
        world.add(1, Self.uuid(7), repository: 2, text: "machine 1's")
        world.add(2, Self.uuid(8), repository: 2, text: "machine 2's")
        world.settle()
        world.remove(1, Self.uuid(1))
        world.exchange(1)
        #expect(world.remoteTodos[Self.uuid(1)]?.isRemoved == true, "held removed while machines have not merged it")
        world.exchange(0)
        #expect(world.remoteTodos[Self.uuid(1)] != nil, "machine 2 has not merged it")
        world.restore(0, Self.uuid(1))
        world.exchange(0)
        world.remove(0, Self.uuid(1))
        world.settle()
        #expect(world.remoteTodos[Self.uuid(1)] == nil, "every machine merged the removal: it left")
        for index in 0..<3 { #expect(world.machines[index].replica.todos[Self.uuid(1)]?.isRemoved == true, "restorable here") }
        let meta = try RemoteMeta.decode(try #require(world.remote[RemoteLayout.metaPath]))
        #expect(meta.compacted != .zero && meta.machines.count == 3)
        // Restored on a machine: back everywhere.
        world.restore(2, Self.uuid(1))
        world.settle()
        for index in 0..<3 { #expect(world.live(index)[Self.uuid(1)] == "1 done with it false") }
        // Removed again, and past the horizon: gone for good here too.
        world.remove(2, Self.uuid(1))
        world.settle()
        world.advance(days: 91)
        world.settle()
        for index in 0..<3 { #expect(world.machines[index].replica.todos[Self.uuid(1)] == nil, "pruned here too") }
    }

    /// What this machine sends is what `sync` says it sent, and what `remote status` says waits:
    /// removals taken out because every machine merged them are no change of anyone's.
    @Test func removalsThatLeaveAreDroppedNotSent() throws {
        var world = RemoteWorld(2)
        for number in 1...4 { world.add(0, Self.uuid(number), repository: 1, text: "todo \(number)") }
        world.settle()
        for number in 1...3 { world.remove(0, Self.uuid(number)) }
        world.exchange(0)
        #expect(world.lastPlan?.changedLines == 3 && world.lastPlan?.droppedLines == 0, "three removals sent")
        let wrote = world.exchange(1)
        #expect(wrote, "machine 1 merges them, the last to: they leave")
        let plan = try #require(world.lastPlan)
        #expect(plan.changedLines == 0 && plan.droppedLines == 3, "\(plan.changedLines) \(plan.droppedLines)")
        #expect(world.remoteTodos.count == 1)
    }

    @Test func aMachineBackAfterTheHorizonRemovesWhatLeftAndSendsWhatItMade() throws {
        var world = RemoteWorld(2)
        for number in 1...3 { world.add(0, Self.uuid(number), repository: 1, text: "todo \(number)") }
        world.settle()
        // Machine 1 goes away with the three todos; meanwhile it edits two, one of which machine 0
        // removes, and makes one.
        world.retext(1, Self.uuid(2), "edited while away")
        world.retext(1, Self.uuid(3), "edited, but removed elsewhere")
        world.add(1, Self.uuid(4), repository: 1, text: "made while away")
        world.remove(0, Self.uuid(1))
        world.remove(0, Self.uuid(3))
        world.exchange(0)
        world.advance(days: 100)
        world.exchange(0)
        world.exchange(0)
        #expect(world.remoteTodos[Self.uuid(1)] == nil && world.remoteTodos[Self.uuid(3)] == nil,
                "older than the horizon: they left without machine 1")
        world.exchange(1)
        #expect(world.machines[1].replica.todos[Self.uuid(1)].map(\.isRemoved) != false, "not brought back from the dead")
        #expect(world.live(1)[Self.uuid(3)] == nil && world.remoteTodos[Self.uuid(3)] == nil,
                "the edit of a todo whose removal left is dropped: the removal wins")
        #expect(world.dropped[1] == [Self.uuid(3)], "and said")
        #expect(world.live(1)[Self.uuid(2)] == "1 edited while away false", "what it changed of the others is sent")
        #expect(world.remoteTodos[Self.uuid(4)]?.isRemoved == false, "what it made is sent")
        world.settle()
        #expect(world.live(0) == world.live(1))
        #expect(world.live(0).keys.sorted() == [Self.uuid(2), Self.uuid(4)])
    }

    /// Removed, and its removal gone from the remote because the machine was forgotten: the
    /// machine's done of it is dropped in its first exchange, and the todo stays removed everywhere.
    @Test func aForgottenMachineDropsInOneExchangeItsEditOfATodoRemovedMeanwhile() {
        var world = RemoteWorld(3)
        world.add(0, Self.uuid(1), repository: 1, text: "gone soon")
        world.add(0, Self.uuid(2), repository: 1, text: "kept")
        world.settle()
        world.remove(0, Self.uuid(1))
        world.settle([0, 1])
        world.exchange(0, forget: [world.machines[2].id])
        world.exchange(0)
        #expect(world.remoteTodos[Self.uuid(1)] == nil, "machine 2 forgotten: the removal left")
        world.finish(2, Self.uuid(1))
        world.exchange(2)
        #expect(world.live(2)[Self.uuid(1)] == nil, "removed here in one exchange")
        #expect(world.dropped[2] == [Self.uuid(1)])
        #expect(world.machines[2].replica.todos[Self.uuid(1)]?.done.value.done == true, "kept with its removal: restorable here")
        #expect(world.remoteTodos[Self.uuid(1)] == nil)
        world.settle()
        for index in 0..<3 { #expect(world.live(index).keys.sorted() == [Self.uuid(2)], "machine \(index)") }
    }

    /// A restore made while away, of a todo whose removal the machine had merged and seen leave,
    /// is made there: it goes out, though the machine was forgotten and the compaction point moved
    /// past the restore meanwhile.
    @Test func aRestoreMadeWhileAwayOfARemovalMergedBeforeStands() throws {
        var world = RemoteWorld(3)
        world.add(0, Self.uuid(1), repository: 1, text: "removed, then restored")
        world.add(0, Self.uuid(2), repository: 1, text: "removed later")
        world.settle()
        world.remove(0, Self.uuid(1))
        world.settle()
        #expect(world.remoteTodos[Self.uuid(1)] == nil, "every machine merged the removal: it left")
        world.now += 1000
        world.restore(2, Self.uuid(1))
        world.now += 1000
        world.remove(0, Self.uuid(2))
        world.settle([0, 1])
        world.exchange(0, forget: [world.machines[2].id])
        world.exchange(0)
        #expect(world.remoteTodos[Self.uuid(2)] == nil, "machine 2 forgotten: the removal left")
        let meta = try RemoteMeta.decode(try #require(world.remote[RemoteLayout.metaPath]))
        let restore = try #require(world.machines[2].replica.todos[Self.uuid(1)]?.removed.stamp)
        #expect(meta.compacted > restore, "the compaction point is past the restore")
        world.exchange(2)
        #expect(world.dropped[2] == [])
        world.settle()
        for index in 0..<3 { #expect(world.live(index).keys.sorted() == [Self.uuid(1)], "machine \(index)") }
    }

    /// A repository another machine stopped tracking, whose line left the remote, is not tracked
    /// again by a machine back from longer away; a todo that machine made in it meanwhile keeps
    /// it in the list (untracked), as a todo added elsewhere does.
    @Test(arguments: [false, true]) func aRepositoryUntrackedElsewhereIsNotTrackedAgainByAMachineBack(madeATodoInIt: Bool) throws {
        var world = RemoteWorld(2)
        world.add(0, Self.uuid(1), repository: 1, text: "stays")
        world.add(0, Self.uuid(2), repository: 2, text: "in a repository dropped")
        world.settle()
        world.untrack(0, 2)
        world.exchange(0)
        world.advance(days: 100)
        world.exchange(0)
        world.exchange(0)
        #expect(RemoteWorld.piece(world.remote[RemoteLayout.repositoriesPath]).replica.repositories[2] == nil, "it left")
        if madeATodoInIt { world.add(1, Self.uuid(3), repository: 2, text: "made while away") }
        world.exchange(1)
        world.settle()
        for index in 0..<2 {
            let entry = world.machines[index].replica.repositories[2]
            #expect(entry?.tracked.value != true, "machine \(index): not tracked again")
            #expect(world.machines[index].replica.showsRepository(2) == madeATodoInIt, "machine \(index)")
        }
        #expect(world.live(0) == world.live(1))
        #expect(world.live(0).keys.sorted() == (madeATodoInIt ? [Self.uuid(1), Self.uuid(3)] : [Self.uuid(1)]))
    }

    /// A machine that joins with nothing of its own writes nothing: no removal waits for it, and
    /// one that leaves the remote before it exchanges again is removed there too, as its merge
    /// would have; its edit made meanwhile loses to the removal, as it would have then.
    @Test func aMachineThatJoinsWithNothingOfItsOwnWritesNothingAndMissesNoRemoval() throws {
        var world = RemoteWorld(2)
        world.add(0, Self.uuid(1), repository: 1, text: "removed soon")
        world.add(0, Self.uuid(2), repository: 1, text: "kept")
        world.settle([0])
        let wrote = world.exchange(1)
        #expect(!wrote, "it joins: nothing to write")
        #expect(world.live(1) == world.live(0))
        #expect(try RemoteMeta.decode(try #require(world.remote[RemoteLayout.metaPath])).machines.count == 1)
        world.remove(0, Self.uuid(1))
        _ = world.exchange(0)
        world.add(0, Self.uuid(3), repository: 1, text: "a later write")
        _ = world.exchange(0)
        #expect(world.remoteTodos[Self.uuid(1)] == nil, "no other machine to wait for: it left at the next write")
        world.retext(1, Self.uuid(1), "edited after the removal")
        _ = world.exchange(1)
        #expect(world.machines[1].replica.todos[Self.uuid(1)]?.isRemoved == true, "removed there too, not brought back")
        #expect(world.dropped[1] == [Self.uuid(1)], "the edit it loses is named")
        world.retext(1, Self.uuid(2), "its first change")
        world.settle()
        #expect(world.live(0) == world.live(1) && world.live(0).keys.sorted() == [Self.uuid(2), Self.uuid(3)])
        #expect(try RemoteMeta.decode(try #require(world.remote[RemoteLayout.metaPath])).machines.count == 2,
                "its first write brings its line")
    }

    @Test func aForgottenMachineNoLongerHoldsRemovalsBack() {
        var world = RemoteWorld(3)
        world.add(0, Self.uuid(1), repository: 1, text: "gone soon")
        world.add(2, Self.uuid(8), repository: 1, text: "machine 2's")
        world.settle()
        world.remove(0, Self.uuid(1))
        world.settle([0, 1])
        #expect(world.remoteTodos[Self.uuid(1)] != nil, "machine 2 has not merged it")
        world.exchange(0, forget: [world.machines[2].id])
        world.exchange(0)
        #expect(world.remoteTodos[Self.uuid(1)] == nil)
        world.exchange(2)
        #expect(world.machines[2].replica.todos[Self.uuid(1)]?.isRemoved == true, "removed there too, not brought back")
        world.settle()
        #expect(world.live(2).keys.sorted() == [Self.uuid(8)] && world.live(0) == world.live(2))
    }

    @Test func allRemovedLeavesARemoteOfAFewBytes() {
        var world = RemoteWorld(2)
        for number in 1...200 { world.add(number % 2, Self.uuid(number), repository: Int64(number % 10 + 1), text: "todo number \(number)") }
        world.settle()
        let full = world.remoteBytes
        for number in 1...200 { world.remove(number % 2, Self.uuid(number)) }
        world.settle()
        world.settle()
        #expect(world.remoteTodos.isEmpty)
        #expect(world.remoteBytes < 3_000, "\(world.remoteBytes) bytes left of \(full)")
    }
}
