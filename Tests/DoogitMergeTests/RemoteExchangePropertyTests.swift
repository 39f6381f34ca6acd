import DoogitMerge
import DoogitSupport
import Testing
import TestSupport

/// Random histories of three machines sharing a remote in files (adds, edits, removals, restores,
/// moves, machines away for months, forgotten machines), from a seeded generator. An exchange
/// never brings a todo to life that was alive nowhere; each todo lives in one file, its
/// repository's; the machines end with the remote's list; a todo ends removed exactly when the
/// latest removal or restore removed it (unless a machine changed it while away, and its removal
/// left the remote meanwhile: that change is sent); and once everything is removed and merged,
/// the remote holds no todo.
@Suite struct RemoteExchangePropertyTests {
    static let histories = 80
    static let operationsPerHistory = 60
    static let seed: UInt64 = 0x5EED_F11E_5

    struct Counts {
        var values: [String: Int] = [:]
        mutating func add(_ name: String) { values[name, default: 0] += 1 }
    }

    @Test func randomHistoriesSettleWithoutBringingAnythingBack() {
        var random = SplitMix64(seed: Self.seed)
        var counts = Counts()
        for history in 0..<Self.histories {
            var world = RemoteWorld(3)
            var next = 0
            // The latest removal or restore of each todo, and the todos a machine changed while
            // their removal left the remote.
            var lastRemoval: [String: (stamp: HybridTimestamp, removed: Bool)] = [:]
            var mayReturn: Set<String> = []
            func noteRemoval(_ index: Int, _ uuid: String) {
                guard let register = world.machines[index].replica.todos[uuid]?.removed,
                      register.stamp > lastRemoval[uuid]?.stamp ?? .zero else { return }
                lastRemoval[uuid] = (register.stamp, register.value)
            }
            // A change made by a machine that has not seen the todo's removal (it is away) is sent as
            // usual: the todo may come back when its removal left the remote meanwhile.
            func noteChange(_ index: Int, _ uuid: String) {
                if lastRemoval[uuid]?.removed == true, world.machines[index].replica.todos[uuid]?.isRemoved == false {
                    mayReturn.insert(uuid)
                }
            }
            func exchange(_ index: Int, forget: Set<String> = []) {
                let before = world.alive
                let held = Set(world.remoteTodos.keys)
                world.exchange(index, forget: forget)
                expectNoNewLife(before, world, history)
                for uuid in held.subtracting(world.remoteTodos.keys)
                where world.machines.contains(where: { $0.pending[uuid] != nil }) {
                    mayReturn.insert(uuid)
                }
            }
            for _ in 0..<Self.operationsPerHistory {
                let index = Int.random(in: 0..<3, using: &random)
                let todos = world.machines[index].replica.todos.keys.sorted()
                let uuid = todos.isEmpty ? nil : todos[Int.random(in: 0..<todos.count, using: &random)]
                world.now += Int64.random(in: 1...60_000, using: &random)
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<22:
                    next += 1
                    world.add(index, RemoteExchangeTests.uuid(next), repository: Int64.random(in: 1...4, using: &random), text: "todo \(next)")
                    counts.add("add")
                case 22..<30:
                    guard let uuid else { continue }
                    noteChange(index, uuid)
                    world.retext(index, uuid, "edited \(Int.random(in: 0..<1000, using: &random))")
                    counts.add("edit")
                case 30..<42:
                    guard let uuid else { continue }
                    world.remove(index, uuid)
                    noteRemoval(index, uuid)
                    counts.add("remove")
                case 42..<47:
                    guard let uuid, world.machines[index].replica.todos[uuid]?.isRemoved == true else { continue }
                    world.restore(index, uuid)
                    noteRemoval(index, uuid)
                    counts.add("restore")
                case 47..<52:
                    guard let uuid else { continue }
                    noteChange(index, uuid)
                    world.move(index, uuid, to: Int64.random(in: 1...4, using: &random))
                    counts.add("move")
                case 52..<55:
                    world.advance(days: Int64.random(in: 20...120, using: &random))
                    counts.add("days pass")
                case 55..<57:
                    exchange(index, forget: [world.machines[(index + 1) % 3].id])
                    counts.add("forget")
                default:
                    exchange(index)
                    counts.add("exchange")
                }
            }
            for _ in 0..<3 { for index in 0..<3 { exchange(index) } }
            world.settle()
            for uuid in (1...max(next, 1)).map(RemoteExchangeTests.uuid) where next > 0 {
                let removed = lastRemoval[uuid]?.removed ?? false
                let live = world.live(0)[uuid] != nil
                if !removed { #expect(live, "history \(history): \(uuid) lost") }
                if removed && live {
                    #expect(mayReturn.contains(uuid), "history \(history): \(uuid) came back from the dead")
                    counts.add("changed while away, sent")
                }
            }
            let remoteLive = Set(world.remoteTodos.filter { !$0.value.isRemoved }.keys)
            for index in 0..<3 {
                #expect(world.live(index) == world.live(0), "history \(history): machine \(index) differs")
                #expect(Set(world.live(index).keys) == remoteLive, "history \(history): the remote differs")
            }
            expectOneFileEach(world, history)
            // Everything removed, merged by all: nothing left there.
            for uuid in world.live(0).keys.sorted() { world.remove(0, uuid) }
            world.settle()
            world.settle()
            #expect(world.remoteTodos.isEmpty, "history \(history): \(world.remoteTodos.count) todos left")
            counts.add("history")
        }
        print("RemoteExchangePropertyTests: " + counts.values.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            .joined(separator: ", "))
    }

    func expectNoNewLife(_ before: Set<String>, _ world: RemoteWorld, _ history: Int) {
        let born = world.alive.subtracting(before)
        #expect(born.isEmpty, "history \(history): an exchange brought \(born.sorted()) to life")
    }

    func expectOneFileEach(_ world: RemoteWorld, _ history: Int) {
        var seen: Set<String> = []
        for (path, bytes) in world.remote {
            guard let repository = RemoteLayout.repository(ofTodosPath: path) else { continue }
            for (uuid, entry) in RemoteWorld.piece(bytes).replica.todos {
                #expect(seen.insert(uuid).inserted, "history \(history): \(uuid) in two files")
                #expect(entry.repository.value == repository, "history \(history): \(uuid) in another repository's file")
            }
        }
    }
}

extension RemoteWorld {
    /// The todos alive on some machine or in the remote.
    var alive: Set<String> {
        var alive = Set(remoteTodos.filter { !$0.value.isRemoved }.keys)
        for index in machines.indices { alive.formUnion(live(index).keys) }
        return alive
    }
}
