import DoogitSupport
import Testing
import TestSupport

/// What the suites on the same todos on several machines share: machines of one user, the first
/// tracking octocat/app and having created the remote, and what they list and send.
protocol RemoteEndToEndSuite {}

extension RemoteEndToEndSuite {
    static var data: String { "octocat/doogit-data" }

    /// `count` machines of one user, the first of which tracks octocat/app and created the remote.
    func machines(_ count: Int) throws -> (FakeGitHub, [Sandbox]) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        github.addRepository(id: 2, name: "site", description: nil)
        let machines = try (0..<count).map { _ in try Sandbox(github: github) }
        #expect(machines[0].run("repo", "add", "octocat/app").status == 0)
        let created = machines[0].run("remote", "init", "--create")
        #expect(created.status == 0, "\(created.stderr)")
        for machine in machines.dropFirst() { #expect(machine.run("remote", "init").status == 0) }
        return (github, machines)
    }

    /// Todos as `text [done]` by section, with the list's order, IDs left out.
    func todos(_ machine: Sandbox) throws -> [String] {
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return [] }
        return sections.map { section in
            let name = (try? section.field("repository").string("fullName")) ?? "?"
            let items = ((try? section.array("todos")) ?? []).map { todo in
                ((try? todo.string("text")) ?? "?") + ((try? todo.bool("done")) == true ? " [done]" : "")
            }
            return "\(name): " + items.joined(separator: ", ")
        }
    }

    func idOf(_ text: String, _ machine: Sandbox) throws -> String {
        guard case .array(let sections) = try JSONParser.parse(machine.run("todo", "list", "--json").stdout) else { return "" }
        for section in sections {
            for todo in (try? section.array("todos")) ?? [] where (try? todo.string("text")) == text {
                return (try? todo.int64("id")).map(String.init) ?? ""
            }
        }
        Issue.record("no todo '\(text)'")
        return ""
    }

    /// Requests to the remote's files (the Git Data API, and the Contents API).
    func remoteRequests(_ github: FakeGitHub) -> [ReceivedRequest] {
        github.requests.filter { $0.path.hasPrefix("/repos/\(Self.data)/git/") || $0.path.contains("/contents/") }
    }

    func refUpdates(_ github: FakeGitHub) -> [ReceivedRequest] {
        github.requests.filter { $0.method == "PATCH" && $0.path.contains("/git/refs/heads/") }
    }
}
