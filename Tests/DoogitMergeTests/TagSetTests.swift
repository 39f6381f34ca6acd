import DoogitMerge
import DoogitSupport
import Testing
import TestSupport

/// Tags as a set that merges tag by tag: an add and a remove of different tags both stand; a tag
/// added on one machine while removed on another goes to the later change (at one stamp, the
/// add); tags compare without case. The merge's algebra holds on random sets.
@Suite struct TagSetTests {
    static func stamp(_ seconds: Int64, _ machine: String = "aaaaaaaaaaaa") -> HybridTimestamp {
        HybridTimestamp(wall: 1_700_000_000_000 + seconds * 1000, counter: 0, machine: machine)
    }

    /// The rule for a tag, by Unicode scalars: what the ASCII shortcut must agree with.
    static func validByScalars(_ tag: String) -> Bool {
        !tag.isEmpty && tag.count <= 50
            && !tag.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0 == "," }
    }

    @Test func aTagIsAWordOfAtMostFiftyCharactersWithoutSpacesControlsOrCommas() {
        for valid in ["ci", "release-2.0", "naïve", "🚀", String(repeating: "a", count: 50), String(repeating: "é", count: 50)] {
            #expect(TagSet.isValid(valid), "\(valid)")
        }
        for invalid in ["", "two words", "tab\there", "a,b", "del\u{7F}", "nbsp\u{A0}x", "line\nbreak",
                        String(repeating: "a", count: 51), String(repeating: "é", count: 51)] {
            #expect(!TagSet.isValid(invalid), "\(invalid.debugDescription)")
        }
        // Random strings of ASCII (every byte) and a few others agree with the rule by scalars.
        var random = SplitMix64(seed: 0x7A65)
        let pool = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "\u{A0}", "\u{2003}", "🚀"]
        for _ in 0..<5000 {
            let tag = String((0..<Int.random(in: 0...52, using: &random)).map { _ in
                Int.random(in: 0..<8, using: &random) == 0 ? pool[Int.random(in: 0..<pool.count, using: &random)]
                    : pool[Int.random(in: 0x21..<0x7F, using: &random)]
            })
            #expect(TagSet.isValid(tag) == Self.validByScalars(tag), "\(tag.debugDescription)")
        }
    }

    @Test func twoMachinesTaggingOneTodoAtOnceKeepBothTags() {
        let start = TagSet(["ci"], at: Self.stamp(1))
        let a = start.adding(["froma"], at: Self.stamp(5, "aaaaaaaaaaaa"))
        let b = start.adding(["fromb"], at: Self.stamp(6, "bbbbbbbbbbbb"))
        #expect(a.merged(with: b).tags == ["ci", "froma", "fromb"])
        #expect(b.merged(with: a) == a.merged(with: b))
    }

    @Test func anAddAndARemoveOfDifferentTagsBothStand() {
        let start = TagSet(["ci", "old"], at: Self.stamp(1))
        let a = start.removing(["old"], at: Self.stamp(5, "aaaaaaaaaaaa"))
        let b = start.adding(["new"], at: Self.stamp(6, "bbbbbbbbbbbb"))
        #expect(a.merged(with: b).tags == ["ci", "new"])
    }

    @Test func oneTagAddedHereAndRemovedThereGoesToTheLaterChange() {
        let start = TagSet(["ci"], at: Self.stamp(1))
        let removed = start.removing(["ci"], at: Self.stamp(5, "aaaaaaaaaaaa"))
        let readded = start.removing(["ci"], at: Self.stamp(2)).adding(["ci"], at: Self.stamp(7, "bbbbbbbbbbbb"))
        #expect(removed.merged(with: readded).tags == ["ci"], "the add came later")
        let late = start.removing(["ci"], at: Self.stamp(9, "aaaaaaaaaaaa"))
        #expect(late.merged(with: readded).tags == [], "the removal came later")
        // At one stamp (two clocks clamped alike), the add.
        let same = Self.stamp(4)
        #expect(start.removing(["ci"], at: same).merged(with: TagSet(["ci"], at: same)).tags == ["ci"])
    }

    @Test func tagsCompareWithoutCase() {
        var tags = TagSet(["Bug"], at: Self.stamp(1))
        tags.add(["BUG", "bug"], at: Self.stamp(2))
        #expect(tags.tags == ["Bug"] && tags.states.count == 1, "one tag, the spelling first given")
        #expect(tags.contains("bUg"))
        tags.remove(["BUG"], at: Self.stamp(3))
        #expect(tags.isEmpty && tags.states["bug"]?.isOn == false)
        // A label's spelling, when the tag names one.
        tags.add(["Urgent"], at: Self.stamp(4)) { _ in "urgent" }
        #expect(tags.tags == ["urgent"])
    }

    @Test func aRemovalOfATagNotThereIsKeptToMeetAnAddElsewhere() {
        let add = TagSet().adding(["ci"], at: Self.stamp(3, "bbbbbbbbbbbb"))
        let remove = TagSet().removing(["CI"], at: Self.stamp(5, "aaaaaaaaaaaa"))
        #expect(remove.tags.isEmpty && remove.states["ci"]?.isOn == false)
        #expect(add.merged(with: remove).tags.isEmpty)
    }

    /// Random sets of random changes on three machines.
    static func randomSet(_ random: inout SplitMix64) -> TagSet {
        let words = ["ci", "CI", "Bug", "bug", "release", "docs", "Docs", "urgent"]
        var set = TagSet()
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let word = words[Int.random(in: 0..<words.count, using: &random)]
            let machine = ["aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"][Int.random(in: 0..<3, using: &random)]
            let at = stamp(Int64.random(in: 0...5, using: &random), machine)
            if Bool.random(using: &random) { set.add([word], at: at) } else { set.remove([word], at: at) }
        }
        return set
    }

    @Test func theMergeIsCommutativeAssociativeAndIdempotent() {
        var random = SplitMix64(seed: 0x7A65)
        for _ in 0..<3000 {
            let a = Self.randomSet(&random), b = Self.randomSet(&random), c = Self.randomSet(&random)
            #expect(a.merged(with: b) == b.merged(with: a))
            #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
            #expect(a.merged(with: a) == a)
            #expect(a.merged(with: b).merged(with: b) == a.merged(with: b))
        }
    }

    @Test func aLineKeepsEachTagsStateAndStamp() throws {
        let stampA = Self.stamp(1).text, stampB = Self.stamp(2, "bbbbbbbbbbbb").text
        let file = """
            {"format":"doogit","version":"4.2"}
            {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":7,"text":"t","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","tags":["ci","Release"],"clock":{"repository":"\(stampA)","text":"\(stampA)","done":"\(stampA)","tags":{"ci":"\(stampA)","old":"\(stampB)","release":"\(stampB)"}}}

            """
        let replica = try TodoFile.decode(Array(file.utf8), piece: true).replica
        let tags = try #require(replica.todos["9f1c2d3e-0000-4000-8000-000000000001"]?.details.tags)
        #expect(tags.tags == ["ci", "Release"])
        #expect(tags.states["old"] == TagState(spelling: "old", isOn: false, stamp: Self.stamp(2, "bbbbbbbbbbbb")), "a removal, kept")
        #expect(String(decoding: TodoFile.encode(replica), as: UTF8.self) == file, "the same bytes back")
        // Twice in one line (without case) is no tag set.
        let twice = file.replacingOccurrences(of: #"["ci","Release"]"#, with: #"["ci","CI"]"#)
        #expect(throws: TodoFileError.self) { try TodoFile.decode(Array(twice.utf8), piece: true) }
    }

    @Test func aLineOfFormatThreeHasItsTagsAtTheOneStampOfTheSet() throws {
        let stampA = Self.stamp(1).text
        let file = """
            {"format":"doogit","version":"3.1"}
            {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":7,"text":"t","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","tags":["ci","release"],"clock":{"repository":"\(stampA)","text":"\(stampA)","done":"\(stampA)","tags":"\(stampA)"}}

            """
        let read = try TodoFile.decode(Array(file.utf8), piece: true)
        #expect(read.majorVersion == 3)
        let tags = try #require(read.replica.todos["9f1c2d3e-0000-4000-8000-000000000001"]?.details.tags)
        #expect(tags == TagSet(["ci", "release"], at: Self.stamp(1)))
        let written = String(decoding: TodoFile.encode(read.replica), as: UTF8.self)
        #expect(written.hasPrefix(#"{"format":"doogit","version":"4.2"}"#)
                && written.contains(#""tags":{"ci":"\#(stampA)","release":"\#(stampA)"}"#), "\(written)")
    }

    @Test func aTagTakenOutByHandIsAChangeMadeWhenItWasRead() throws {
        let stampA = Self.stamp(1).text
        let line = { (tags: String) in """
            {"format":"doogit","version":"4.2"}
            {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":7,"text":"t","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","tags":\(tags),"clock":{"repository":"\(stampA)","text":"\(stampA)","done":"\(stampA)","tags":{"ci":"\(stampA)","docs":"\(stampA)"}}}

            """ }
        let known = try TodoFile.decode(Array(line(#"["ci","docs"]"#).utf8), piece: true).replica
        let hand = Self.stamp(50, "cccccccccccc")
        let edited = try TodoFile.decode(Array(line(#"["ci","docs","new"]"#).utf8), handEdit: hand, piece: true)
        #expect(edited.handEdits == 1, "a tag added by hand, without its stamp")
        let removed = try TodoFile.decode(Array(line(#"["ci"]"#).utf8), handEdit: hand, piece: true).replica
        let restamped = removed.restampingHandEdits(against: [known], at: hand)
        #expect(restamped.edits == 1)
        let tags = try #require(restamped.replica.todos["9f1c2d3e-0000-4000-8000-000000000001"]?.details.tags)
        #expect(tags.tags == ["ci"] && tags.states["docs"]?.stamp == hand, "docs off, as of the read")
        #expect(tags.merged(with: known.todos["9f1c2d3e-0000-4000-8000-000000000001"]?.details.tags ?? TagSet()).tags == ["ci"])
    }
}
