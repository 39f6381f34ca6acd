import Testing
@testable import DoogitCLI

@Suite struct InputValidationTests {
    let topic = ["todo", "done"]

    func ids(_ arguments: [String]) -> [Int64]? {
        try? InputValidation.todoIDs(arguments, topic: topic)
    }

    func text(_ words: [String]) -> String? {
        try? InputValidation.todoText(words, topic: ["todo", "add"])
    }

    // MARK: IDs

    @Test func positiveIDsAreReadInOrder() {
        #expect(ids(["3"]) == [3])
        #expect(ids(["7", "3", "12"]) == [7, 3, 12])
        #expect(ids(["9223372036854775807"]) == [Int64.max])
    }

    @Test func duplicatesAreDroppedKeepingTheFirst() {
        #expect(ids(["3", "4", "3", "3", "5", "4"]) == [3, 4, 5])
    }

    @Test(arguments: ["0", "-3", "+3", "-0", "9223372036854775808", "99999999999999999999", "abc", "3a", "1.5", "",
                      " 3", "3 ", "0x10", "1e3", "٣", "３", "##3", "3#", ",", "3,", ",3", "1-", "-", "1--3", "1-3-5",
                      "a-b", "1-0", "#"])
    func notAnID(argument: String) throws {
        let error = try #require(throws: UsageError.self) {
            try InputValidation.todoIDs(["1", argument], topic: topic)
        }
        #expect(error.topic == topic)
        #expect(error.message.contains("is not a todo ID") || error.message.contains("is not a range"))
    }

    /// `3 4`, `3,4`, `1-3` and `#3`, in any mix; duplicates dropped, order kept.
    @Test func idsTakeListsRangesAndHashes() {
        #expect(ids(["3,4"]) == [3, 4])
        #expect(ids(["1-3"]) == [1, 2, 3])
        #expect(ids(["#3"]) == [3])
        #expect(ids(["#7,1-3", "2", "#5-6"]) == [7, 1, 2, 3, 5, 6])
        #expect(ids(["4-4"]) == [4])
    }

    /// A range stands for at most 10,000 IDs: a typo must not become a command on millions.
    @Test func aHugeRangeIsRefused() throws {
        #expect(ids(["1-10000"])?.count == 10_000)
        let error = try #require(throws: UsageError.self) {
            try InputValidation.todoIDs(["1-10001"], topic: topic)
        }
        #expect(error.message == "'1-10001' stands for more than 10000 todo IDs; name fewer at a time")
        #expect(ids(["1-9223372036854775807"]) == nil)
    }

    @Test func aBackwardRangeSaysWhichWayRound() throws {
        let error = try #require(throws: UsageError.self) { try InputValidation.todoIDs(["9-3"], topic: topic) }
        #expect(error.message == "'9-3' is not a range of todo IDs; write the lower ID first (3-9)")
    }

    @Test func leadingZerosAreTheSameID() {
        #expect(ids(["007", "7"]) == [7])
    }

    @Test func theBadArgumentIsShownWithoutControlCharacters() throws {
        let error = try #require(throws: UsageError.self) {
            try InputValidation.todoIDs(["\u{1B}[2Jx\u{07}"], topic: topic)
        }
        #expect(error.message == "'x' is not a todo ID; IDs are positive whole numbers as shown by 'doogit todo list' (also #3, 3,4 and ranges such as 1-3)")
    }

    // MARK: Text

    @Test func wordsAreJoinedWithSpaces() {
        #expect(text(["write", "the", "release", "notes"]) == "write the release notes")
        #expect(text(["write the", "release notes"]) == "write the release notes")
        #expect(text(["  padded  "]) == "padded")
        #expect(text(["-starts", "with", "a", "dash"]) == "-starts with a dash")
    }

    @Test func escapeSequencesAndControlCharactersAreRemoved() {
        #expect(text(["\u{1B}[31mred\u{1B}[0m", "text"]) == "red text")
        #expect(text(["\u{1B}]0;pwned\u{07}title"]) == "title")
        #expect(text(["bell\u{07}", "nul\u{0}x"]) == "bell nulx")
        #expect(text(["c1\u{9B}2Jcsi"]) == "c1csi")
        #expect(text(["bidi\u{202E}txet"]) == "biditxet")
    }

    @Test func tabsAndLineBreaksBecomeSpaces() {
        #expect(text(["one\ttwo"]) == "one two")
        #expect(text(["one\ntwo"]) == "one two")
        #expect(text(["one\r\ntwo"]) == "one two")
    }

    @Test func unicodeIsKept() {
        #expect(text(["café", "漢字", "🎉"]) == "café 漢字 🎉")
    }

    @Test(arguments: [[""], ["   "], ["\t", "\n"], ["", ""], ["\u{1B}[2J"], ["\u{07}\u{0}"], ["\u{1B}]0;title\u{07}"]])
    func blankTextIsRefused(words: [String]) throws {
        let error = try #require(throws: UsageError.self) {
            try InputValidation.todoText(words, topic: ["todo", "add"])
        }
        #expect(error.message == "the todo text is empty")
        #expect(error.topic == ["todo", "add"])
    }

    @Test func textUpToTheLimitIsAccepted() {
        let longest = String(repeating: "a", count: InputValidation.maximumTextLength)
        #expect(text([longest]) == longest)
    }

    @Test func textOverTheLimitIsRefused() throws {
        let tooLong = String(repeating: "a", count: InputValidation.maximumTextLength + 1)
        let error = try #require(throws: UsageError.self) {
            try InputValidation.todoText([tooLong], topic: ["todo", "edit"])
        }
        #expect(error.message == "the todo text is longer than \(InputValidation.maximumTextLength) characters")
        #expect(error.topic == ["todo", "edit"])
    }

    @Test func theLimitCountsWhatIsKept() {
        // Escape sequences do not count against the limit: they are removed first.
        let text = String(repeating: "a", count: InputValidation.maximumTextLength) + "\u{1B}[0m"
        #expect(self.text([text])?.count == InputValidation.maximumTextLength)
    }
}
