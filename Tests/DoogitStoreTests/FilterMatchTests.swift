@testable import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// `--grep`'s match, and the view's filter: ASCII by bytes, the rest by lowercasing, one answer.
struct FilterMatchTests {
    func todo(_ text: String) -> TodoRecord {
        TodoRecord(id: 1, uuid: "u", repositoryID: 1, repositoryFullName: "o/n", text: text, done: false, position: 1,
                   createdAt: Timestamp(secondsSinceEpoch: 0), updatedAt: Timestamp(secondsSinceEpoch: 0), doneAt: nil)
    }

    @Test(arguments: [
        ("Write The Release Notes", "release", true), ("write", "writes", false), ("abc", "", false),
        ("fix CI now", "ci n", true), ("x", "x", true), ("aaab", "aab", true), ("[ci]", "[c", true),
        ("Ünïcode Straße", "straße", true), ("ÉTÉ", "été", true), ("café", "cafe", false),
        ("K-Kelvin \u{212A}", "k-k", true), ("日本語のテキスト", "テキ", true),
    ])
    func matchesAsLowercasingWould(text: String, needle: String, expected: Bool) {
        #expect(todo(text).matches(needle) == expected)
        #expect(todo(text).matches(needle) == text.lowercased().contains(needle), "the same answer as lowercasing")
    }
}

/// The ASCII match reads eight bytes at a time: it answers as reading them one by one did, at
/// every place a word can start or end, and so does the filter's count in SQL.
struct WordAtATimeMatchTests {
    /// The match as first written: nil unless every byte of both is ASCII, then each place
    /// compared byte by byte without case.
    static func byteByByte(_ text: [UInt8], _ needle: [UInt8]) -> Bool? {
        if needle.contains(where: { $0 >= 0x80 }) || text.contains(where: { $0 >= 0x80 }) { return nil }
        guard needle.count <= text.count, !needle.isEmpty else { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return (0...(text.count - needle.count)).contains { start in
            needle.indices.allSatisfy { lower(text[start + $0]) == lower(needle[$0]) }
        }
    }

    /// Bytes that differ from a letter by its case bit only (`@` and `` ` ``, `[` and `{`), each
    /// case, and now and then a character that is not ASCII.
    static let pieces = ["a", "A", "o", "O", "z", "Z", "@", "`", "[", "{", "^", "~", " ", "%", "_", "0", "\u{7F}", "\t"]
    static let rare = ["é", "e\u{301}", "\u{212A}", "ß", "日本"]

    static func text(_ generator: inout SplitMix64, length: Int) -> String {
        (0..<length).map { _ in
            Int.random(in: 0..<40, using: &generator) == 0 ? rare.randomElement(using: &generator) ?? ""
                : pieces.randomElement(using: &generator) ?? ""
        }.joined()
    }

    static func needle(from texts: [String], _ generator: inout SplitMix64) -> String {
        // Most often a piece of a text (found, in some case), else made up.
        if Bool.random(using: &generator), let text = texts.randomElement(using: &generator), !text.isEmpty {
            let bytes = Array(text.utf8)
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            let end = min(bytes.count, start + Int.random(in: 1...4, using: &generator))
            return String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
        }
        return text(&generator, length: Int.random(in: 1...3, using: &generator)).lowercased()
    }

    @Test(arguments: 0..<8)
    func wordsAnswerAsBytesDid(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<2_000 {
            let text = Array(Self.text(&generator, length: Int.random(in: 0...40, using: &generator)).utf8)
            let needle = Array(Self.needle(from: [String(decoding: text, as: UTF8.self)], &generator).utf8)
            let found = text.withUnsafeBufferPointer { haystack in
                needle.withUnsafeBufferPointer { wanted in TextMatch.asciiContains(haystack, wanted) }
            }
            #expect(found == Self.byteByByte(text, needle), "'\(String(decoding: text, as: UTF8.self))' holding '\(String(decoding: needle, as: UTF8.self))'")
        }
    }

    @Test func theFirstLetterFoundInEachCaseAndAtEveryPlace() {
        for length in 1...20 {
            for place in 0..<length {
                var text = [UInt8](repeating: UInt8(ascii: "-"), count: length)
                text[place] = UInt8(ascii: "K")
                let found = text.withUnsafeBufferPointer { haystack in
                    Array("k".utf8).withUnsafeBufferPointer { TextMatch.asciiContains(haystack, $0) }
                }
                #expect(found == true, "length \(length), at \(place)")
                // The byte one case bit away from a letter that is not one: `@` is not `` ` ``.
                text[place] = UInt8(ascii: "@")
                let other = text.withUnsafeBufferPointer { haystack in
                    Array("`".utf8).withUnsafeBufferPointer { TextMatch.asciiContains(haystack, $0) }
                }
                #expect(other == false, "length \(length), at \(place)")
            }
        }
    }

    @Test(arguments: 0..<4)
    func theFilterCountsInSQLWhatTheMatchFinds(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let store = try memoryStore()
        try store.saveRepositories((1...4).map { repository(Int64($0), "o/r\($0)") })
        var todos: [TodoRecord] = []
        for _ in 0..<150 {
            let text = Self.text(&generator, length: Int.random(in: 1...30, using: &generator)).filter { $0 != "\t" && $0 != "\u{7F}" }
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            todos.append(try store.addTodo(repositoryID: Int64.random(in: 1...4, using: &generator), text: "x" + text, at: moment(1)))
        }
        for _ in 0..<40 {
            let needle = Self.needle(from: todos.map(\.text), &generator)
            var expected: [Int64: Int] = [:]
            for todo in todos where todo.matches(needle) { expected[todo.repositoryID, default: 0] += 1 }
            #expect(try store.matchCounts(needle) == expected, "'\(needle)'")
            #expect(try store.matchCounts(needle, repositoryIDs: [2, 3]) == expected.filter { [2, 3].contains($0.key) }, "'\(needle)'")
            let listed = try store.listTodos(inRepository: 1, from: nil, .forward, limit: 1_000, matching: needle)
            #expect(listed.count == expected[1, default: 0], "'\(needle)'")
        }
    }
}
