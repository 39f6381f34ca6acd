import DoogitSupport
import Testing
@testable import DoogitCLI
@testable import DoogitStore

@Suite struct ListRendererTests {
    let plain = Style(color: false, unicode: true)

    @Test func headerWithoutWidthShowsEverything() {
        let renderer = ListRenderer(style: plain, width: nil)
        #expect(renderer.header(Fixture.helloWorld) == "octocat/Hello-World  My first repository on GitHub!")
    }

    @Test("a header from a repository's heading alone is the header from its whole record")
    func headerOfAHeading() {
        let renderer = ListRenderer(style: Style(color: true, unicode: true), width: 50)
        for record in [Fixture.helloWorld, Fixture.repository(id: 2, owner: "acme", name: "lost", description: "was here", gone: true),
                       Fixture.repository(id: 3, owner: "acme", name: "old", description: nil, archived: true)] {
            let heading = RepositoryHeading(id: record.id, fullName: record.fullName, description: record.description,
                                            archived: record.archived, gone: record.gone)
            #expect(renderer.header(heading) == renderer.header(record))
        }
    }

    @Test("the due phrase by days from today, and the date when done or far off")
    func duePhrases() throws {
        let today = try #require(CalendarDate(year: 2026, month: 12, day: 5))
        let cases: [(Int, String)] = [(-30, "30 days overdue"), (-2, "2 days overdue"), (-1, "1 day overdue"), (0, "due today"),
                                      (1, "due tomorrow"), (2, "due in 2 days"), (13, "due in 13 days"), (14, "due 2026-12-19")]
        for (days, phrase) in cases {
            let due = try #require(today.adding(days: days))
            #expect(ListRenderer.duePhrase(due, today: today) == phrase)
            #expect(ListRenderer.duePhrase(due, today: nil) == "due " + due.text, "done: the date")
        }
    }

    @Test func headerFlags() {
        let renderer = ListRenderer(style: plain, width: nil)
        let archived = Fixture.repository(id: 1, owner: "acme", name: "old", description: nil, archived: true)
        let gone = Fixture.repository(id: 2, owner: "acme", name: "lost", description: "was here", gone: true)
        let both = Fixture.repository(id: 3, owner: "acme", name: "both", description: nil, archived: true, gone: true)
        #expect(renderer.header(archived) == "acme/old [archived]")
        #expect(renderer.header(gone) == "acme/lost [gone]  was here")
        #expect(renderer.header(both) == "acme/both [gone] [archived]")
        #expect(renderer.flags(Fixture.helloWorld) == ("", ""))
    }

    /// Headers, `repo list` and `repo search` write flags through one function: same words,
    /// same order, same colours.
    @Test func flagsHaveOneOrderAndOneColourEach() {
        let colored = ListRenderer(style: Style(color: true, unicode: true), width: nil)
        let style = colored.style
        let all = colored.flags(isPrivate: true, gone: true, archived: true)
        #expect(all.plain == "[private] [gone] [archived]")
        #expect(all.shown == [style.yellow("[private]"), style.red("[gone]"), style.yellow("[archived]")].joined(separator: " "))
        let gone = Fixture.repository(id: 2, owner: "acme", name: "lost", description: nil, archived: true, gone: true)
        #expect(colored.header(gone).contains(colored.flags(gone: true, archived: true).shown))
        #expect(colored.flags(archived: false) == ("", ""))
    }

    @Test func headerDescriptionIsShortenedWithAnEllipsisToFitTheWidth() {
        let renderer = ListRenderer(style: plain, width: 40)
        let header = renderer.header(Fixture.helloWorld)
        #expect(header == "octocat/Hello-World  My first repositor…")
        #expect(DisplayWidth.of(header) == 40)
        let ascii = ListRenderer(style: Style(color: false, unicode: false), width: 40).header(Fixture.helloWorld)
        #expect(ascii == "octocat/Hello-World  My first reposit...")
    }

