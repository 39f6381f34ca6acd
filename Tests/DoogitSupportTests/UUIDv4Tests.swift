import DoogitSupport
import Testing
import TestSupport

/// A generator that always returns the same word.
private struct ConstantGenerator: RandomNumberGenerator {
    let word: UInt64
    mutating func next() -> UInt64 { word }
}

private let hexDigits = Set("0123456789abcdef")

@Suite("UUIDv4")
struct UUIDv4Tests {
    @Test("format: 8-4-4-4-12 lower-case hex digits")
    func format() {
        for _ in 0..<200 {
            let uuid = UUIDv4.make()
            #expect(uuid.count == 36)
            #expect(uuid.utf8.count == 36)
            let groups = uuid.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.map(\.count) == [8, 4, 4, 4, 12])
            #expect(groups.allSatisfy { $0.allSatisfy(hexDigits.contains) })
        }
    }

    @Test("version 4 and the RFC 4122 variant")
    func versionAndVariant() {
        var variants = Set<Character>()
        for _ in 0..<1000 {
            let uuid = Array(UUIDv4.make())
            #expect(uuid[14] == "4")
            #expect("89ab".contains(uuid[19]))
            variants.insert(uuid[19])
        }
        // The two free bits of the variant nibble are random too.
        #expect(variants == Set("89ab"))
    }

    @Test("made UUIDs are valid and unique over 1000")
    func unique() {
        let uuids = (0..<1000).map { _ in UUIDv4.make() }
        #expect(Set(uuids).count == 1000)
        #expect(uuids.allSatisfy(UUIDv4.isValid))
    }

    @Test("fixed version and variant bits with all-zero and all-one random bytes")
    func fixedBits() {
        var zeros = ConstantGenerator(word: 0)
        #expect(UUIDv4.make(using: &zeros) == "00000000-0000-4000-8000-000000000000")
        var ones = ConstantGenerator(word: .max)
        #expect(UUIDv4.make(using: &ones) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    }

    @Test("the same seed gives the same UUIDs; different seeds differ")
    func deterministic() {
        var first = SplitMix64(seed: 1)
        var second = SplitMix64(seed: 1)
        var third = SplitMix64(seed: 2)
        let a = (0..<10).map { _ in UUIDv4.make(using: &first) }
        let b = (0..<10).map { _ in UUIDv4.make(using: &second) }
        let c = (0..<10).map { _ in UUIDv4.make(using: &third) }
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a).count == 10)
        #expect(a.allSatisfy(UUIDv4.isValid))
    }

    @Test("isValid accepts the canonical lower-case form", arguments: [
        "123e4567-e89b-42d3-a456-426614174000", "00000000-0000-4000-8000-000000000000", "ffffffff-ffff-4fff-bfff-ffffffffffff",
    ])
    func valid(text: String) {
        #expect(UUIDv4.isValid(text))
    }

    @Test("isValid refuses anything else", arguments: [
        "", "123e4567-e89b-42d3-a456-42661417400", "123e4567-e89b-42d3-a456-4266141740000",
        "123E4567-E89B-42D3-A456-426614174000", "123e4567e89b42d3a456426614174000",
        "123e4567-e89b-42d3-a456_426614174000", "123e4567-e89b-42d3-a4564-26614174000",
        "g23e4567-e89b-42d3-a456-426614174000", "{123e4567-e89b-42d3-a456-426614174000}",
        " 23e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-42d3-a456-42661417400\u{E9}",
        "------------------------------------", "123e4567-e89b-42d3-a456-4266141740-0",
    ])
    func invalid(text: String) {
        #expect(!UUIDv4.isValid(text))
    }
}
