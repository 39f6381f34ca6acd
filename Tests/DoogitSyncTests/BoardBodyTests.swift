import DoogitMerge
@testable import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// The board's body, rendered and read back (pure): a body doogit wrote reads as no change; a
/// person's edits of it read as exactly the changes they show; text stays text whatever
/// Markdown or GitHub would make of it; a board too large for one body is split, nothing left out.
@Suite struct BoardBodyTests {
    static let updatedAt = Timestamp(millisecondsSinceEpoch: 1_800_000_000_000)
    static let today = CalendarDate(text: "2027-01-15")!  // swiftlint:disable:this force_unwrapping

    /// Random text: words of letters, digits, Markdown's punctuation, `#12`, `@login`, `+tag`,
    /// `due:fri`, emoji.
    static func text(_ random: inout SplitMix64) -> String {
        let words = ["fix", "the", "*bold*", "[link](x)", "<!--", "-->", "`code`", "#12", "@octocat", "a\\b", "+tag", "due:fri",
                     "pri:H", "o/r#3", "_x_", "~~s~~", "|", "&amp;", "!", "🚀", "naïve", "100%", "C#", "x<y", "#", "@"]
        return (0..<Int.random(in: 1...6, using: &random)).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
            .joined(separator: " ")
    }

    @Test func textComesBackAsWritten() {
        var random = SplitMix64(seed: 0xB0A2D)
        for _ in 0..<2000 {
            let text = Self.text(&random)
            let escaped = BoardMarkdown.escape(text)
            #expect(BoardMarkdown.unescape(escaped) == text, "\(text) -> \(escaped)")
            #expect(!escaped.contains("<!--") && !escaped.contains("-->") || escaped.contains("\\<") || escaped.contains("\\>"))
            let scalars = Array(escaped.unicodeScalars)
            for (index, scalar) in scalars.enumerated() where (scalar == "#" || scalar == "@") && index + 1 < scalars.count {
                let next = scalars[index + 1]
                #expect(!(next.properties.isAlphabetic || ("0"..."9").contains(next)), "a reference or mention in \(escaped)")
            }
        }
    }

    static func todo(_ number: Int, text: String, repository: Int64 = 1, done: Bool = false, issue: Int64? = nil,
                     due: String? = nil, priority: Priority? = nil, tags: [String] = []) -> TodoRecord {
        TodoRecord(id: Int64(number), uuid: UUIDv4.named("todo \(number)"), repositoryID: repository,
                   repositoryFullName: repository == 1 ? "octocat/app" : "octocat/site", text: text, done: done, position: Int64(number),
                   createdAt: updatedAt, updatedAt: updatedAt, doneAt: done ? updatedAt : nil,
                   issue: issue.map { IssueLink(number: $0, url: "https://github.com/octocat/app/issues/\($0)", state: nil) },
                   due: due.flatMap(CalendarDate.init(text:)), priority: priority, tags: tags)
    }

    static func entry(_ todo: TodoRecord) -> TodoEntry {
        let stamp = HybridTimestamp(wall: 1_700_000_000_000, counter: 0, machine: "aaaaaaaaaaaa")
        var entry = TodoEntry(uuid: todo.uuid, repository: todo.repositoryID, text: todo.text, doneAt: todo.doneAt,
                              createdAt: todo.createdAt, stamp: stamp)
        entry.details.due = Register(todo.due, at: stamp)
        entry.details.priority = Register(todo.priority, at: stamp)
        entry.details.tags = TagSet(todo.tags, at: stamp)
        return entry
    }

    static func reading(_ todos: [TodoRecord], shown: Bool = true) -> BoardReading {
        let entries = Dictionary(uniqueKeysWithValues: todos.map { ($0.uuid, entry($0)) })
        return BoardReading(
            remoteID: 4242, today: today, repositories: ["octocat/app": 1, "octocat/site": 2],
            todos: BoardReading.Todos(
                byPrefix: { prefix, _ in entries.values.first { $0.uuid.hasPrefix(prefix) } },
                byUUID: { entries[$0] },
                unshown: { repository, text in shown ? nil : entries.values.first { $0.repository.value == repository && $0.text.value == text } }))
    }

