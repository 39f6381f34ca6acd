import Testing
@testable import DoogitCLI

@Suite struct SuggestionsTests {
    static let todoCommands = ["add", "list", "ls", "done", "undo", "edit", "rm", "remove"]
    static let topCommands = ["todo", "repo", "sync", "auth"]
    static let listOptions = ["--open", "--done", "--all-repos", "--ascii", "--db", "--json", "--color", "--quiet",
                              "--verbose", "--help", "--version"]

    @Test(arguments: [
        ("", "", 0), ("abc", "abc", 0), ("", "abc", 3), ("abc", "", 3),
        ("list", "lst", 1),      // deletion
        ("list", "lisst", 1),    // insertion
        ("list", "lest", 1),     // substitution
        ("list", "lsit", 1),     // transposition of neighbours
        ("todo", "tdoo", 1),
        ("kitten", "sitting", 3),
        ("ca", "abc", 3),        // optimal string alignment, not full Damerau: 3, not 2
        ("remove", "rm", 4),
    ])
    func distance(lhs: String, rhs: String, expected: Int) {
        #expect(Suggestions.distance(lhs, rhs) == expected)
        #expect(Suggestions.distance(rhs, lhs) == expected)
    }

    @Test func distanceCountsCharactersNotBytes() {
        #expect(Suggestions.distance("café", "cafe") == 1)
        #expect(Suggestions.distance("漢字", "漢") == 1)
    }

    @Test(arguments: [
        ("lst", "list"), ("lsit", "list"), ("ad", "add"), ("addd", "add"), ("dnoe", "done"), ("udno", "undo"),
        ("edti", "edit"), ("remvoe", "remove"), ("LIST", "list"), ("Done", "done"),
    ])
    func typosOfTodoCommands(word: String, expected: String) {
        #expect(Suggestions.closest(to: word, among: Self.todoCommands) == expected)
    }

    @Test(arguments: [("tod", "todo"), ("tdoo", "todo"), ("rpeo", "repo"), ("sycn", "sync"), ("uath", "auth"),
                      ("syncc", "sync")])
    func typosOfTopLevelCommands(word: String, expected: String) {
        #expect(Suggestions.closest(to: word, among: Self.topCommands) == expected)
    }

    @Test(arguments: [("--opne", "--open"), ("--jsno", "--json"), ("--all-repo", "--all-repos"), ("--colour", "--color"),
                      ("--verbos", "--verbose"), ("--asci", "--ascii"), ("--versoin", "--version")])
    func typosOfOptions(word: String, expected: String) {
        #expect(Suggestions.closest(to: word, among: Self.listOptions) == expected)
    }

    @Test func aUniquePrefixIsSuggested() {
        #expect(Suggestions.closest(to: "sea", among: ["add", "list", "remove", "search"]) == "search")
        #expect(Suggestions.closest(to: "--all", among: Self.listOptions) == "--all-repos")
    }

    @Test func anAmbiguousPrefixSuggestsNothing() {
        #expect(Suggestions.closest(to: "re", among: ["remove", "rename"]) == nil)
        #expect(Suggestions.closest(to: "--ver", among: Self.listOptions) == nil)
    }

    @Test(arguments: ["banana", "frobnicate", "xyz", "q", "deploy", "status"])
    func unrelatedWordsGetNoSuggestion(word: String) {
        #expect(Suggestions.closest(to: word, among: Self.topCommands) == nil)
    }

    @Test func nothingIsSuggestedForAnEmptyWordOrNoCandidates() {
        #expect(Suggestions.closest(to: "", among: Self.todoCommands) == nil)
        #expect(Suggestions.closest(to: "list", among: []) == nil)
    }

    @Test func anExactMatchIsItself() {
        #expect(Suggestions.closest(to: "sync", among: Self.topCommands) == "sync")
    }
}
