import DoogitMerge
import DoogitSupport
import Testing
import TestSupport

@Suite struct HybridClockTests {
    let machineA = "aaaaaaaaaaaa"
    let machineB = "bbbbbbbbbbbb"
    let t0 = Timestamp(secondsSinceEpoch: 1_700_000_000)

    func at(_ offsetMilliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: t0.millisecondsSinceEpoch + offsetMilliseconds)
    }

    @Test func theTextFormIsFixedWidthAndSortsAsTheStampsCompare() throws {
        let stamp = HybridTimestamp(wall: t0.millisecondsSinceEpoch + 123, counter: 10, machine: "3f2a9c1b7d4e")
        #expect(stamp.text == "2023-11-14T22:13:20.123Z/000a/3f2a9c1b7d4e")
        #expect(HybridTimestamp(text: stamp.text) == stamp)
        var random = SplitMix64(seed: 42)
        var stamps: [HybridTimestamp] = []
        for _ in 0..<500 {
            stamps.append(HybridTimestamp(wall: Int64.random(in: 0...HybridTimestamp.maximumWall, using: &random) / [1, 1000, 1_000_000][Int.random(in: 0...2, using: &random)],
                                          counter: Int.random(in: 0...0xFFFF, using: &random),
                                          machine: HybridTimestamp.makeMachineID(using: &random)))
        }
        stamps.append(.zero)
        for stamp in stamps {
            #expect(stamp.text.utf8.count == 42)
            #expect(HybridTimestamp(text: stamp.text) == stamp)
        }
        #expect(stamps.sorted().map(\.text) == stamps.map(\.text).sorted())
    }

    @Test(arguments: ["", "2023-11-14T22:13:20.123Z/000a/3f2a9c1b7d4", "2023-11-14T22:13:20.123Z/000A/3f2a9c1b7d4e",
                      "2023-11-14T22:13:20.12Z/000a/3f2a9c1b7d4e0", "2023-11-14T22:13:20.123+00:00/0a/3f2a9c1b7d4e",
                      "2023-11-14T22:13:20.123Z-000a-3f2a9c1b7d4e", "2023-13-14T22:13:20.123Z/000a/3f2a9c1b7d4e"])
    func onlyTheCanonicalTextIsAStamp(text: String) {
        #expect(HybridTimestamp(text: text) == nil)
    }

    @Test func ticksAreLaterThanEverythingMadeOrSeen() {
        var clock = HybridClock(machine: machineA)
        let first = clock.tick(now: t0)
        let sameMillisecond = clock.tick(now: t0)
        let clockWentBack = clock.tick(now: at(-60_000))
        #expect(first < sameMillisecond && sameMillisecond < clockWentBack)
        #expect(clockWentBack.wall == t0.millisecondsSinceEpoch && clockWentBack.counter == 2)
        #expect(clock.tick(now: at(5)) == HybridTimestamp(wall: t0.millisecondsSinceEpoch + 5, counter: 0, machine: machineA))
    }

    @Test func aMachineAnHourBehindThatHasSeenAChangeStampsItsNextEditAfterIt() {
        var ahead = HybridClock(machine: machineA)
        var behind = HybridClock(machine: machineB)
        let edit = ahead.tick(now: t0)
        behind.observe(edit, reference: t0)
        let later = behind.tick(now: at(-3_600_000 + 1000))
        #expect(later > edit)
        #expect(later.machine == machineB)
    }

    @Test func aStampFarAheadOfTheReferenceIsClampedAndReported() {
        var clock = HybridClock(machine: machineA)
        let year2099 = Timestamp(rfc3339: "2099-01-01T00:00:00.000Z") ?? t0
        let future = HybridTimestamp(wall: year2099.millisecondsSinceEpoch, counter: 3, machine: machineB)
        let observed = clock.observe(future, reference: t0)
        #expect(observed.stamp == HybridTimestamp(wall: t0.millisecondsSinceEpoch, counter: 3, machine: machineB))
        #expect(observed.clampedBy == year2099.millisecondsSinceEpoch - t0.millisecondsSinceEpoch)
        #expect(clock.latest.wall == t0.millisecondsSinceEpoch, "the clock did not jump to 2099")

        // A little ahead is normal and kept as it is.
        let slightlyAhead = HybridTimestamp(wall: at(60_000).millisecondsSinceEpoch, counter: 0, machine: machineB)
        #expect(clock.observe(slightlyAhead, reference: t0) == HybridClock.Observation(stamp: slightlyAhead, clampedBy: nil))

        // A clock that itself ran ahead comes back to the reference.
        var runaway = HybridClock(machine: machineB)
        _ = runaway.tick(now: year2099)
        runaway.clampLatest(reference: t0)
        #expect(runaway.latest.wall == t0.millisecondsSinceEpoch)
    }

    @Test func sixtyFiveThousandChangesInOneMillisecondBorrowTheNext() {
        var clock = HybridClock(machine: machineA)
        var previous = clock.tick(now: t0)
        var ordered = true
        for _ in 0..<70_000 {
            let next = clock.tick(now: t0)
            ordered = ordered && next > previous
            previous = next
        }
        #expect(ordered)
        #expect(previous.wall == t0.millisecondsSinceEpoch + 1)
    }

    /// At the end of time (the year 9999's last millisecond, a clock set there, or a stamp seen
    /// from one), the clock's stamps never step back: the last one stays.
    @Test func atTheLastMillisecondTheClockNeverStepsBack() {
        let end = Timestamp(millisecondsSinceEpoch: HybridTimestamp.maximumWall)
        var clock = HybridClock(machine: machineA, latest: HybridTimestamp(wall: HybridTimestamp.maximumWall,
                                                                           counter: HybridTimestamp.maximumCounter - 2,
                                                                           machine: machineA))
        var previous = clock.latest
        for now in [end, end, end, Timestamp(millisecondsSinceEpoch: .max), t0] {
            let next = clock.tick(now: now)
            #expect(next >= previous, "\(next) after \(previous)")
            previous = next
        }
        #expect(previous == HybridTimestamp(wall: HybridTimestamp.maximumWall, counter: HybridTimestamp.maximumCounter, machine: machineA))
    }
}
