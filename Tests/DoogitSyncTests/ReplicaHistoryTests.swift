import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// Random histories of three machines driven through the store itself (`ReplicaStore.apply`, not
/// only the pure merge): adds, edits, done and undo, removals and restores, links and unlinks (two
/// machines linking one issue), what a sync sees of issues and commits (as the issue and commit
/// phases record it), and exchanges with the file during which the user changes something. After
/// a few rounds of exchanges every machine holds the same list, no issue has two todos, the
/// latest intent of each link stands, and no done or undo the user made is lost to something
/// seen on GitHub before it.
@Suite struct ReplicaHistoryTests {
    static let histories = 60
    static let operationsPerHistory = 50
    static let seed: UInt64 = 0xD006_17_C0DE

    /// A machine: its store and its clock (true time plus a skew of a few seconds).
    final class Node {
        let store: Store
        var skew: Int64
        init(skew: Int64) throws {
            store = try Store.open(path: ":memory:")
            self.skew = skew
            for (id, name) in [(Int64(1), "app"), (2, "site")] {
                try store.saveRepository(RepositoryRecord(id: id, owner: "octocat", name: name, fullName: "octocat/\(name)",
                                                          description: nil, url: "https://github.com/octocat/\(name)",
                                                          isPrivate: false, archived: false, addedAt: Timestamp(millisecondsSinceEpoch: 0),
                                                          syncedAt: Timestamp(millisecondsSinceEpoch: 0)))
            }
        }
    }

    /// An issue on the simulated GitHub.
    struct GitHubIssue {
        var closed = false
        var title: String
        var updatedAt: Int64
        var closedAt: Int64?
    }

    /// What the user did to a todo's link and state, with the stamp each got: the intents the end
    /// must keep.
    struct Intent {
        var stamp: HybridTimestamp
        var value: String
    }

    struct History {
        var random: SplitMix64
        var nodes: [Node]
        var file = Replica()
        var trueTime: Int64 = 1_800_000_000_000
        var issues: [Int64: GitHubIssue] = [:]  // repository 1's
        var linkIntents: [String: [Intent]] = [:]
        var doneIntents: [String: [Intent]] = [:]
        var counts: [String: Int] = [:]

        init(seed: UInt64) throws {
            random = SplitMix64(seed: seed)
            nodes = try (0..<3).map { _ in try Node(skew: 0) }
            for index in nodes.indices { nodes[index].skew = Int64.random(in: -3000...3000, using: &random) }
            for number: Int64 in 1...3 { issues[number] = GitHubIssue(title: "issue \(number)", updatedAt: trueTime / 1000) }
        }

        func now(_ node: Node) -> Timestamp { Timestamp(millisecondsSinceEpoch: trueTime + node.skew) }

        mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)] }

        mutating func count(_ name: String) { counts[name, default: 0] += 1 }

        func entry(_ node: Node, _ uuid: String) throws -> TodoEntry? { try node.store.entry(uuid: uuid)?.entry }

        mutating func step() throws {
            trueTime += Int64.random(in: 1...4000, using: &random)
            let node = nodes[Int.random(in: 0..<nodes.count, using: &random)]
            let now = self.now(node)
            let live = try node.store.sections().flatMap(\.todos)
            let store = node.store
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<14:
                _ = try store.addTodo(repositoryID: pick([1, 1, 2]) ?? 1, text: "todo \(Int.random(in: 0...999, using: &random))", at: now)
                count("add")
            case 14..<18:
                if let todo = pick(live) { _ = try store.editTodo(id: todo.id, text: "edited \(Int.random(in: 0...999, using: &random))", at: now) }
            case 18..<22:
                // A detail set or cleared: each field merges on its own.
                if let todo = pick(live) {
                    var edit = DetailsEdit()
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: edit.due = .some(Bool.random(using: &random) ? CalendarDate(year: 2026, month: 12, day: Int.random(in: 1...31, using: &random)) : nil)
                    case 1: edit.priority = .some(pick([Priority.high, .medium, .low]))
                    case 2: edit.addTags = [pick(["ci", "docs", "release"]) ?? "ci"]; edit.removeTags = [pick(["ci", "docs"]) ?? "docs"]
                    default: edit.note = .some(Bool.random(using: &random) ? "note \(Int.random(in: 0...99, using: &random))" : nil)
                    }
                    _ = try store.editDetails(id: todo.id, edit, at: now)
                    count("details")
                }
            case 22..<34:
                if let todo = pick(live) {
                    _ = try store.setDone([todo.id], done: !todo.done, at: now)
                    if let after = try entry(node, todo.uuid) {
                        doneIntents[todo.uuid, default: []].append(Intent(stamp: after.done.stamp, value: after.done.value.done ? "done" : "open"))
                    }
                    count("done or undo")
                }
            case 34..<40:
                if let todo = pick(live) { _ = try store.removeTodos([todo.id], at: now); count("remove") }
            case 40..<44:
                if let id = pick(try store.restorableTodoIDs()) { _ = try? store.restoreTodos([id], at: now); count("restore") }
            case 44..<52:
                // Link (possibly an issue another machine linked another todo to), or unlink.
                if let todo = pick(live.filter { $0.repositoryID == 1 }) {
                    if todo.issue != nil {
                        _ = try store.unlinkIssue(todoID: todo.id, at: now)
                        count("unlink")
                    } else if let number = pick([Int64(1), 2, 3]), let issue = issues[number] {
                        guard (try? store.linkIssue(todoID: todo.id, to: snapshot(number, issue), at: now)) != nil else { break }
                        count("link")
                    } else { break }
                    if let after = try entry(node, todo.uuid) {
                        linkIntents[todo.uuid, default: []].append(Intent(stamp: after.issue.stamp, value: after.issue.value.map { "#\($0.number)" } ?? "none"))
                    }
                }
            case 52..<60:
                // On GitHub: an issue closed, reopened or retitled.
                if let number = pick([Int64(1), 2, 3]), var issue = issues[number] {
                    let seconds = trueTime / 1000
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: issue.closed = true; issue.closedAt = seconds
                    case 1: issue.closed = false; issue.closedAt = nil
                    default: issue.title = "issue \(number), retitled \(Int.random(in: 0...99, using: &random))"
                    }
                    issue.updatedAt = seconds
                    issues[number] = issue
                    count("issue changed on GitHub")
                }
            case 60..<70:
                // A sync reads the linked issues, as the issue phase does.
                for (id, held) in try store.linkedTodos(repositoryID: 1) {
                    guard let number = held.issue.value?.number, let issue = issues[number] else { continue }
                    let seenAt = HybridTimestamp(wall: now.millisecondsSinceEpoch, counter: 0, machine: try store.replica.machineID())
                    let pulled = IssueReconciler.pull(held, issue: snapshot(number, issue).observation(seenAt: seenAt),
                                                      closedAt: issue.closedAt.map { Timestamp(secondsSinceEpoch: $0) })
                    guard pulled.entry != held else { continue }
                    try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: pulled.entry, held: held)]), at: now, asLocalChange: true)
                    if !pulled.changes.isEmpty { count("pulled from an issue") }
                    _ = id
                }
            case 70..<75:
                // A commit's trailer names a todo, and this machine reads it (once or again).
                if let todo = pick(live), let held = try entry(node, todo.uuid) {
                    let sha = pick(["c0ffee01", "c0ffee02", "c0ffee03"]) ?? ""
                    guard !held.commits.contains(sha) else { count("trailer read again, skipped"); break }
                    let committed = Timestamp(millisecondsSinceEpoch: trueTime - Int64.random(in: 0...20_000, using: &random))
                    let outcome = CommitTrailers.apply(GitHubCommit(sha: sha, message: "", committedAt: committed), to: held, readAt: now)
                    try store.replica.apply(ReplicaChanges(todos: [TodoChange(entry: outcome.entry, held: held)]), at: now, asLocalChange: true)
                    count(outcome.finished ? "finished by a trailer" : "trailer outranked")
                }
            default:
                try exchange(node, meanwhile: Bool.random(using: &random))
            }
        }

        func snapshot(_ number: Int64, _ issue: GitHubIssue) -> IssueSnapshot {
            IssueSnapshot(number: number, url: "https://github.com/octocat/app/issues/\(number)", title: issue.title,
                          state: issue.closed ? .closed : .open, updatedAt: GitHubTime.string(Timestamp(secondsSinceEpoch: issue.updatedAt)))
        }

        /// A sync's exchange: the list read, merged with the file, the merge applied (with, when
        /// `meanwhile`, the user editing a todo between the read and the apply), the file written.
        mutating func exchange(_ node: Node, meanwhile: Bool) throws {
            let local = try node.store.replica.read()
            let merged = merge(local.replica, file)
            if meanwhile, let todo = pick(try node.store.sections().flatMap(\.todos)) {
                _ = try node.store.setDone([todo.id], done: !todo.done, at: now(node))
                if let after = try entry(node, todo.uuid) {
                    doneIntents[todo.uuid, default: []].append(Intent(stamp: after.done.stamp, value: after.done.value.done ? "done" : "open"))
                }
                count("changed during a sync")
            }
            try node.store.replica.apply(ReplicaChanges(from: local.replica, to: merged, annotations: local.annotations), at: now(node))
            file = merged
            count("exchange")
        }
    }

    @Test func storesThatExchangeInAnyOrderEndTheSameAndKeepWhatTheUserDid() throws {
        var generator = SplitMix64(seed: Self.seed)
        var totals: [String: Int] = [:]
        var failures = 0
        for historyIndex in 0..<Self.histories {
            let seed = generator.next()
            var history = try History(seed: seed)
            for _ in 0..<Self.operationsPerHistory { try history.step() }
            // Rounds of exchanges in random orders until a whole round changes nothing more (a
            // machine settling which todo keeps an issue makes a change of its own, once).
            var rounds = 0
            var before: Replica
            repeat {
                before = history.file
                var order = Array(history.nodes.indices)
                order.shuffle(using: &history.random)
                for index in order {
                    history.trueTime += 1000
                    try history.exchange(history.nodes[index], meanwhile: false)
                }
                rounds += 1
            } while history.file != before && rounds < 10
            history.counts["rounds to settle"] = rounds
            for (name, value) in history.counts { totals[name, default: 0] += value }
            let label = "history \(historyIndex) (seed \(FuzzText.hex(seed)))"
            let replicas = try history.nodes.map { try $0.store.replica.read().replica }
            if !replicas.allSatisfy({ $0 == history.file }) {
                failures += 1
                Issue.record("\(label): the machines did not converge")
            }
            for node in history.nodes {
                let links = try node.store.sections().flatMap(\.todos).compactMap { todo in todo.issue.map { "\(todo.repositoryID)#\($0.number)" } }
                if Set(links).count != links.count {
                    failures += 1
                    Issue.record("\(label): an issue is linked to two todos")
                }
            }
            for (uuid, todo) in history.file.todos {
                // The latest unlink stands: nothing seen on GitHub links the todo again.
                if let last = history.linkIntents[uuid]?.max(by: { $0.stamp < $1.stamp }), last.value == "none",
                   todo.issue.stamp <= last.stamp || todo.issue.value != nil && todo.issue.stamp <= last.stamp {
                    if todo.issue.value != nil {
                        failures += 1
                        Issue.record("\(label): todo \(uuid) was unlinked last, and is linked")
                    }
                }
                // No done or undo is lost to something seen before it.
                if let last = history.doneIntents[uuid]?.max(by: { $0.stamp < $1.stamp }),
                   todo.done.stamp < last.stamp || (todo.done.stamp == last.stamp && (todo.done.value.done ? "done" : "open") != last.value) {
                    failures += 1
                    Issue.record("\(label): todo \(uuid) lost the user's \(last.value)")
                }
            }
            if failures > 5 { return }
        }
        print("ReplicaHistoryTests: \(Self.histories) histories of \(Self.operationsPerHistory) operations over 3 machines: "
              + totals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        #expect((totals["exchange"] ?? 0) > Self.histories * 10)
        #expect((totals["link"] ?? 0) > Self.histories && (totals["unlink"] ?? 0) > Self.histories / 4)
        #expect((totals["pulled from an issue"] ?? 0) > Self.histories / 10 && (totals["finished by a trailer"] ?? 0) > Self.histories / 2)
        #expect((totals["rounds to settle"] ?? 0) <= Self.histories * 3, "settled in a few rounds")
        #expect((totals["changed during a sync"] ?? 0) > Self.histories)
    }
}
