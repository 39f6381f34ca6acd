@testable import DoogitCLI
import DoogitStore
import Testing

/// The view's filter finds in one pass what `--grep`'s match finds todo by todo.
struct FilterIndexTests {
    @Test func findsWhatTheMatchFindsTodoByTodo() {
        let words = ["Fix", "the", "CI", "build", "Straße", "café", "e\u{301}t\u{E9}", "日本", "x", "XX", "[ci]", "a-b", "K\u{212A}"]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<50 {
            let sections = (0..<4).map { section in
                TodoSection(repository: ListViewTests.spoon, todos: (0..<Int.random(in: 0...8, using: &generator)).map { n in
                    Fixture.todo(id: Int64(section * 100 + n), text: (0..<Int.random(in: 1...4, using: &generator))
                        .map { _ in words.randomElement(using: &generator) ?? "" }.joined(separator: " "))
                })
            }
            let index = FilterIndex(sections)
            for needle in ["x", "ci", "c", "the ci", "straße", "é", "本", "k", "-", "[", "xx x", "zzz"] {
                let expected = sections.map { section in section.todos.indices.filter { section.todos[$0].matches(needle) } }
                #expect(index.matches(needle, in: sections) == expected, "round \(round), '\(needle)'")
            }
        }
    }
}
