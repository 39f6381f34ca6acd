import DoogitMerge
import DoogitSupport
import Testing

/// Each merge rule on its own, in both orders.
@Suite struct MergeRulesTests {
    static let machineA = "aaaaaaaaaaaa"
    static let machineB = "bbbbbbbbbbbb"
    static let created = Timestamp(secondsSinceEpoch: 1_700_000_000)
    static let uuid = "00000000-0000-4000-8000-000000000001"

    static func stamp(_ second: Int64, _ machine: String = machineA, counter: Int = 0) -> HybridTimestamp {
        HybridTimestamp(wall: (1_700_000_000 + second) * 1000, counter: counter, machine: machine)
    }

    static func repository(_ id: Int64, tracked: Bool = true, at second: Int64 = 0) -> RepositoryEntry {
        RepositoryEntry(id: id, name: Register(RepositoryName(fullName: "octocat/r\(id)", url: "https://github.com/octocat/r\(id)"),
                                              at: stamp(0)),
                        tracked: Register(tracked, at: stamp(second)))
    }

    /// A replica with one repository and one todo added at second 0.
    static func base() -> Replica {
        var replica = Replica()
        replica.repositories[1] = repository(1)
        replica.repositories[2] = repository(2)
        replica.todos[uuid] = TodoEntry(uuid: uuid, repository: 1, text: "write the notes", createdAt: created, stamp: stamp(0))
        return replica
    }

    static func changing(_ replica: Replica, _ change: (inout TodoEntry) -> Void) -> Replica {
        var copy = replica
        if var todo = copy.todos[uuid] {
            change(&todo)
            copy.todos[uuid] = todo
        }
        return copy
    }

    /// merge(a, b) and merge(b, a), which must be the same.
    static func bothOrders(_ a: Replica, _ b: Replica, sourceLocation: SourceLocation = #_sourceLocation) -> Replica {
        let ab = merge(a, b), ba = merge(b, a)
        #expect(ab == ba, "the merge depends on the order", sourceLocation: sourceLocation)
        return ab
    }

    @Test func differentFieldsEditedOnTwoMachinesBothSurvive() throws {
        let a = Self.changing(Self.base()) { $0.text.set("write the release notes", at: Self.stamp(10, Self.machineA)) }
        let b = Self.changing(Self.base()) { $0.done.set(DoneState(doneAt: Self.created), at: Self.stamp(5, Self.machineB)) }
        let todo = try #require(Self.bothOrders(a, b).todos[Self.uuid])
        #expect(todo.text.value == "write the release notes")
        #expect(todo.done.value.done)
    }

    @Test func theSameFieldKeepsTheLaterWrite() throws {
        let a = Self.changing(Self.base()) { $0.text.set("from a", at: Self.stamp(10, Self.machineA)) }
        let b = Self.changing(Self.base()) { $0.text.set("from b", at: Self.stamp(11, Self.machineB)) }
        #expect(try #require(Self.bothOrders(a, b).todos[Self.uuid]).text.value == "from b")
        // The same moment: the machine id decides.
        let c = Self.changing(Self.base()) { $0.text.set("from a again", at: Self.stamp(20, Self.machineA)) }
        let d = Self.changing(Self.base()) { $0.text.set("from b again", at: Self.stamp(20, Self.machineB)) }
        #expect(try #require(Self.bothOrders(c, d).todos[Self.uuid]).text.value == "from b again")
        // The same stamp (a copied machine id): the value order decides, the same everywhere.
        let e = Self.changing(Self.base()) { $0.text.set("apple", at: Self.stamp(30)) }
        let f = Self.changing(Self.base()) { $0.text.set("banana", at: Self.stamp(30)) }
        #expect(try #require(Self.bothOrders(e, f).todos[Self.uuid]).text.value == "banana")
    }

    @Test func removalWinsOverAConcurrentEditAndKeepsTheEditedValues() throws {
        let removed = Self.changing(Self.base()) { $0.removed.set(true, at: Self.stamp(5, Self.machineA)) }
        // The edit is later than the removal, and still does not bring the todo back.
        let edited = Self.changing(Self.base()) {
            $0.text.set("edited elsewhere", at: Self.stamp(50, Self.machineB))
            $0.done.set(DoneState(doneAt: Self.created), at: Self.stamp(51, Self.machineB))
        }
        let todo = try #require(Self.bothOrders(removed, edited).todos[Self.uuid])
        #expect(todo.isRemoved)
        #expect(todo.text.value == "edited elsewhere", "the removed todo keeps the edit, for a restore")
        #expect(todo.done.value.done)
    }

