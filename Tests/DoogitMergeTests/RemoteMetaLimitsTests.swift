import DoogitMerge
import DoogitSupport
import Testing

/// `remote.jsonl` is written by other machines and can be edited by hand: what it says is read
/// within the limits the commands keep, and a value outside them is a bad line, never a number
/// that overflows in the arithmetic of days and generations.
@Suite struct RemoteMetaLimitsTests {
    static let header = #"{"format":"doogit","version":"4.0"}"#
    static let stamp = "2026-05-28T20:26:40.000Z/0000/aaaaaaaaaaaa"

    static func remoteLine(generation: String = "12", horizonDays: String = "90") -> String {
        #"{"type":"remote","generation":\#(generation),"compacted":"\#(stamp)","horizonDays":\#(horizonDays),"clock":{"horizonDays":"\#(stamp)"}}"#
    }

    static func machineLine(generation: String) -> String {
        #"{"type":"machine","id":"3f2a9c1b7d4e","name":"laptop","generation":\#(generation),"exchangedAt":"2026-05-28T20:26:40Z","forgotten":false,"clock":{"forgotten":"\#(stamp)"}}"#
    }

    static func decode(_ lines: [String]) throws(TodoFileError) -> RemoteMeta {
        try RemoteMeta.decode(Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    @Test(arguments: [
        ([header, remoteLine(horizonDays: "200000000000")], 2, "horizonDays"),
        ([header, remoteLine(horizonDays: "0")], 2, "horizonDays"),
        ([header, remoteLine(horizonDays: "3651")], 2, "horizonDays"),
        ([header, remoteLine(generation: "9223372036854775807")], 2, "generation"),
        ([header, remoteLine(generation: "-1")], 2, "generation"),
        ([header, remoteLine(), machineLine(generation: "9223372036854775807")], 3, "generation"),
    ])
    func aValueOutsideTheLimitsIsABadLineNamed(lines: [String], line: Int, field: String) {
        do {
            _ = try Self.decode(lines)
            Issue.record("accepted \(lines)")
        } catch {
            guard case .badLine(let named, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == line && reason.contains(field), "\(reason)")
        }
    }

    @Test func theLimitsThemselvesAreRead() throws {
        let meta = try Self.decode([Self.header, Self.remoteLine(generation: "9007199254740991", horizonDays: "3650"),
                                    Self.machineLine(generation: "0")])
        #expect(meta.generation == RemoteMeta.generationRange.upperBound && meta.horizonDays.value == 3650)
        #expect(RemoteMeta.generation(after: meta.generation) == RemoteMeta.generationRange.upperBound, "stays at the last")
        #expect(RemoteMeta.generation(after: 41) == 42)
        #expect(try Self.decode([Self.header, Self.remoteLine(horizonDays: "1")]).horizonDays.value == 1)
    }

    @Test(arguments: [Int64.min, -1, 0, 1, 90, 3650, 3651, Int64.max])
    func theHorizonsArithmeticNeverOverflows(days: Int64) {
        for now in [Int64.min, 0, 1_780_000_000_000, Int64.max] {
            let start = RemoteMeta.horizonStart(days: days, before: Timestamp(millisecondsSinceEpoch: now))
            #expect(start.millisecondsSinceEpoch <= now)
        }
        #expect(RemoteMeta.horizonStart(days: 1, before: Timestamp(millisecondsSinceEpoch: 1_780_000_000_000)).millisecondsSinceEpoch
                == 1_780_000_000_000 - RemoteMeta.dayMilliseconds)
    }

    /// A remote at its last generation is still planned without a trap: the next stays the last.
    @Test func anExchangeAtTheLastGenerationDoesNotOverflow() {
        var meta = RemoteMeta(generation: RemoteMeta.generationRange.upperBound)
        meta.horizonDays = Register(RemoteMeta.horizonDaysRange.upperBound, at: .zero)
        var world = RemoteWorld(1)
        world.add(0, RemoteExchangeTests.uuid(1), repository: 1, text: "one")
        world.remote[RemoteLayout.metaPath] = meta.encode()
        let wrote = world.exchange(0)
        #expect(wrote)
        let written = world.remote[RemoteLayout.metaPath].flatMap { try? RemoteMeta.decode($0) }
        #expect(written?.generation == RemoteMeta.generationRange.upperBound)
    }
}
