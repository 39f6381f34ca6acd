import DoogitMerge
import DoogitSupport
import Testing
import TestSupport

/// Random histories of three machines sharing a remote in files (adds, edits, finishes, removals,
/// restores, moves, repositories no longer tracked, machines away for weeks or months with changes
/// of their own, forgotten machines), from a seeded generator. An exchange never brings a todo to
/// life that was alive nowhere; each todo lives in one file, its repository's; the machines end
/// with the remote's list; a todo ends removed exactly when the latest removal or restore removed
/// it, whatever a machine away changed of it meanwhile (its edit of a todo whose removal left the
/// remote is dropped, and said; what it made goes out); a repository ends tracked exactly when the
/// latest `repo add` or `repo remove` tracked it; and once everything is removed and merged, the
/// remote holds no todo.
@Suite struct RemoteExchangePropertyTests {
    static let histories = 80
    static let operationsPerHistory = 80
    static let seed: UInt64 = 0x5EED_F11E_5

    struct Counts {
        var values: [String: Int] = [:]
        mutating func add(_ name: String, _ count: Int = 1) { values[name, default: 0] += count }
        subscript(name: String) -> Int { values[name] ?? 0 }
    }

    @Test func randomHistoriesSettleWithoutBringingAnythingBack() {
        var random = SplitMix64(seed: Self.seed)
        var counts = Counts()
        for history in 0..<Self.histories {
            var world = RemoteWorld(3)
            var next = 0
            // The latest removal or restore of each todo, and the latest `repo add` or `repo remove`
            // of each repository: what must stand at the end.
            var lastRemoval: [String: (stamp: HybridTimestamp, removed: Bool)] = [:]
            var lastTracking: [Int64: (stamp: HybridTimestamp, tracked: Bool)] = [:]
            // Operations left before each machine away exchanges again.
            var away = [0, 0, 0]
            // What the contract leaves to the compaction point: a machine back after the horizon,
            // or forgotten, removes what the remote no longer holds and that was stamped before the
            // compaction point, a restore or `repo add` made elsewhere before it included; and a
            // repository that a machine added apart, whose line had left the remote, goes out.
            var comebackCompaction = HybridTimestamp.zero
            var addedApart: Set<Int64> = []
            var unsentAdds: [Int: Set<Int64>] = [:]
            func noteRemoval(_ index: Int, _ uuid: String) {
                guard let register = world.machines[index].replica.todos[uuid]?.removed,
                      register.stamp > lastRemoval[uuid]?.stamp ?? .zero else { return }
                lastRemoval[uuid] = (register.stamp, register.value)
            }
            func noteTracking(_ index: Int, _ repository: Int64) {
                guard let register = world.machines[index].replica.repositories[repository]?.tracked,
                      register.stamp > lastTracking[repository]?.stamp ?? .zero else { return }
                lastTracking[repository] = (register.stamp, register.value)
            }
            func exchange(_ index: Int, forget: Set<String> = []) {
                let machine = world.machines[index]
                let meta = world.remote[RemoteLayout.metaPath].flatMap { try? RemoteMeta.decode($0) } ?? RemoteMeta()
                let now = Timestamp(millisecondsSinceEpoch: world.now)
                if machine.exchangedBefore, meta.machines[machine.id].map({ $0.forgotten.value || meta.isPastHorizon($0.exchangedAt, at: now) }) ?? true {
                    comebackCompaction = max(comebackCompaction, meta.compacted)
                }
                let lines = RemoteWorld.piece(world.remote[RemoteLayout.repositoriesPath]).replica.repositories
                addedApart.formUnion((unsentAdds[index] ?? []).filter { lines[$0] == nil })
                unsentAdds[index] = []
                let before = world.alive
                world.exchange(index, forget: forget)
                expectNoNewLife(before, world, history)
                for uuid in world.dropped[index] ?? [] {
                    #expect(lastRemoval[uuid] != nil, "history \(history): an edit of \(uuid) dropped, though it was never removed")
                }
                counts.add("edit made away of a todo removed meanwhile, dropped", world.dropped[index]?.count ?? 0)
            }
            for _ in 0..<Self.operationsPerHistory {
                let index = Int.random(in: 0..<3, using: &random)
                let todos = world.machines[index].replica.todos.keys.sorted()
                let uuid = todos.isEmpty ? nil : todos[Int.random(in: 0..<todos.count, using: &random)]
                // As the commands do, only a todo alive here is edited, finished, moved or removed.
                let alive = uuid.flatMap { world.machines[index].replica.todos[$0]?.isRemoved == false ? $0 : nil }
                let repository = Int64.random(in: 1...4, using: &random)
                world.now += Int64.random(in: 1...60_000, using: &random)
                if away[index] > 0 { away[index] -= 1 }
                let isAway = away[index] > 0
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<20:
                    // `todo add` needs the repository tracked here (or new here: `repo add` first).
                    guard world.machines[index].replica.repositories[repository]?.tracked.value != false else { continue }
                    let isNew = world.machines[index].replica.repositories[repository] == nil
                    next += 1
                    world.add(index, RemoteExchangeTests.uuid(next), repository: repository, text: "todo \(next)")
                    if isNew {
                        noteTracking(index, repository)
                        unsentAdds[index, default: []].insert(repository)
                    }
                    counts.add(isAway ? "add while away" : "add")
                case 20..<28:
                    guard let uuid = alive else { continue }
                    world.retext(index, uuid, "edited \(Int.random(in: 0..<1000, using: &random))")
                    counts.add(isAway ? "edit while away" : "edit")
                case 28..<33:
                    guard let uuid = alive else { continue }
                    world.finish(index, uuid)
                    counts.add(isAway ? "done while away" : "done")
                case 33..<45:
                    guard let uuid = alive else { continue }
                    world.remove(index, uuid)
                    noteRemoval(index, uuid)
                    counts.add("remove")
                case 45..<50:
                    guard let uuid, world.machines[index].replica.todos[uuid]?.isRemoved == true else { continue }
                    world.restore(index, uuid)
                    noteRemoval(index, uuid)
                    counts.add("restore")
                case 50..<55:
                    guard let uuid = alive, world.machines[index].replica.repositories[repository]?.tracked.value == true else { continue }
                    world.move(index, uuid, to: repository)
                    counts.add("move")
                case 55..<57:
                    guard world.machines[index].replica.repositories[repository]?.tracked.value == true else { continue }
                    let removing = world.machines[index].replica.todos.filter { $0.value.repository.value == repository && !$0.value.isRemoved }
                    world.untrack(index, repository)
                    for uuid in removing.keys { noteRemoval(index, uuid) }
                    noteTracking(index, repository)
                    counts.add("repo remove")
                case 57..<60:
                    world.advance(days: Int64.random(in: 20...120, using: &random))
                    counts.add("days pass")
                case 60..<64:
                    // Away for a while: it changes things, and does not exchange.
                    away[index] = Int.random(in: 10...40, using: &random)
                    counts.add("goes away")
                case 64..<66:
                    guard !isAway else { continue }
                    let other = away.indices.first { $0 != index && away[$0] > 0 } ?? (index + 1) % 3
                    exchange(index, forget: [world.machines[other].id])
                    counts.add("forget")
                default:
                    guard !isAway else { continue }
                    exchange(index)
                    counts.add("exchange")
                }
            }
            for _ in 0..<3 { for index in 0..<3 { exchange(index) } }
            world.settle()
            for uuid in (1...max(next, 1)).map(RemoteExchangeTests.uuid) where next > 0 {
                let removed = lastRemoval[uuid]?.removed ?? false
                let live = world.live(0)[uuid] != nil
                if !removed && !live {
                    #expect(lastRemoval[uuid].map { $0.stamp <= comebackCompaction } == true, "history \(history): \(uuid) lost")
                    counts.add("restore stamped before the compaction point a machine came back to, outranked")
                }
                if removed { #expect(!live, "history \(history): \(uuid) came back from the dead") }
            }
            for (repository, last) in lastTracking {
                for index in 0..<3 {
                    let tracked = world.machines[index].replica.repositories[repository]?.tracked.value ?? false
                    if tracked && !last.tracked && addedApart.contains(repository) { continue }
                    if !tracked && last.tracked && last.stamp <= comebackCompaction { continue }
                    #expect(tracked == last.tracked, "history \(history): repository \(repository) on machine \(index)")
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
        // The histories reach what they are meant to try.
        #expect(counts["edit made away of a todo removed meanwhile, dropped"] >= 10)
        #expect(counts["add while away"] >= Self.histories && counts["repo remove"] >= Self.histories / 2)
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
