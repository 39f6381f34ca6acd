@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Testing
import TestSupport

/// A linked todo's issue labels beside its tags, in every form of the list (`todo list`, its
/// `--long`, `next`, `doogit ui`): a label whose name is not one word (GitHub allows "good first
/// issue") shows in double quotes, never left out and never read as several.
@Suite struct ListRendererLabelTests {
    let plain = Style(color: false, unicode: true)

    func linked(labels: [String], tags: [String] = ["ci"]) -> TodoRecord {
        var todo = Fixture.todo(id: 7, text: "fix the parser")
        todo.tags = tags
        todo.issue = IssueLink(number: 12, url: "https://github.com/octocat/Hello-World/issues/12", state: .open)
        todo.labels = labels
        return todo
    }

    @Test func aLabelThatIsNotOneWordShowsInQuotes() {
        let renderer = ListRenderer(style: plain, width: nil)
        let todo = linked(labels: ["bug", "good first issue", "say \"hi\" \\o/", "ui,ux"])
        #expect(renderer.todoLines(todo, idWidth: 1)
                == [#"  ○ 7  #12 fix the parser  +ci +bug +"good first issue" +"say \"hi\" \\o/" +"ui,ux""#])
        // The only detail a todo has: still shown.
        #expect(renderer.todoLines(linked(labels: ["good first issue"], tags: []), idWidth: 1)
                == [#"  ○ 7  #12 fix the parser  +"good first issue""#])
        // A name with nothing to show once cleaned is left out; one cleaned to a word is a word.
        #expect(renderer.todoLines(linked(labels: ["\u{1B}[31m", " ", "wont\u{1B}[0mfix"], tags: []), idWidth: 1)
                == ["  ○ 7  #12 fix the parser  +wontfix"])
    }

    @Test("written straight and wrapped, with the --long cells and colour or not, the lines agree",
          arguments: [false, true])
    func straightAndWrappedAgree(color: Bool) {
        var todo = linked(labels: ["good first issue", "bug"])
        todo.due = CalendarDate(year: 2026, month: 12, day: 3)
        todo.note = "a note"
        var straight = ListRenderer(style: Style(color: color, unicode: true), width: nil)
        var wrapping = ListRenderer(style: Style(color: color, unicode: true), width: 200)
        straight.today = CalendarDate(year: 2026, month: 12, day: 1)
        wrapping.today = straight.today
        let lines = straight.todoLines(todo, idWidth: 2, cells: "5d  ")
        #expect(lines == wrapping.todoLines(todo, idWidth: 2, cells: "5d  "))
        #expect(lines[0].contains(#"+ci +bug +"good first issue" ✎"#))
    }

    @Test func onANarrowTerminalAQuotedLabelStaysWholeOnALine() {
        let renderer = ListRenderer(style: plain, width: 36)
        #expect(renderer.todoLines(linked(labels: ["good first issue"]), idWidth: 1)
                == ["  ○ 7  #12 fix the parser  +ci", #"       +"good first issue""#])
    }

    @Test func theViewDrawsItToo() {
        let drawing = ListDrawing.list(renderer: ListRenderer(style: plain, width: nil), width: 80, idWidth: 1, cache: TodoLinesCache())
        #expect(drawing.todo(linked(labels: ["good first issue"])) == [#"  ○ 7  #12 fix the parser  +ci +"good first issue""#])
    }

    /// Read back (the quotes taken off, each `\` escape undone), a shown name is the name as
    /// cleaned; a name shown without quotes is one word.
    @Test func everyShownNameReadsBackAsItsName() {
        var generator = SplitMix64(seed: 41)
        let pool: [Character] = ["a", "b", " ", "\"", "\\", ",", "中", "\t", "+"]
        for _ in 0..<2000 {
            let name = String((0..<Int.random(in: 0...8, using: &generator)).map { _ in pool.randomElement(using: &generator)! })
            let cleaned = TerminalText.sanitize(name)
            guard let word = ListRenderer.tagWord(name) else {
                #expect(cleaned.allSatisfy { $0 == " " }, "\(name.debugDescription)")
                continue
            }
            guard word.hasPrefix("\""), word.count >= 2, word.hasSuffix("\"") else {
                #expect(word == cleaned && !word.contains { $0.isWhitespace || $0 == "," }, "\(name.debugDescription)")
                continue
            }
            var read = ""
            var escaped = false
            for character in word.dropFirst().dropLast() {
                if !escaped && character == "\\" { escaped = true; continue }
                #expect(escaped || character != "\"", "an unescaped quote inside: \(word)")
                escaped = false
                read.append(character)
            }
            #expect(!escaped && read == cleaned, "\(name.debugDescription) shown as \(word)")
        }
    }
}
