import DoogitStore
import DoogitSupport

/// A repository's section of the board: its heading, its todos' lines, and the lines a person
/// wrote under its heading (kept as written).
struct BoardSection: Equatable {
    var fullName: String
    var items: [BoardItem]
    var kept: [String] = []
    /// The section goes on from the part before (a repository too large for one body).
    var continued = false

    var heading: String {
        let done = items.filter(\.done).count
        return "## \(fullName)" + (continued ? " (continued)" : " · \(done) of \(items.count) done")
    }

    var lines: [String] { [heading] + items.map(\.line) + kept }
}

/// The board as bodies of issues: sections in the list's order, as many in each body as fit in
/// GitHub's 65,536 characters (a repository too large for one goes on in the next), each body
/// opening with what it is and how to use it, and closing with the todos it holds.
enum BoardLayout {
    /// What an issue's body holds at most, in UTF-16 code units (never fewer than GitHub's characters).
    static let limit = 65_536
    /// Room kept in each body for its opening lines, whose issue numbers are not known in advance.
    static let opening = 600

    static let title = "doogit: your todos"
    static let instructions = "Tick a box, edit or delete a line, or add `- [ ] text` under a repository: "
        + "your next `doogit sync` takes it home."

    static func title(part: Int, of count: Int) -> String {
        count > 1 ? "\(title) (\(part) of \(count))" : title
    }

    /// The sections of each body, the first holding at least the board's opening. Every
    /// section is placed, whatever its size: one that no body can hold (a person's notes of
    /// more than 65,536 characters) goes alone, and GitHub's refusal of it is said.
    static func split(_ sections: [BoardSection], top: [String], tail: [String], limit: Int = limit) -> [[BoardSection]] {
        let room = limit - opening - size(top) - size(tail)
        var parts: [[BoardSection]] = [[]]
        var used = 0
        func add(_ section: BoardSection, cost: Int) {
            parts[parts.count - 1].append(section)
            used += cost
        }
        func nextPart() {
            parts.append([])
            used = 0
        }
        for section in sections {
            if cost(section) > room - used, !parts[parts.count - 1].isEmpty { nextPart() }
            var rest = section
            // Todos in as many bodies as they take; the lines kept under the heading with the last.
            while true {
                var fits = 0, chunk = size([rest.heading]) + 2
                while fits < rest.items.count, chunk + size([rest.items[fits].line]) + 10 <= room - used {
                    chunk += size([rest.items[fits].line]) + 10
                    fits += 1
                }
                if fits == rest.items.count {
                    add(rest, cost: chunk + size(rest.kept))
                    break
                }
                // Not one more fits: a body of its own (one line longer than a body goes alone).
                if fits == 0 {
                    if !parts[parts.count - 1].isEmpty {
                        nextPart()
                        continue
                    }
                    fits = 1
                }
                add(BoardSection(fullName: rest.fullName, items: Array(rest.items.prefix(fits)), continued: rest.continued), cost: chunk)
                rest = BoardSection(fullName: rest.fullName, items: Array(rest.items.dropFirst(fits)), kept: rest.kept, continued: true)
                nextPart()
            }
        }
        return parts
    }

    /// What a section takes of a body: its lines, and its todos' digits in the closing line.
    static func cost(_ section: BoardSection) -> Int {
        size(section.lines) + 10 * section.items.count + 2
    }

    /// The body of one part; `numbers` are the board's issues by part (the first's links the others).
    static func body(part: Int, of count: Int, sections: [BoardSection], top: [String], tail: [String],
                     numbers: [Int: Int64]) -> String {
        var lines = ["<!-- doogit board part \(part) of \(count) -->", instructions + " " + BoardDocument.own]
        if count > 1 {
            if part == 1 {
                let others = (2...count).compactMap { numbers[$0] }.map { "#\($0)" }.joined(separator: ", ")
                if !others.isEmpty { lines.append("More of the board: \(others) " + BoardDocument.own) }
            } else if let first = numbers[1] {
                lines.append("Part \(part) of the board in #\(first) " + BoardDocument.own)
            }
        }
        lines += top
        for section in sections { lines += [""] + section.lines }
        if !tail.isEmpty { lines += [""] + tail }
        let prefixes = sections.flatMap(\.items).map(\.prefix)
        lines += ["", BoardDocument.footer + (prefixes.isEmpty ? "" : " " + prefixes.joined(separator: " ")) + " -->"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The length GitHub's limit counts, at least: UTF-16 code units, each line with its newline.
    static func size(_ lines: [String]) -> Int {
        lines.reduce(0) { $0 + $1.utf16.count + 1 }
    }
}