    @Test func onlyARestoreStampedAfterTheRemovalBringsItBack() throws {
        let removed = Self.changing(Self.base()) { $0.removed.set(true, at: Self.stamp(5, Self.machineA)) }
        let restored = Self.changing(removed) { $0.removed.set(false, at: Self.stamp(6, Self.machineB)) }
        #expect(try #require(Self.bothOrders(removed, restored).todos[Self.uuid]).isRemoved == false)
        // A removal after the restore wins again.
        let removedAgain = Self.changing(restored) { $0.removed.set(true, at: Self.stamp(7, Self.machineA)) }
        #expect(try #require(Self.bothOrders(restored, removedAgain).todos[Self.uuid]).isRemoved)
        // A restore older than the removal does not.
        let staleRestore = Self.changing(Self.base()) { $0.removed.set(false, at: Self.stamp(4, Self.machineB)) }
        #expect(try #require(Self.bothOrders(removed, staleRestore).todos[Self.uuid]).isRemoved)
    }

    @Test func doneAndUndoAtOnceGiveTheSameWinnerEverywhere() throws {
        let doneFirst = Self.changing(Self.base()) { $0.done.set(DoneState(doneAt: Self.created), at: Self.stamp(8, Self.machineA)) }
        let undone = Self.changing(doneFirst) { $0.done.set(.open, at: Self.stamp(9, Self.machineA)) }
        let doneElsewhere = Self.changing(Self.base()) {
            $0.done.set(DoneState(doneAt: Self.created), at: Self.stamp(9, Self.machineB))
        }
        let todo = try #require(Self.bothOrders(undone, doneElsewhere).todos[Self.uuid])
        #expect(todo.done.value.done, "b's done at the same second wins by machine id, on every machine")
    }

    @Test func twoMachinesThatEachAddATodoKeepBoth() {
        var a = Self.base(), b = Self.base()
        let first = "00000000-0000-4000-8000-0000000000aa", second = "00000000-0000-4000-8000-0000000000bb"
        a.todos[first] = TodoEntry(uuid: first, repository: 1, text: "from a", createdAt: Self.created, stamp: Self.stamp(3))
        b.todos[second] = TodoEntry(uuid: second, repository: 2, text: "from b", createdAt: Self.created,
                                    stamp: Self.stamp(3, Self.machineB))
        #expect(Set(Self.bothOrders(a, b).todos.keys) == [Self.uuid, first, second])
    }

    @Test func aMovedTodoArrivesLastInItsNewRepository() throws {
        let moved = Self.changing(Self.base()) { $0.repository.set(2, at: Self.stamp(40, Self.machineB)) }
        let todo = try #require(Self.bothOrders(Self.base(), moved).todos[Self.uuid])
        #expect(todo.repository.value == 2)
        #expect(todo.arrival == Self.stamp(40, Self.machineB))
        let restoredLater = Self.changing(moved) {
            $0.removed.set(true, at: Self.stamp(41))
            $0.removed.set(false, at: Self.stamp(42))
        }
        #expect(restoredLater.todos[Self.uuid]?.arrival == Self.stamp(42))
    }

    @Test func aRepositoryTrackedElsewhereIsTrackedAndOneWithATodoLeftStaysShown() {
        var here = Self.base()
        here.repositories[2] = Self.repository(2, tracked: false, at: 30)
        let there = Self.changing(Self.base()) { $0.repository.set(2, at: Self.stamp(20, Self.machineB)) }
        let merged = Self.bothOrders(here, there)
        #expect(merged.repositories[2]?.tracked.value == false, "the later removal of the repository wins")
        #expect(merged.showsRepository(2), "but the todo moved to it keeps it on the list")
        let emptied = Self.changing(merged) { $0.removed.set(true, at: Self.stamp(60)) }
        #expect(!emptied.showsRepository(2))
        #expect(emptied.showsRepository(1))

        var newMachine = Replica()
        newMachine.repositories[7] = Self.repository(7)
        #expect(Self.bothOrders(newMachine, Self.base()).showsRepository(7))
    }

    static func link(_ number: Int64) -> LinkedIssue {
        LinkedIssue(number: number, repository: 1, url: "https://github.com/octocat/r1/issues/\(number)")
    }

    static func seen(_ number: Int64, _ state: String, updatedAt seconds: Int64) -> IssueObservation {
        IssueObservation(number: number, state: state, title: "t", url: "https://github.com/octocat/r1/issues/\(number)",
                         updatedAt: Timestamp(secondsSinceEpoch: 1_700_000_000 + seconds))
    }

    @Test func aLinkAndAnEditMadeOnTwoMachinesBothSurvive() throws {
        let linked = Self.changing(Self.base()) { $0.issue.set(Self.link(12), at: Self.stamp(10, Self.machineA)) }
        let edited = Self.changing(Self.base()) { $0.text.set("write the release notes", at: Self.stamp(11, Self.machineB)) }
        let todo = try #require(Self.bothOrders(linked, edited).todos[Self.uuid])
        #expect(todo.issue.value == Self.link(12))
        #expect(todo.text.value == "write the release notes")
        #expect(todo.latestStamp == Self.stamp(11, Self.machineB))
    }