    static func body(_ todos: [TodoRecord]) -> String {
        let sections = [Int64(1), 2].compactMap { id -> BoardSection? in
            let items = todos.filter { $0.repositoryID == id }.map(BoardItem.init)
            return items.isEmpty ? nil : BoardSection(fullName: id == 1 ? "octocat/app" : "octocat/site", items: items)
        }
        return BoardLayout.body(part: 1, of: 1, sections: sections, top: [], tail: [], numbers: [1: 7])
    }

    static func read(_ body: String) -> BoardDocument {
        BoardDocument.read(body) { ["octocat/app", "octocat/site"].contains($0.lowercased()) ? $0.lowercased() : nil }
    }

    @Test func aBodyDoogitWroteReadsAsNoChange() {
        var random = SplitMix64(seed: 0x5EED)
        for round in 0..<200 {
            let todos = (0..<Int.random(in: 0...12, using: &random)).map { number in
                Self.todo(number, text: Self.text(&random), repository: Int64.random(in: 1...2, using: &random), done: Bool.random(using: &random),
                          issue: Bool.random(using: &random) ? Int64(number + 10) : nil, due: Bool.random(using: &random) ? "2027-02-01" : nil,
                          priority: Bool.random(using: &random) ? .high : nil, tags: Bool.random(using: &random) ? ["docs", "c#"] : [])
            }
            let document = Self.read(Self.body(todos))
            #expect(document.lines.count == todos.count && document.added.isEmpty && document.kept.isEmpty, "round \(round)")
            #expect(Set(document.listed) == Set(todos.map { String($0.uuid.prefix(8)) }))
            let read = Self.reading(todos).read(document, issue: 7, updatedAt: Self.updatedAt)
            #expect(read.changes.isEmpty && read.report == BoardReading.Report(), "round \(round): \(read.report)")
            // What each line says is what the todo has.
            for (line, todo) in zip(document.lines, todos.sorted { $0.repositoryID < $1.repositoryID }) {
                let fields = try? BoardLine.fields(of: line.content, today: Self.today)
                #expect(fields == BoardFields(text: todo.text.split(separator: " ").joined(separator: " "), due: todo.due,
                                              priority: todo.priority, tags: todo.tags), "\(line.content)")
            }
        }
    }

    @Test func aPersonsEditsReadAsTheChangesTheyShow() throws {
        let todos = [Self.todo(1, text: "write the docs"), Self.todo(2, text: "ship it", done: true), Self.todo(3, text: "fix CI"),
                     Self.todo(4, text: "old task"), Self.todo(5, text: "site work", repository: 2)]
        var lines = Self.body(todos).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func edit(_ prefixOf: Int, _ change: (String) -> String?) {
            let prefix = String(todos[prefixOf - 1].uuid.prefix(8))
            guard let index = lines.firstIndex(where: { $0.contains(prefix) && $0.hasPrefix("- [") }) else { return }
            if let changed = change(lines[index]) { lines[index] = changed } else { lines.remove(at: index) }
        }
        edit(1) { $0.replacingOccurrences(of: "- [ ]", with: "- [x]") }                       // a tick
        edit(2) { $0.replacingOccurrences(of: "- [x]", with: "- [ ]") }                       // an untick
        edit(3) { $0.replacingOccurrences(of: "fix CI", with: "fix CI today due:2027-01-20 pri:H +ci") }  // an edit
        edit(4) { _ in nil }                                                                  // a deletion
        let site = try #require(lines.firstIndex { $0.hasPrefix("## octocat/site") })
        lines.insert("- [ ] new from the phone +mobile", at: site + 1)                         // an addition
        lines.insert("a note of mine", at: site + 1)                                           // a note: kept
        let document = Self.read(lines.joined(separator: "\n"))
        let read = Self.reading(todos).read(document, issue: 7, updatedAt: Self.updatedAt)
        #expect(read.report.finished == 1 && read.report.reopened == 1 && read.report.edited == 1 && read.report.removed == 1
                && read.report.added == 1, "\(read.report)")
        #expect(read.report.removedTexts == ["old task"] && read.report.unplaced.isEmpty)
        #expect(document.bySection["octocat/site"] == ["a note of mine"])
        let byText = Dictionary(uniqueKeysWithValues: read.changes.map { ($0.entry.text.value, $0.entry) })
        let stamp = HybridTimestamp.event(at: Self.updatedAt)
        #expect(byText["write the docs"]?.done == Register(DoneState(doneAt: Self.updatedAt), at: stamp))
        #expect(byText["ship it"]?.done == Register(.open, at: stamp))
        let edited = try #require(byText["fix CI today"])
        #expect(edited.details.due.value == CalendarDate(text: "2027-01-20") && edited.details.priority.value == .high
                && edited.details.tags.tags == ["ci"])
        #expect(byText["old task"]?.removed == Register(true, at: stamp))
        let added = try #require(byText["new from the phone"])
        #expect(added.repository.value == 2 && added.details.tags.tags == ["mobile"] && added.text.stamp == stamp)
        // Read again (another machine, or this one before its write landed): the same todo.
        let again = Self.reading(todos).read(document, issue: 7, updatedAt: Self.updatedAt)
        #expect(again.changes.first { $0.entry.text.value == "new from the phone" }?.entry.uuid == added.uuid)
    }

    @Test func aNewLineForATodoTheBoardDoesNotShowYetIsThatTodo() {
        let todos = [Self.todo(1, text: "buy milk")]
        let body = BoardLayout.body(part: 1, of: 1, sections: [BoardSection(fullName: "octocat/app", items: [])], top: [], tail: [],
                                    numbers: [:]).replacingOccurrences(of: "## octocat/app · 0 of 0 done", with: "## octocat/app\n- [x] buy milk")
        let read = Self.reading(todos, shown: false).read(Self.read(body), issue: 7, updatedAt: Self.updatedAt)
        #expect(read.report.added == 0 && read.changes.count == 1 && read.changes.first?.entry.uuid == todos[0].uuid)
        #expect(read.changes.first?.entry.done.value.done == true)
    }

    @Test func linesThatCannotBeReadStayAndAreReported() {
        let todos = [Self.todo(1, text: "write the docs")]
        var body = Self.body(todos)
        body = body.replacingOccurrences(of: "write the docs", with: "write the docs due:someday")
        body += "## someone/else\n- [ ] theirs\n- [ ] due:nope\n"
        let document = Self.read(body)
        #expect(document.tail == ["## someone/else", "- [ ] theirs", "- [ ] due:nope"])
        let read = Self.reading(todos).read(document, issue: 7, updatedAt: Self.updatedAt)
        #expect(read.changes.isEmpty && read.kept.verbatim.count == 1 && read.report.unplaced.count == 1)
    }

    @Test func aBoardTooLargeForOneBodyIsSplitAndHoldsEveryTodoOnce() {
        let todos = (0..<3000).map { Self.todo($0, text: "todo number \($0) with some words", repository: $0 < 2500 ? 1 : 2) }
        let sections = [Int64(1), 2].map { id in
            BoardSection(fullName: id == 1 ? "octocat/app" : "octocat/site", items: todos.filter { $0.repositoryID == id }.map(BoardItem.init))
        }
        let parts = BoardLayout.split(sections, top: [], tail: [])
        #expect(parts.count > 1)
        var seen: [String] = []
        for (index, part) in parts.enumerated() {
            let body = BoardLayout.body(part: index + 1, of: parts.count, sections: part, top: [], tail: [],
                                        numbers: Dictionary(uniqueKeysWithValues: (1...parts.count).map { ($0, Int64(100 + $0)) }))
            #expect(body.utf16.count <= BoardLayout.limit, "part \(index + 1): \(body.utf16.count)")
            let document = Self.read(body)
            #expect(document.part == index + 1 && document.lines.count == document.listed.count)
            seen += document.lines.map(\.prefix)
        }
        #expect(seen == todos.map { String($0.uuid.prefix(8)) })
    }
}