    @Test func headerWithFlagsAndColourStillFits() {
        let repository = Fixture.repository(id: 9, owner: "acme", name: "widgets",
                                            description: "Widgets for every occasion, in every colour", archived: true)
        for width in [30, 40, 50] {
            let header = ListRenderer(style: Style(color: true, unicode: true), width: width).header(repository)
            #expect(DisplayWidth.of(visible(header)) <= width, "\(visible(header))")
            #expect(visible(header).hasPrefix("acme/widgets [archived]  Widg"))
            #expect(visible(header).hasSuffix("…"))
            #expect(header.contains("\u{1B}[2m"))  // the description is dimmed
        }
    }

    @Test func aDescriptionWithNoRoomIsLeftOut() {
        let header = ListRenderer(style: plain, width: 22).header(Fixture.helloWorld)
        #expect(header == "octocat/Hello-World")
    }

    @Test func wideDescriptionIsShortenedByColumns() {
        let repository = Fixture.repository(id: 5, owner: "o", name: "n", description: "漢字漢字漢字漢字漢字漢字")
        let header = ListRenderer(style: plain, width: 16).header(repository)
        #expect(header == "o/n  漢字漢字漢…")
        #expect(DisplayWidth.of(header) <= 16)
    }

    @Test func todoLineWrapsUnderTheTextAtThirtyColumns() {
        let renderer = ListRenderer(style: plain, width: 30)
        let todo = Fixture.todo(id: 1, text: "the quick brown fox jumps over the lazy dog again and again")
        #expect(renderer.todoLines(todo, idWidth: 1) == [
            "  ○ 1  the quick brown fox",
            "       jumps over the lazy dog",
            "       again and again",
        ])
    }

    @Test func todoLineWrapsAtFortyColumnsWithAlignedIDs() {
        let renderer = ListRenderer(style: plain, width: 40)
        let todo = Fixture.todo(id: 7, text: "write the release notes for the next version and post them", done: true)
        #expect(renderer.todoLines(todo, idWidth: 3) == [
            "  ●   7  write the release notes for the",
            "         next version and post them",
        ])
    }

    @Test func aLongWordIsBrokenInsideTheTextColumn() {
        let renderer = ListRenderer(style: plain, width: 20)
        let todo = Fixture.todo(id: 2, text: "fix supercalifragilisticexpialidocious")
        #expect(renderer.todoLines(todo, idWidth: 1) == [
            "  ○ 2  fix",
            "       supercalifrag",
            "       ilisticexpial",
            "       idocious",
        ])
    }

    @Test func wideCharactersWrapByColumns() {
        let renderer = ListRenderer(style: plain, width: 20)
        let lines = renderer.todoLines(Fixture.todo(id: 3, text: "漢字漢字漢字漢字漢字漢字"), idWidth: 1)
        #expect(lines == ["  ○ 3  漢字漢字漢字", "       漢字漢字漢字"])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 20 })
    }

    @Test("on a terminal a todo's details follow its text after two spaces, dimmed, and wrap as words of their own")
    func detailsAfterTwoSpacesOnATerminal() {
        var todo = Fixture.todo(id: 3, text: "ship it with time")
        todo.due = CalendarDate(year: 2026, month: 12, day: 4)
        todo.tags = ["ci"]
        todo.note = "remember the changelog"
        var renderer = ListRenderer(style: Style(color: true, unicode: true), width: 80)
        renderer.today = CalendarDate(year: 2026, month: 12, day: 1)
        #expect(renderer.todoLines(todo, idWidth: 1) == ["  ○ 3  ship it with time  \u{1B}[2mdue in 3 days +ci ✎\u{1B}[0m"])
        var narrow = ListRenderer(style: Style(color: false, unicode: false), width: 30)
        narrow.today = renderer.today
        #expect(narrow.todoLines(todo, idWidth: 1) == ["  [ ] 3  ship it with time", "         due in 3 days +ci", "         [note]"])
        narrow = ListRenderer(style: Style(color: false, unicode: false), width: 34)
        narrow.today = renderer.today
        #expect(narrow.todoLines(todo, idWidth: 1) == ["  [ ] 3  ship it with time", "         due in 3 days +ci [note]"],
                "room for 'due in', but the due date's words stay together")
        todo.due = CalendarDate(year: 2026, month: 11, day: 28)
        #expect(renderer.todoLines(todo, idWidth: 1)
                == ["  ○ 3  ship it with time  \u{1B}[31m3 days overdue\u{1B}[0m\u{1B}[2m +ci ✎\u{1B}[0m"])
        todo.done = true
        #expect(renderer.todoLines(todo, idWidth: 1)
                == ["\u{1B}[2m  ● 3  ship it with time\u{1B}[0m  \u{1B}[2mdue 2026-11-28 +ci ✎\u{1B}[0m"], "never overdue when done")
    }

    @Test func withoutAWidthNothingIsWrapped() {
        let renderer = ListRenderer(style: plain, width: nil)
        let text = String(repeating: "word ", count: 40).trimmingSpaces
        #expect(renderer.todoLines(Fixture.todo(id: 1, text: text), idWidth: 1) == ["  ○ 1  " + text])
    }

    @Test func escapeSequencesInTodoTextAreRemoved() {
        let renderer = ListRenderer(style: plain, width: nil)
        let lines = renderer.todoLines(Fixture.todo(id: 1, text: "a\u{1B}[2Jb\u{1B}]0;x\u{07}c\td"), idWidth: 1)
        #expect(lines == ["  ○ 1  abc d"])
    }

    @Test func doneTodosAreDimmedWithColour() {
        let renderer = ListRenderer(style: Style(color: true, unicode: true), width: nil)
        #expect(renderer.todoLines(Fixture.todo(id: 1, text: "x", done: true), idWidth: 1) == ["\u{1B}[2m  ● 1  x\u{1B}[0m"])
        #expect(renderer.todoLines(Fixture.todo(id: 1, text: "x"), idWidth: 1) == ["  ○ 1  x"])
    }

    @Test("off a terminal a line is written straight, as the wrapping path writes it where it fits",
          arguments: [false, true])
    func straightLinesMatchWrappedOnes(color: Bool) throws {
        var todos: [TodoRecord] = []
        for (index, done) in [false, true].enumerated() {
            var todo = Fixture.todo(id: Int64(10 + index), text: "ship the \u{1B}[31mrelease", done: done)
            todo.due = CalendarDate(year: 2026, month: 11, day: 28)
            todo.priority = .high
            todo.tags = ["ci", "docs"]
            todo.issue = IssueLink(number: 12, url: "https://github.com/o/n/issues/12", state: .open)
            todo.note = "a note"
            todos.append(todo)
            var plainTodo = Fixture.todo(id: Int64(3 + index), text: "plain", done: done)
            plainTodo.due = CalendarDate(year: 2026, month: 12, day: 3)
            todos.append(plainTodo)
            var noted = Fixture.todo(id: Int64(5 + index), text: "noted", done: done)
            noted.note = "only a note"
            todos.append(noted)
        }
        var straight = ListRenderer(style: Style(color: color, unicode: true), width: nil)
        var wrapping = ListRenderer(style: Style(color: color, unicode: true), width: 200)
        straight.today = CalendarDate(year: 2026, month: 12, day: 1)
        wrapping.today = straight.today
        for todo in todos {
            #expect(straight.todoLines(todo, idWidth: 3, cells: "5d  ") == wrapping.todoLines(todo, idWidth: 3, cells: "5d  "))
        }
        let overdue = straight.todoLines(todos[0], idWidth: 2)
        #expect(overdue == [color ? "  ○ 10  (H) #12 ship the release  \u{1B}[31m3 days overdue\u{1B}[0m\u{1B}[2m +ci +docs ✎\u{1B}[0m"
                                  : "  ○ 10  (H) #12 ship the release  3 days overdue +ci +docs ✎"])
        let done = straight.todoLines(todos[3], idWidth: 2)
        #expect(done == [color ? "\u{1B}[2m  ● 11  (H) #12 ship the release\u{1B}[0m  \u{1B}[2mdue 2026-11-28 +ci +docs ✎\u{1B}[0m"
                               : "  ● 11  (H) #12 ship the release  due 2026-11-28 +ci +docs ✎"], "what is done is never overdue")
        #expect(straight.todoLines(todos[2], idWidth: 1) == [color ? "  ○ 5  noted  \u{1B}[2m✎\u{1B}[0m" : "  ○ 5  noted  ✎"])
    }

    @Test("a list far longer than one piece of output comes out whole")
    func longListInPieces() {
        let todos = (1...3000).map { Fixture.todo(id: Int64($0), text: "todo number \($0) with a few more words") }
        let renderer = ListRenderer(style: plain, width: nil)
        var pieces = 0
        var bytes: [UInt8] = []
        renderer.writeTodoList([TodoSection(repository: Fixture.helloWorld, todos: Array(todos[..<1500])),
                                TodoSection(repository: Fixture.helloWorld, todos: Array(todos[1500...]))]) {
            pieces += 1
            bytes += $0
        }
        let expected = "octocat/Hello-World  My first repository on GitHub!\n"
            + todos[..<1500].map { "  ○ \(String(repeating: " ", count: 4 - String($0.id).count))\($0.id)  \($0.text)\n" }.joined()
            + "\noctocat/Hello-World  My first repository on GitHub!\n"
            + todos[1500...].map { "  ○ \(String(repeating: " ", count: 4 - String($0.id).count))\($0.id)  \($0.text)\n" }.joined()
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(pieces == 2)
    }

    @Test func todoListSectionsAreSeparatedByABlankLine() {
        let widgets = Fixture.repository(id: 42, owner: "acme", name: "widgets", description: nil, archived: true, gone: true)
        let sections = [
            TodoSection(repository: widgets, todos: [Fixture.todo(id: 12, text: "ship it", repository: widgets)]),
            TodoSection(repository: Fixture.helloWorld,
                        todos: [Fixture.todo(id: 2, text: "open one"), Fixture.todo(id: 1, text: "done one", done: true)]),
        ]
        #expect(ListRenderer(style: plain, width: nil).todoList(sections) == """
            acme/widgets [gone] [archived]
              ○ 12  ship it

            octocat/Hello-World  My first repository on GitHub!
              ○  2  open one
              ●  1  done one

            """)
        #expect(ListRenderer(style: plain, width: nil).todoList([]) == "")
    }

    @Test func repositoryList() {
        let widgets = Fixture.repository(id: 42, owner: "acme", name: "widgets", description: "Widgets", archived: true)
        let summaries = [
            RepositorySummary(repository: widgets, open: 1, done: 0),
            RepositorySummary(repository: Fixture.helloWorld, open: 2, done: 10),
        ]
        #expect(ListRenderer(style: plain, width: nil).repositoryList(summaries) == """
            acme/widgets         1 open, 0 done  [archived]  Widgets
            octocat/Hello-World  2 open, 10 done  My first repository on GitHub!

            """)
        let narrow = ListRenderer(style: Style(color: true, unicode: true), width: 50).repositoryList(summaries)
        for line in narrow.split(separator: "\n") {
            #expect(DisplayWidth.of(visible(String(line))) <= 50, "\(visible(String(line)))")
        }
        #expect(visible(narrow).contains("octocat/Hello-World  2 open, 10 done  My first re…"))
    }

    @Test func hostileRemoteTextNeverReachesTheOutput() {
        let evil = Fixture.repository(id: 66, owner: "evil", name: "repo\u{1B}[2J",
                                      description: "\u{1B}]0;pwned\u{07}evil \u{1B}[31mred")
        for width in [nil, 80] as [Int?] {
            let renderer = ListRenderer(style: plain, width: width)
            #expect(renderer.header(evil) == "evil/repo  evil red")
            let list = renderer.repositoryList([RepositorySummary(repository: evil, open: 0, done: 0)])
            #expect(list == "evil/repo  0 open, 0 done  evil red\n")
        }
    }
}
