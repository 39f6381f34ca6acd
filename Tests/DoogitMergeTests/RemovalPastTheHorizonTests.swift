import DoogitMerge
import DoogitSupport
import Testing

/// A removal older than the horizon leaves the remote at the next exchange, even while a machine
/// that exchanged within the horizon has not merged it yet: a removal made on a machine away for
/// longer than the horizon and sent when it comes back does not wait for the others.
@Suite struct RemovalPastTheHorizonTests {
    @Test func aRemovalOlderThanTheHorizonLeavesWithoutWaitingForEveryMerge() throws {
        let removed = RemoteExchangeTests.uuid(1), kept = RemoteExchangeTests.uuid(2)
        var world = RemoteWorld(2)
        world.add(0, removed, repository: 1, text: "removed while away")
        world.add(1, kept, repository: 1, text: "kept")
        world.settle()
        // Machine 1 removes the todo, then stays away past the horizon; machine 0 writes
        // meanwhile, so the remote waits for its merges.
        world.remove(1, removed)
        world.advance(days: 100)
        world.add(0, RemoteExchangeTests.uuid(3), repository: 2, text: "made meanwhile")
        world.exchange(0)
        world.exchange(1)
        #expect(world.remoteTodos[removed]?.isRemoved == true, "sent: machine 1 changed it here")
        let meta = try RemoteMeta.decode(try #require(world.remote[RemoteLayout.metaPath]))
        let machine0 = try #require(meta.machines[world.machines[0].id])
        #expect(meta.activeMachines(at: Timestamp(millisecondsSinceEpoch: world.now)).map(\.id).contains(machine0.id))
        #expect(machine0.generation < meta.generation, "machine 0 has not merged the removal")
        world.exchange(1)
        #expect(world.remoteTodos[removed] == nil, "older than the horizon: it left without machine 0's merge")
        world.exchange(0)
        #expect(world.live(0)[removed] == nil, "and machine 0 removes it, as it left")
        #expect(world.live(0) == world.live(1))
    }
}
