import DoogitMerge
@testable import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// The board read as people and GitHub leave it: headings of no tracked repository, a
/// repository renamed, an edit of one field while others changed here, a line that cannot be
/// read, a marker written below a person's line, a note with text after it, words that look
/// like fields, and a body too large for one issue that must still be laid out.
@Suite struct BoardReadingCasesTests {
    typealias T = BoardBodyTests

    func lines(_ todos: [TodoRecord]) -> [String] {
        T.body(todos).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aHeadingOfNoTrackedRepositoryKeepsItsNotesAndRemovesNothing() {
        let todos = [T.todo(1, text: "first"), T.todo(2, text: "second", repository: 2)]
        var body = lines(todos)
        let site = body.firstIndex { $0.hasPrefix("## octocat/site") } ?? 0
        body.insert(contentsOf: ["## notes/ideas", "an idea of mine"], at: site)
        let document = T.read(body.joined(separator: "\n"))
        #expect(document.lines.count == 2 && document.tail == ["## notes/ideas", "an idea of mine"])
        let read = T.reading(todos).read(document, issue: 7, updatedAt: T.updatedAt)
        #expect(read.changes.isEmpty && read.report.removed == 0, "\(read.report)")
    }

    @Test func aRepositoryRenamedOnGitHubKeepsItsHeading() {
        let body = lines([T.todo(1, text: "first")]).map { $0.replacingOccurrences(of: "## octocat/app", with: "## octocat/old-app") }
            + ["- [ ] added under the old name"]
        let document = BoardDocument.read(body.joined(separator: "\n")) { $0.lowercased() == "octocat/old-app" ? "octocat/app" : nil }
        #expect(document.tail.isEmpty && document.added.first?.section == "octocat/app")
    }

    @Test func anEditOfOneFieldLeavesTheOthersAsTheyAreHere() throws {
        let rendered = T.todo(1, text: "write the docs", due: "2027-02-01")
        var here = rendered
        here.due = CalendarDate(text: "2027-03-01")  // changed here after the board was written
        here.tags = ["urgent"]
        let line = BoardItem(rendered).line
        let edited = line.replacingOccurrences(of: "write the docs", with: "write the guide")
        let body = T.body([rendered]).replacingOccurrences(of: line, with: edited)
        let document = T.read(body)
        var reading = T.reading([here])
        reading = BoardReading(remoteID: 4242, today: T.today, repositories: reading.repositories, todos: BoardReading.Todos(
            byPrefix: reading.todos.byPrefix, byUUID: reading.todos.byUUID, unshown: reading.todos.unshown,
            written: { _, _ in BoardLine.content(of: rendered) }))
        let change = try #require(reading.read(document, issue: 7, updatedAt: T.updatedAt).changes.first)
        #expect(change.entry.text.value == "write the guide")
        #expect(change.entry.details.due.value == CalendarDate(text: "2027-03-01") && change.entry.details.tags.tags == ["urgent"],
                "what the person did not touch stays")
    }

    @Test func aLineThatCannotBeReadIsWrittenBackWithTheTodosStateAndNeverTicksAgain() throws {
        let todo = T.todo(1, text: "ship it")
        let line = BoardItem(todo).line
        let body = T.body([todo]).replacingOccurrences(of: line, with: line.replacingOccurrences(of: "- [ ] ship it", with: "- [x] ship it due:someday"))
        let read = T.reading([todo]).read(T.read(body), issue: 7, updatedAt: T.updatedAt)
        #expect(read.report.finished == 1 && read.kept.verbatim.count == 1)
        // Undone here later: the line goes back open, still the person's words, and reads as no change.
        var item = BoardItem(todo)
        item.verbatim = read.kept.verbatim[item.prefix]
        let again = T.read(BoardLayout.body(part: 1, of: 1, sections: [BoardSection(fullName: "octocat/app", items: [item])], top: [],
                                            tail: [], numbers: [:]))
        #expect(again.lines.first?.content == "ship it due:someday" && again.lines.first?.done == false)
        let reread = T.reading([todo]).read(again, issue: 7, updatedAt: T.updatedAt)
        #expect(reread.report.finished == 0 && reread.report.reopened == 0 && reread.changes.isEmpty)
    }

