import DoogitMerge
import DoogitSupport
import Testing
import TestSupport

/// Random histories over three machines (adds, edits, done and undo, removals, restores, moves,
/// links to issues made, changed and dropped, repository settings, repositories tracked and
/// dropped, clocks an hour behind or set to 2099, exchanges with the
/// file and between machines), from a seeded generator so a failure can be replayed: the merge
/// is commutative, associative and idempotent on every copy seen, and machines that then
/// exchange with the file in any order end with the same list.
@Suite struct MergePropertyTests {
    static let histories = 3000
    static let operationsPerHistory = 40
    static let seed: UInt64 = 0x5EED_D006_17

    static let baseTime: Int64 = 1_700_000_000_000
    static let year2099: Int64 = 4_070_908_800_000
    static let words = ["write", "the", "release", "notes", "fix", "CI", "ship", "it", "naïve café", "🚀"]

    struct Machine {
        var replica = Replica()
        var clock: HybridClock
        /// Milliseconds between this machine's clock and the true time.
        var skew: Int64 = 0

        init(machine: String) {
            clock = HybridClock(machine: machine)
        }

        mutating func now(_ trueTime: Int64) -> Timestamp { Timestamp(millisecondsSinceEpoch: trueTime + skew) }

        /// The exchange `sync` makes with the file: both clamped to the reference, merged, both updated.
        mutating func exchange(with file: inout Replica, trueTime: Int64) {
            let reference = Timestamp(millisecondsSinceEpoch: trueTime)
            for copy in [replica, file] {
                #expect(copy.clamped(to: reference).replica == copy.mapStamps { HybridClock.clamp($0, reference: reference).stamp },
                        "clamping copies nothing only when no stamp is ahead")
            }
            let merged = merge(replica.clamped(to: reference).replica, file.clamped(to: reference).replica)
            replica = merged
            file = merged
            clock.observe(merged.latestStamp, reference: reference)
            clock.clampLatest(reference: reference)
        }
    }

    struct History {
        var random: SplitMix64
        var machines: [Machine]
        var file = Replica()
        var trueTime = MergePropertyTests.baseTime
        var nextUUID = 0
        var seen: [Replica] = []

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
            machines = (0..<3).map { Machine(machine: String(repeating: "\($0 + 1)", count: 12)) }
        }

        mutating func pick<T>(_ items: [T]) -> T? {
            items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
        }

        mutating func text() -> String {
            (0..<Int.random(in: 1...3, using: &random)).compactMap { _ in pick(MergePropertyTests.words) }.joined(separator: " ")
        }

        mutating func uuid() -> String {
            nextUUID += 1
            let digits = String(nextUUID, radix: 16)
            return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
        }

        mutating func step() {
            trueTime += Int64.random(in: 0...3000, using: &random)
            let index = Int.random(in: 0..<machines.count, using: &random)
            var machine = machines[index]
            let now = machine.now(trueTime)
            let live = machine.replica.todos.values.filter { !$0.isRemoved }.map(\.uuid).sorted()
            let removed = machine.replica.todos.values.filter(\.isRemoved).map(\.uuid).sorted()
            let shown = machine.replica.repositories.keys.filter { machine.replica.showsRepository($0) }.sorted()
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<18:
                if let repository = pick(shown) {
                    let id = uuid()
                    machine.replica.todos[id] = TodoEntry(uuid: id, repository: repository, text: text(), createdAt: now,
                                                          stamp: machine.clock.tick(now: now))
                } else {
                    track(&machine, id: Int64.random(in: 1...5, using: &random), now: now)
                }
            case 18..<32:
                if let id = pick(live) { machine.replica.todos[id]?.text.set(text(), at: machine.clock.tick(now: now)) }
            case 32..<44:
                if let id = pick(live) {
                    let done = Bool.random(using: &random)
                    machine.replica.todos[id]?.done.set(DoneState(doneAt: done ? now : nil), at: machine.clock.tick(now: now))
                }
            case 44..<52:
                if let id = pick(live) { machine.replica.todos[id]?.removed.set(true, at: machine.clock.tick(now: now)) }
            case 52..<57:
                if let id = pick(removed) { machine.replica.todos[id]?.removed.set(false, at: machine.clock.tick(now: now)) }
            case 57..<63:
                // A move forgets the link, in the same change.
                if let id = pick(live), let target = pick(shown) {
                    let stamp = machine.clock.tick(now: now)
                    machine.replica.todos[id]?.repository.set(target, at: stamp)
                    if machine.replica.todos[id]?.issue.value != nil { machine.replica.todos[id]?.issue.set(nil, at: stamp) }
                }
            case 63..<68:
                track(&machine, id: Int64.random(in: 1...5, using: &random), now: now)
            case 68..<71:
                // `repo remove --force`: the repository and its todos.
                if let repository = pick(shown) {
                    let stamp = machine.clock.tick(now: now)
                    machine.replica.repositories[repository]?.tracked.set(false, at: stamp)
                    for id in live where machine.replica.todos[id]?.repository.value == repository {
                        machine.replica.todos[id]?.removed.set(true, at: stamp)
                    }
                }
            case 71..<75:
                // `todo link`/`unlink`.
                if let id = pick(live), let repository = machine.replica.todos[id]?.repository.value {
                    let number = Int64.random(in: 1...4, using: &random)
                    let link = Bool.random(using: &random) ? nil : LinkedIssue(
                        number: number, repository: repository, url: "https://github.com/octocat/r\(repository)/issues/\(number)")
                    machine.replica.todos[id]?.issue.set(link, at: machine.clock.tick(now: now))
                }
            case 75..<77:
                // An issue seen on GitHub (its state applied as of GitHub's time), or a trailer.
                if let id = pick(live), var todo = machine.replica.todos[id] {
                    // Whole seconds, and titles and labels from small sets: two machines see one issue alike but for a detail.
                    let event = HybridTimestamp.event(at: Timestamp(millisecondsSinceEpoch: trueTime - 1000 * Int64.random(in: 0...5, using: &random)))
                    if let link = todo.issue.value, Bool.random(using: &random) {
                        let closed = Bool.random(using: &random)
                        let title = pick([nil, "", "t", text()]) ?? nil
                        let labels = pick([nil, [], ["bug"], ["bug", "ci"]]) ?? nil
                        todo.seen.set(IssueObservation(number: link.number, state: closed ? "closed" : "open", title: title,
                                                       url: link.url, updatedAt: event.timestamp, labels: labels), at: todo.issue.stamp)
                        todo.done.set(DoneState(doneAt: closed ? event.timestamp : nil), at: event)
                    } else {
                        todo.commits.insert(pick(["6dcb09b5", "aaaa09b5", "bbbb09b5"]) ?? "")
                        todo.done.set(DoneState(doneAt: event.timestamp), at: event)
                    }
                    machine.replica.todos[id] = todo
                }
            case 77..<80:
                // `repo set`.
                if let repository = pick(shown) {
                    let settings = SharedSettings(pushIssues: Bool.random(using: &random),
                                                  importIssues: pick(SharedSettings.importModes.sorted()) ?? "off",
                                                  scanCommits: Bool.random(using: &random))
                    machine.replica.repositories[repository]?.settings.set(settings, at: machine.clock.tick(now: now))
                }
            case 80..<88:
                machine.exchange(with: &file, trueTime: trueTime)
            case 88..<95:
                // Two machines merging directly (the merge allows it even though sync goes through the file).
                let other = (index + Int.random(in: 1...2, using: &random)) % machines.count
                let merged = merge(machine.replica, machines[other].replica)
                machine.replica = merged
                machines[other].replica = merged
                machine.clock.observe(merged.latestStamp, reference: nil)
                machines[other].clock.observe(merged.latestStamp, reference: nil)
            case 95..<98:
                // A detail: a due date, a priority, tags, a note or who (set or cleared).
                if let id = pick(live) {
                    let stamp = machine.clock.tick(now: now)
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0: machine.replica.todos[id]?.details.due.set(
                        Bool.random(using: &random) ? CalendarDate(year: 2026, month: 12, day: Int.random(in: 1...31, using: &random)) : nil,
                        at: stamp)
                    case 1: machine.replica.todos[id]?.details.priority.set(pick(Priority.allCases.map(Optional.some) + [nil]) ?? nil, at: stamp)
                    case 2:
                        // Tags added or removed, one by one, in any case (they compare without it).
                        let words = MergePropertyTests.words.filter(TagSet.isValid).filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
                            .map { Bool.random(using: &random) ? $0.uppercased() : $0 }
                        if Bool.random(using: &random) {
                            machine.replica.todos[id]?.details.tags.add(words, at: stamp)
                        } else {
                            machine.replica.todos[id]?.details.tags.remove(words, at: stamp)
                        }
                    case 3: machine.replica.todos[id]?.details.note.set(Bool.random(using: &random) ? text() + "\n" + text() : nil, at: stamp)
                    default:
                        let login = pick(["octocat", "hubot", "mona-lisa", "user_corp", nil]) ?? nil
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0: machine.replica.todos[id]?.details.author.set(login, at: stamp)
                        case 1: machine.replica.todos[id]?.details.finishedBy.set(login, at: stamp)
                        case 2: machine.replica.todos[id]?.details.keptPrivate.set(Bool.random(using: &random), at: stamp)
                        default: machine.replica.todos[id]?.details.assignee.set(login, at: stamp)
                        }
                    }
                }
            default:
                // Clocks go wrong: an hour behind, set to 2099, or back to the right time.
                machine.skew = pick([-3_600_000, 0, 0, MergePropertyTests.year2099 - trueTime, Int64.random(in: -5000...5000, using: &random)]) ?? 0
            }
            machines[index] = machine
            seen.append(machine.replica)
        }

        mutating func track(_ machine: inout Machine, id: Int64, now: Timestamp) {
            let stamp = machine.clock.tick(now: now)
            var entry = machine.replica.repositories[id]
                ?? RepositoryEntry(id: id, name: Register(RepositoryName(fullName: "octocat/r\(id)", url: "https://github.com/octocat/r\(id)"), at: stamp),
                                   tracked: Register(true, at: stamp))
            entry.tracked.set(true, at: stamp)
            if Bool.random(using: &random) {
                entry.name.set(RepositoryName(fullName: "octocat/renamed-\(id)", url: "https://github.com/octocat/renamed-\(id)"), at: stamp)
            }
            machine.replica.repositories[id] = entry
        }
    }

    @Test func mergeIsCommutativeAssociativeAndIdempotentAndMachinesConverge() {
        var generator = SplitMix64(seed: Self.seed)
        var failures = 0
        var todosAtTheEnd = 0, linksAtTheEnd = 0, settingsAtTheEnd = 0
        for historyIndex in 0..<Self.histories {
            let seed = generator.next()
            var history = History(seed: seed)
            for _ in 0..<Self.operationsPerHistory { history.step() }

            // The algebra, on copies seen along the way.
            for _ in 0..<4 {
                guard let a = history.pick(history.seen), let b = history.pick(history.seen), let c = history.pick(history.seen)
                else { continue }
                let ab = merge(a, b)
                if ab != merge(b, a) || merge(ab, c) != merge(a, merge(b, c)) || merge(a, a) != a || merge(ab, b) != ab {
                    failures += 1
                    Issue.record("history \(historyIndex) (seed \(FuzzText.hex(seed))): the merge algebra does not hold")
                }
            }

            // Everyone exchanges with the file, in a random order, twice: all the same.
            for _ in 0..<2 {
                var order = Array(history.machines.indices)
                order.shuffle(using: &history.random)
                for index in order {
                    history.trueTime += Int64.random(in: 0...1000, using: &history.random)
                    history.machines[index].exchange(with: &history.file, trueTime: history.trueTime)
                }
            }
            let replicas = history.machines.map(\.replica)
            if !replicas.allSatisfy({ $0 == history.file }) {
                failures += 1
                Issue.record("history \(historyIndex) (seed \(FuzzText.hex(seed))): the machines did not converge")
            }
            todosAtTheEnd += history.file.todos.count
            linksAtTheEnd += history.file.todos.values.filter { $0.issue.stamp != .zero }.count
            settingsAtTheEnd += history.file.repositories.values.filter { $0.settings.stamp != .zero }.count
            if failures > 5 { return }
        }
        #expect(todosAtTheEnd > Self.histories * 3, "the histories did little")
        #expect(linksAtTheEnd > Self.histories / 2 && settingsAtTheEnd > Self.histories / 2, "links and settings were hardly exercised")
    }
}
