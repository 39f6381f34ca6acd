import DoogitMerge
@testable import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// Random edits of a rendered board, as a person makes them on github.com (ticks, unticks, new
/// texts and details, deleted lines, added lines, notes), read back: each becomes exactly the
/// change it shows, and nothing else changes.
@Suite struct BoardEditPropertyTests {
    enum Edit: CaseIterable { case tick, retext, delete, keep }

    @Test func aRandomEditReadsAsExactlyTheChangesItShows() throws {
        var random = SplitMix64(seed: 0xED17)
        for round in 0..<150 {
            let todos = (0..<Int.random(in: 1...10, using: &random)).map { number in
                BoardBodyTests.todo(number, text: BoardBodyTests.text(&random), repository: Int64.random(in: 1...2, using: &random),
                                    done: Bool.random(using: &random), tags: Bool.random(using: &random) ? ["docs"] : [])
            }
            var lines = BoardBodyTests.body(todos).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var expected = (finished: 0, reopened: 0, edited: [String: String](), removed: Set<String>(), added: [String]())
            for todo in todos {
                let prefix = String(todo.uuid.prefix(8))
                guard let index = lines.firstIndex(where: { $0.hasPrefix("- [") && $0.contains(prefix) }) else { continue }
                switch Edit.allCases[Int.random(in: 0..<Edit.allCases.count, using: &random)] {
                case .tick:
                    lines[index] = lines[index].replacingOccurrences(of: todo.done ? "- [x]" : "- [ ]", with: todo.done ? "- [ ]" : "- [x]")
                    if todo.done { expected.reopened += 1 } else { expected.finished += 1 }
                case .retext:
                    let new = "edited \(round) \(todo.id)"
                    let note = String(lines[index].suffix(26))
                    lines[index] = "- [\(todo.done ? "x" : " ")] \(new) pri:L " + note
                    expected.edited[todo.uuid] = new
                case .delete:
                    lines.remove(at: index)
                    expected.removed.insert(todo.uuid)
                case .keep:
                    break
                }
            }
            if Bool.random(using: &random), let heading = lines.firstIndex(where: { $0.hasPrefix("## octocat/") }) {
                let text = "added \(round)"
                lines.insert("- [ ] \(text) +new", at: heading + 1)
                lines.insert("a note of mine, \(round)", at: heading + 1)
                expected.added.append(text)
            }
            let document = BoardBodyTests.read(lines.joined(separator: "\n"))
            let read = BoardBodyTests.reading(todos).read(document, issue: 7, updatedAt: BoardBodyTests.updatedAt)
            let context = "round \(round): \(lines.joined(separator: "\n"))"
            #expect(read.report.finished == expected.finished && read.report.reopened == expected.reopened, "\(context)")
            #expect(read.report.edited == expected.edited.count && read.report.removed == expected.removed.count, "\(context)")
            #expect(read.report.added == expected.added.count && read.report.unplaced.isEmpty, "\(context)")
            let stamp = HybridTimestamp.event(at: BoardBodyTests.updatedAt)
            for change in read.changes {
                let entry = change.entry
                if let text = expected.edited[entry.uuid] {
                    #expect(entry.text == Register(text, at: stamp) && entry.details.priority.value == .low, "\(context)")
                } else if expected.removed.contains(entry.uuid) {
                    #expect(entry.removed == Register(true, at: stamp), "\(context)")
                } else if change.held == nil {
                    #expect(expected.added.contains(entry.text.value) && entry.details.tags.tags == ["new"], "\(context)")
                } else {
                    #expect(change.held?.done.value.done != entry.done.value.done && entry.done.stamp == stamp, "\(context)")
                    #expect(entry.text == change.held?.text, "only the state: \(context)")
                }
            }
            #expect(read.changes.count == expected.finished + expected.reopened + expected.edited.count + expected.removed.count
                    + expected.added.count, "\(context)")
        }
    }
}
