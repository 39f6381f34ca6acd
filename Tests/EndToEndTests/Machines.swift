import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Machines of one user (one HOME each) and the loopback GitHub they share: octocat/app tracked
/// on every machine, and (unless told otherwise) the todos kept in octocat/doogit-data.
final class Machines {
    static let data = "octocat/doogit-data"
    let github: FakeGitHub
    let all: [Sandbox]

    init(_ count: Int, remote: Bool = true) throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        self.github = github
        all = try (0..<count).map { _ in try Sandbox(github: github) }
        for machine in all { #expect(machine.run("repo", "add", "octocat/app").status == 0) }
        guard remote else { return }
        #expect(all[0].run("remote", "init", "--create").status == 0)
        for machine in all.dropFirst() { #expect(machine.run("remote", "init").status == 0) }
    }

    subscript(index: Int) -> Sandbox { all[index] }

    /// Holds the first POST to a path `matching` before GitHub handles it: `arrived` is
    /// signalled when it comes, and it goes on when `release` is.
    func holdFirstPost(_ matching: @escaping @Sendable (String) -> Bool) -> (arrived: Event, release: Event) {
        holdFirst("POST", matching)
    }

    func holdFirstPatch(_ matching: @escaping @Sendable (String) -> Bool) -> (arrived: Event, release: Event) {
        holdFirst("PATCH", matching)
    }

    private func holdFirst(_ method: String, _ matching: @escaping @Sendable (String) -> Bool) -> (arrived: Event, release: Event) {
        let arrived = Event(), release = Event()
        let first = Counter()
        github.script { request in
            guard request.method == method, matching(request.path), first.next() == 1 else { return nil }
            arrived.signal()
            _ = release.wait(seconds: 60)
            return nil
        }
        return (arrived, release)
    }

    /// Each machine syncs once, in order, and every sync must go through.
    func syncAll(_ order: [Int]? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        for index in order ?? Array(all.indices) {
            let result = all[index].run("sync")
            #expect(result.status == 0, "machine \(index): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// The todos of a machine as `text [done] #N` by section, in list order, IDs left out.
    func list(_ machine: Sandbox) throws -> [String] {
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return [] }
        return sections.map { section in
            let name = (try? section.field("repository").string("fullName")) ?? "?"
            let items = ((try? section.array("todos")) ?? []).map { todo in
                var line = (try? todo.string("text")) ?? "?"
                if (try? todo.bool("done")) == true { line += " [done]" }
                if let number = try? todo.field("issue").int64("number") { line += " #\(number)" }
                return line
            }
            return "\(name): " + items.joined(separator: ", ")
        }
    }

    /// The todos of a machine as JSON objects.
    func todos(_ machine: Sandbox) throws -> [JSONValue] {
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return [] }
        return sections.flatMap { (try? $0.array("todos")) ?? [] }
    }

    /// The local ID of the todo with this text on a machine.
    func id(_ text: String, on machine: Sandbox) throws -> String {
        guard let todo = try todos(machine).first(where: { (try? $0.string("text")) == text }) else {
            Issue.record("no todo '\(text)'")
            return "0"
        }
        return String(try todo.int64("id"))
    }

    func uuid(_ text: String, on machine: Sandbox) throws -> String {
        try todos(machine).first { (try? $0.string("text")) == text }.map { try $0.string("uuid") } ?? ""
    }

    /// The POSTs that created issues so far.
    var issuePosts: Int { github.requests.filter { $0.method == "POST" && $0.path.hasSuffix("/issues") }.count }
}