    @Test func linkingAndUnlinkingKeepTheLaterWriteWhateverIsSeenOfTheIssue() throws {
        let linked = Self.changing(Self.base()) { $0.issue.set(Self.link(12), at: Self.stamp(10, Self.machineA)) }
        let unlinkedLater = Self.changing(linked) { $0.issue.set(nil, at: Self.stamp(20, Self.machineB)) }
        // Another machine, still linked, sees the issue closed after the unlink: an observation,
        // recorded under the link it was seen under, which never links the todo again.
        let seenLater = Self.changing(linked) { $0.seen.set(Self.seen(12, "closed", updatedAt: 30), at: $0.issue.stamp) }
        let merged = try #require(Self.bothOrders(unlinkedLater, seenLater).todos[Self.uuid])
        #expect(merged.issue.value == nil && merged.observation == nil)
        // Under one link, the later state of the issue wins, whoever saw it first.
        let seenEarlier = Self.changing(linked) { $0.seen.set(Self.seen(12, "open", updatedAt: 25), at: $0.issue.stamp) }
        #expect(try #require(Self.bothOrders(seenEarlier, seenLater).todos[Self.uuid]).observation?.state == "closed")
        let relinked = Self.changing(linked) { $0.issue.set(Self.link(13), at: Self.stamp(30, Self.machineA)) }
        #expect(try #require(Self.bothOrders(unlinkedLater, relinked).todos[Self.uuid]).issue == Register(Self.link(13),
                                                                                                       at: Self.stamp(30)))
        // A removed todo keeps its link, for a restore.
        let removed = Self.changing(Self.base()) { $0.removed.set(true, at: Self.stamp(5, Self.machineB)) }
        let todo = try #require(Self.bothOrders(removed, linked).todos[Self.uuid])
        #expect(todo.isRemoved && todo.issue.value == Self.link(12))
    }

    @Test func settingsKeepTheLaterWriteAndARepositoryNobodyConfiguredTakesThem() throws {
        let pushing = SharedSettings(pushIssues: true, importIssues: "off", scanCommits: true)
        let importing = SharedSettings(pushIssues: false, importIssues: "all", scanCommits: false)
        var a = Self.base(), b = Self.base()
        a.repositories[1]?.settings.set(pushing, at: Self.stamp(5, Self.machineA))
        #expect(Self.bothOrders(a, Self.base()).repositories[1]?.settings == Register(pushing, at: Self.stamp(5)),
                "the defaults at the zero stamp never win")
        b.repositories[1]?.settings.set(importing, at: Self.stamp(6, Self.machineB))
        let merged = Self.bothOrders(a, b)
        #expect(merged.repositories[1]?.settings.value == importing, "the settings are one field: the later write, whole")
        #expect(merged.latestStamp == Self.stamp(6, Self.machineB))
        // Clamping a clock that ran ahead reaches settings and links too.
        let future = HybridTimestamp(wall: 4_070_908_800_000, counter: 0, machine: Self.machineB)
        var ahead = Self.changing(Self.base()) { $0.issue.set(Self.link(12), at: future) }
        ahead.repositories[1]?.settings.set(pushing, at: future)
        let reference = Timestamp(secondsSinceEpoch: 1_700_000_100)
        let clamped = ahead.clamped(to: reference).replica
        #expect(clamped.todos[Self.uuid]?.issue.stamp.wall == reference.millisecondsSinceEpoch)
        #expect(clamped.repositories[1]?.settings.stamp.wall == reference.millisecondsSinceEpoch)
        #expect(Self.base().clamped(to: reference).replica == Self.base(), "zero stamps stay zero")
    }

    @Test func unknownFieldsTravelAndStampedOnesKeepTheLaterWrite() throws {
        let estimateA = JSONValue.object([JSONMember("number", .int(12))])
        let estimateB = JSONValue.object([JSONMember("number", .int(13))])
        let a = Self.changing(Self.base()) {
            $0.unknown["estimate"] = UnknownFields.Field(value: estimateA, stamp: Self.stamp(70, Self.machineA))
            $0.unknown["color"] = UnknownFields.Field(value: .string("red"), stamp: nil)
        }
        let b = Self.changing(Self.base()) {
            $0.unknown["estimate"] = UnknownFields.Field(value: estimateB, stamp: Self.stamp(60, Self.machineB))
            $0.unknown["color"] = UnknownFields.Field(value: .string("blue"), stamp: nil)
            $0.unknown["size"] = UnknownFields.Field(value: .int(3), stamp: nil)
        }
        let todo = try #require(Self.bothOrders(a, b).todos[Self.uuid])
        #expect(todo.unknown["estimate"]?.value == estimateA)
        #expect(todo.unknown["color"]?.value == .string("red"), "without stamps a fixed order decides")
        #expect(todo.unknown["size"]?.value == .int(3))
    }

    @Test func clampingBringsStampsFromTheFutureBackToTheReference() throws {
        let year2099 = try #require(Timestamp(rfc3339: "2099-01-01T00:00:00.000Z"))
        let future = HybridTimestamp(wall: year2099.millisecondsSinceEpoch, counter: 1, machine: Self.machineB)
        let replica = Self.changing(Self.base()) { $0.text.set("from the future", at: future) }
        let reference = Timestamp(secondsSinceEpoch: 1_700_000_100)
        let (clamped, ahead) = replica.clamped(to: reference)
        #expect(ahead == year2099.millisecondsSinceEpoch - reference.millisecondsSinceEpoch)
        #expect(clamped.todos[Self.uuid]?.text.stamp == HybridTimestamp(wall: reference.millisecondsSinceEpoch, counter: 1,
                                                                         machine: Self.machineB))
        #expect(clamped.todos[Self.uuid]?.done.stamp == Self.stamp(0), "stamps in the past are left alone")
        #expect(Self.base().clamped(to: reference).aheadBy == nil)
        // An edit made on time after the clamp wins over the clamped one.
        let later = Self.changing(Self.base()) { $0.text.set("on time", at: Self.stamp(101, Self.machineA)) }
        #expect(merge(clamped, later).todos[Self.uuid]?.text.value == "on time")
    }

    /// Two machines that saw one issue at one moment, alike but for its labels (or a title
    /// missing against an empty one), merge to the same observation in either order.
    @Test func observationsThatDifferOnlyInLabelsOrAMissingTitleMergeAlikeInEitherOrder() {
        let stamp = Self.stamp(5, Self.machineA)
        func seen(title: String?, labels: [String]?) -> Replica {
            var observation = Self.seen(12, "open", updatedAt: 5)
            (observation.title, observation.labels) = (title, labels)
            return Self.changing(Self.base()) { $0.seen.set(observation, at: stamp) }
        }
        let pairs: [(Replica, Replica)] = [
            (seen(title: "t", labels: ["bug"]), seen(title: "t", labels: ["ci"])),
            (seen(title: "t", labels: nil), seen(title: "t", labels: [])),
            (seen(title: nil, labels: ["bug"]), seen(title: "", labels: ["bug"])),
        ]
        for (a, b) in pairs {
            #expect(merge(a, b) == merge(b, a), "\(String(describing: a.todos[Self.uuid]?.seen.value))")
        }
    }

    @Test func aStampAheadAnywhereIsClampedEvenWhenEveryOtherIsOnTime() throws {
        let reference = Timestamp(secondsSinceEpoch: 1_700_000_100)
        let future = HybridTimestamp(wall: 4_070_908_800_000, counter: 2, machine: Self.machineB)
        var seenAhead = Self.seen(12, "open", updatedAt: 5)
        seenAhead.seenAt = future
        let onlyOneAhead: [(String, Replica)] = [
            ("the time an issue was seen", Self.changing(Self.base()) { $0.seen.set(seenAhead, at: Self.stamp(5, Self.machineA)) }),
            ("a tag", Self.changing(Self.base()) { $0.details.tags.add(["ci"], at: future) }),
            ("a todo's unknown field", Self.changing(Self.base()) { $0.unknown["size"] = UnknownFields.Field(value: .int(3), stamp: future) }),
            ("a repository's unknown field", {
                var replica = Self.base()
                replica.repositories[1]?.unknown["color"] = UnknownFields.Field(value: .string("red"), stamp: future)
                return replica
            }()),
        ]
        for (place, replica) in onlyOneAhead {
            let (clamped, ahead) = replica.clamped(to: reference)
            #expect(ahead == future.wall - reference.millisecondsSinceEpoch, "\(place)")
            #expect(clamped == replica.mapStamps { HybridClock.clamp($0, reference: reference).stamp }, "\(place)")
            #expect(clamped.latestStamp.wall <= reference.millisecondsSinceEpoch + HybridClock.tolerance, "\(place)")
        }
    }

    @Test func mergingWithItselfOrWithNothingChangesNothing() {
        let replica = Self.changing(Self.base()) { $0.removed.set(true, at: Self.stamp(3)) }
        #expect(merge(replica, replica) == replica)
        #expect(merge(replica, .empty) == replica)
        #expect(merge(.empty, replica) == replica)
    }
}