    @Test func anAddedLineThatCannotBeReadIsKept() {
        let body = T.body([T.todo(1, text: "first")]).replacingOccurrences(of: "0 of 1 done", with: "0 of 1 done\n- [ ] call bob due:tomorow")
        let read = T.reading([T.todo(1, text: "first")]).read(T.read(body), issue: 7, updatedAt: T.updatedAt)
        #expect(read.changes.isEmpty && read.kept.added == ["octocat/app": ["- [ ] call bob due:tomorow"]])
    }

    @Test func theMarkerIsFoundBelowAPersonsLine() {
        let body = "Groceries first!\n" + T.body([T.todo(1, text: "first")])
        #expect(BoardOnGitHub.part(of: body) == 1 && T.read(body).top == ["Groceries first!"])
    }

    @Test func textAfterDoogitsNoteIsTheLinesToo() {
        let todo = T.todo(1, text: "buy milk")
        let body = T.body([todo]).replacingOccurrences(of: BoardItem(todo).line, with: BoardItem(todo).line + " and eggs")
        let read = T.reading([todo]).read(T.read(body), issue: 7, updatedAt: T.updatedAt)
        #expect(read.report.edited == 1 && read.changes.first?.entry.text.value == "buy milk and eggs")
    }

    @Test func wordsThatLookLikeFieldsStayInTheirPlace() throws {
        let todo = T.todo(1, text: "print the report +1 due:", tags: ["2024", "docs"])
        let content = BoardLine.content(of: todo)
        #expect(!content.contains("+2024"), "a tag of digits has no shorthand: not shown")
        let fields = try BoardLine.fields(of: content.replacingOccurrences(of: "report", with: "summary"), today: T.today)
        #expect(fields.text == "print the summary +1 due:" && fields.tags == ["docs"])
        var before = T.entry(todo)
        BoardReading.set(fields, over: try BoardLine.fields(of: content, today: T.today), on: &before, at: HybridTimestamp.event(at: T.updatedAt))
        #expect(before.details.tags.tags.sorted() == ["2024", "docs"], "the hidden tag stays")
        let separated = T.todo(2, text: "one\u{2028}two")
        #expect(T.read(T.body([separated])).lines.count == 1, "U+2028 is text, not a new line")
    }

    @Test func aBlankLineTextChangesNothing() {
        let todo = T.todo(1, text: "first")
        let body = T.body([todo]).replacingOccurrences(of: "- [ ] first", with: "- [ ] \u{2060}\u{2060}")
        let read = T.reading([todo]).read(T.read(body), issue: 7, updatedAt: T.updatedAt)
        #expect(read.changes.isEmpty && read.report.unplaced.count == 1)
    }

    @Test func aNewLinesTodoIsTheSameWhateverElseChangedOnTheBoard() throws {
        let body = T.body([T.todo(1, text: "first")]).replacingOccurrences(of: "0 of 1 done", with: "0 of 1 done\n- [ ] buy milk")
        let one = T.reading([T.todo(1, text: "first")]).read(T.read(body), issue: 7, updatedAt: T.updatedAt)
        let later = T.reading([T.todo(1, text: "first")]).read(T.read(body.replacingOccurrences(of: "- [ ] first", with: "- [x] first")),
                                                                 issue: 7, updatedAt: Timestamp(millisecondsSinceEpoch: T.updatedAt.millisecondsSinceEpoch + 60_000))
        let first = try #require(one.changes.first { $0.held == nil }), second = try #require(later.changes.first { $0.held == nil })
        #expect(first.entry.uuid == second.entry.uuid)
    }

    @Test(arguments: [(70_000, 0), (0, 70_000), (30_000, 40_000)])
    func anyBoardIsLaidOutWhateverItsNotes(top: Int, kept: Int) {
        let note = String(repeating: "n", count: 100)
        let section = BoardSection(fullName: "octocat/app", items: (0..<50).map { BoardItem(T.todo($0, text: "todo \($0)")) },
                                   kept: Array(repeating: note, count: kept / 101))
        let parts = BoardLayout.split([section], top: Array(repeating: note, count: top / 101), tail: [])
        #expect(parts.flatMap { $0.flatMap(\.items) }.count == 50, "every todo placed once")
        #expect(parts.count < 60)
    }
}
