import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// Random histories of two machines sharing a remote through the real sync (store, exchange,
/// the loopback GitHub's Git Data API), with changes of many todos at once (adds, removals of
/// whole repositories, clears, restores) as well as single ones. Whatever happened, once two
/// rounds of syncs have carried it, two more rounds with nothing new send nothing and write
/// nothing, both machines show the same list, and once everything is removed and merged the
/// remote holds no todo.
@Suite(.serialized) struct SettlingPropertyTests {
    static let histories = 6
    static let operationsPerHistory = 14
    static let seed: UInt64 = 0x5E77_1E5

    final class World {
        let github: FakeGitHub
        let machines: [Machine]
        var random: SplitMix64

        init(seed: UInt64) throws {
            github = try FakeGitHub()
            for (id, name) in [(Int64(1), "app"), (2, "lib"), (3, "site")] { github.addRepository(id: id, name: name, description: nil) }
            github.addRepository(id: 4242, name: "doogit-data", description: nil, isPrivate: true)
            github.contents.setDate(Date(timeIntervalSince1970: Double(RemoteSyncTests.t0.millisecondsSinceEpoch) / 1000))
            let github = self.github
            machines = try (0..<2).map { _ in try Machine(github, now: RemoteSyncTests.t0) }
            random = SplitMix64(seed: seed)
            for (id, name) in [(Int64(1), "app"), (2, "lib"), (3, "site")] { try machines[0].track(id, "octocat/\(name)") }
        }

        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)] }

        /// Some of `items`: one, a few, or all of them.
        func some<T>(_ items: [T]) -> [T] {
            guard !items.isEmpty else { return [] }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return [items[Int.random(in: 0..<items.count, using: &random)]]
            case 1: return Array(items.shuffled(using: &random).prefix(Int.random(in: 1...items.count, using: &random)))
            default: return items
            }
        }

        func step() throws {
            let machine = machines[Int.random(in: 0..<machines.count, using: &random)]
            for other in machines { other.advance(seconds: Int64.random(in: 1...30, using: &random)) }
            let live = try machine.store.sections().flatMap(\.todos)
            let repositories = try machine.store.repositories().map(\.id)
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1:
                guard let repository = pick(repositories) else { return }
                for number in 0..<Int.random(in: 1...120, using: &random) { _ = try machine.add("todo \(number)", to: repository) }
            case 2:
                _ = try machine.store.removeTodos(some(live).map(\.id), at: machine.now)
            case 3:
                _ = try machine.store.setDone(some(live).map(\.id), done: true, at: machine.now)
            case 4:
                _ = try machine.store.clearDone(repositoryID: nil, at: machine.now)
            case 5:
                _ = try machine.store.restoreTodos(some(try machine.store.restorableTodoIDs()), at: machine.now)
            case 6:
                guard let todo = pick(live) else { return }
                _ = try machine.store.editTodo(id: todo.id, text: "edited \(machine.now.millisecondsSinceEpoch)", at: machine.now)
            default:
                try machine.sync()
            }
        }

        /// Every machine syncs once, in turn; how many lines they sent and branch moves they made.
        func round() throws -> (pushed: Int, writes: Int) {
            let before = github.requests.filter { $0.method == "PATCH" && $0.path.contains("/git/refs/heads/") }.count
            var pushed = 0
            for machine in machines {
                machine.advance(seconds: 60)
                pushed += try machine.sync().remote?.pushed ?? 0
            }
            let after = github.requests.filter { $0.method == "PATCH" && $0.path.contains("/git/refs/heads/") }.count
            return (pushed, after - before)
        }

        var remoteTodoLines: Int {
            github.contents.files(Machine.dataRepository).filter { RemoteLayout.repository(ofTodosPath: $0.key) != nil }
                .map { $0.value.split(separator: "\n").count - 1 }.reduce(0, +)
        }
    }

    @Test func afterAnyHistoryTwoQuietRoundsSendNothing() throws {
        var random = SplitMix64(seed: Self.seed)
        for history in 0..<Self.histories {
            let world = try World(seed: random.next())
            for _ in 0..<Self.operationsPerHistory { try world.step() }
            _ = try world.round()
            _ = try world.round()
            for quiet in 0..<2 {
                let (pushed, writes) = try world.round()
                #expect(pushed == 0 && writes == 0, "history \(history), quiet round \(quiet): \(pushed) sent in \(writes) writes")
            }
            #expect(try world.machines[0].list() == world.machines[1].list(), "history \(history)")

            // Everything removed, on one machine: once merged everywhere, the remote holds no todo.
            let all = try world.machines[1].store.sections().flatMap(\.todos).map(\.id)
            _ = try world.machines[1].store.removeTodos(all, at: world.machines[1].now)
            for _ in 0..<3 { _ = try world.round() }
            let (pushed, writes) = try world.round()
            #expect(pushed == 0 && writes == 0, "history \(history), all removed: \(pushed) sent in \(writes) writes")
            #expect(world.remoteTodoLines == 0, "history \(history): \(world.remoteTodoLines) lines of todos left")
        }
    }
}
