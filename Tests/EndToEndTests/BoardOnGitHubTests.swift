import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The board within GitHub's rules and as GitHub shows it: a tick closes a linked issue in the
/// same sync; a board larger than one body goes on in more issues; an issue deleted is made again
/// and one locked still works; a public remote gets no board; a token that may not write issues
/// is told so; what a person sees, rendered by GitHub's own Markdown library, is a checkbox per
/// todo and the todos' text, and no digits of doogit's.
@Suite(.serialized)
struct BoardOnGitHubTests {
    func board(_ machines: Machines) throws -> [FakeActivity.Issue] { try BoardEndToEndTests.boards(machines) }

    func turnOn(_ machines: Machines, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(machines[0].run("board", "on").status == 0, sourceLocation: sourceLocation)
        machines.syncAll([0], sourceLocation: sourceLocation)
    }

    @Test func aTickClosesTheLinkedIssueInTheSameSync() throws {
        let machines = try Machines(1)
        let a = machines[0]
        #expect(a.run("todo", "add", "-R", "app", "fix the login bug").status == 0)
        #expect(a.run("todo", "promote", "1").status == 0)
        #expect(a.run("repo", "set", "app", "--push-issues", "on").status == 0)
        turnOn(machines)
        #expect(try board(machines).first?.body.contains("- [ ] `#1` fix the login bug <!-- ") == true)
        try BoardEndToEndTests.edit(machines) { $0.replacingOccurrences(of: "- [ ] `#1`", with: "- [x] `#1`") }
        machines.syncAll([0])
        #expect(machines.github.activity.issue(repository: 1, number: 1)?.state == "closed")
        #expect(try machines.list(a) == ["octocat/app: fix the login bug [done] #1"])
    }

    @Test func aBoardLargerThanOneBodyGoesOnInMoreIssues() throws {
        let machines = try Machines(1)
        let a = machines[0]
        let lines = (1...900).map { "todo number \($0) of a long list, with words enough to fill a board's body" }
        #expect(a.run(["todo", "add", "-R", "app", "-"], stdin: lines.joined(separator: "\n")).status == 0)
        turnOn(machines)
        let parts = try board(machines).sorted { $0.number < $1.number }
        #expect(parts.count == 2 && parts.map(\.title) == ["doogit: your todos (1 of 2)", "doogit: your todos (2 of 2)"])
        #expect(parts.allSatisfy { $0.body.unicodeScalars.count <= 65_536 })
        #expect(parts[0].body.contains("More of the board: #\(parts[1].number)"))
        #expect(parts[1].body.contains("Part 2 of the board in #\(parts[0].number)"))
        let shown = parts.flatMap { $0.body.split(separator: "\n").filter { $0.hasPrefix("- [ ] todo number") } }
        #expect(shown.count == 900 && Set(shown).count == 900, "each todo once")
        #expect(a.run("board").stdout.contains("(part 2 of 2)"))

        // Shrunk to one body: the second part is closed.
        #expect(a.run("todo", "rm", "1-850").status == 0)
        machines.syncAll([0])
        #expect(try board(machines).count == 1)
        #expect(machines.github.activity.issue(repository: try BoardEndToEndTests.dataID(machines), number: parts[1].number)?.state == "closed")
    }

    @Test func anIssueDeletedIsMadeAgainAndOneLockedStillWorks() throws {
        let machines = try Machines(1)
        let a = machines[0]
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        turnOn(machines)
        let dataID = try BoardEndToEndTests.dataID(machines)
        let first = try #require(try board(machines).first)
        machines.github.activity.deleteIssue(repository: dataID, number: first.number)
        let again = a.run("sync")
        #expect(again.status == 0 && again.stdout.contains("board: made 1 issue"), "\(again.stdout)\(again.stderr)")
        let second = try #require(try board(machines).first)
        #expect(second.number != first.number && second.body.contains("- [ ] ship it <!-- "))

        machines.github.activity.updateIssue(repository: dataID, number: second.number) { $0.locked = true }
        try BoardEndToEndTests.edit(machines) { $0.replacingOccurrences(of: "- [ ] ship it", with: "- [x] ship it") }
        machines.syncAll([0])
        #expect(try machines.list(a) == ["octocat/app: ship it [done]"])
    }

    @Test func aPublicRemoteGetsNoBoard() throws {
        let machines = try Machines(1)
        let a = machines[0]
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        turnOn(machines)
        let dataID = try BoardEndToEndTests.dataID(machines)
        machines.github.update(dataID) { $0.isPrivate = false }
        #expect(a.run("todo", "add", "-R", "app", "a secret").status == 0)
        let writes = machines.github.activity.writes(repository: dataID, method: "PATCH").count
        let sync = a.run("sync")
        #expect(sync.status == 1 && sync.stderr.contains("is public now"), "\(sync.stderr)")
        #expect(machines.github.activity.writes(repository: dataID, method: "PATCH").count == writes, "nothing written there")
        #expect(try board(machines).first?.body.contains("a secret") == false)
        let refused = a.run("board", "on")
        #expect(refused.status == 1 && refused.stderr.contains("is public"), "\(refused.stderr)")
    }

    @Test func aTokenThatMayNotWriteIssuesIsToldSo() throws {
        let machines = try Machines(1)
        let a = machines[0]
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        machines.github.script { request in
            guard request.method == "POST", request.path == "/repos/\(Machines.data)/issues" else { return nil }
            return .json(403, #"{"message":"Resource not accessible by personal access token","documentation_url":"https://docs.github.com/rest/issues/issues#create-an-issue","status":"403"}"#)
        }
        #expect(a.run("board", "on").status == 0)
        let sync = a.run("sync")
        machines.github.script(nil)
        #expect(sync.status == 1 && sync.stderrLines.count == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains("'Issues: Read and write'"), "\(sync.stderr)")
        #expect(try machines.list(a) == ["octocat/app: ship it"], "the rest of the sync went through")
    }

    @Test func aLineDoogitCannotPlaceStaysAndIsSaidOnce() throws {
        let machines = try Machines(1)
        let a = machines[0]
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        turnOn(machines)
        try BoardEndToEndTests.edit(machines) { $0 + "\n## someone/else\n- [ ] theirs\n" }
        let first = a.run("sync")
        #expect(first.stdout.contains("board: a line doogit cannot place stays as written: - [ ] theirs"), "\(first.stdout)")
        #expect(a.run("todo", "add", "-R", "app", "one more").status == 0)
        let second = a.run("sync")
        #expect(!second.stdout.contains("cannot place"), "said once: \(second.stdout)")
        let body = try #require(try board(machines).first?.body)
        #expect(body.contains("## someone/else\n- [ ] theirs") && body.contains("- [ ] one more <!-- "), "\(body)")
    }

    /// What a person sees, rendered by cmark-gfm with GitHub's task-list extension: a checkbox per
    /// todo (ticked for the done one), the texts as written (no emphasis, link or mention made of
    /// them), and none of doogit's digits.
    @Test func whatAPersonSeesIsTheListAndNothingOfDoogits() throws {
        let machines = try Machines(1)
        let a = machines[0]
        let texts = ["fix *bold* <b> and [x](y)", "ask @octocat about #12", "ship it"]
        for text in texts { #expect(a.run("todo", "add", "-R", "app", "--raw", text).status == 0) }
        #expect(a.run("todo", "done", "3").status == 0)
        turnOn(machines)
        let body = try #require(try board(machines).first?.body)
        let rendered = ChildProcess.run("/usr/bin/cmark-gfm", ["--extension", "tasklist", "--extension", "autolink", "--unsafe"],
                                        environment: ["PATH": "/usr/bin:/bin"], stdin: body)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let html = rendered.stdout
        #expect(html.components(separatedBy: "<input type=\"checkbox\"").count - 1 == 3, "\(html)")
        #expect(html.components(separatedBy: "checked=\"\"").count - 1 == 1)
        #expect(!html.contains("<em>") && !html.contains("<a ") && !html.contains("<b>"), "\(html)")
        // The visible text: tags and comments left out, entities read.
        var visible = html.replacingOccurrences(of: "<!--[\\s\\S]*?-->", with: "", options: .regularExpression)
            .replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "\u{2060}", with: "")
        for text in texts { #expect(visible.contains(text), "\(text) in \(visible)") }
        visible = visible.replacingOccurrences(of: "\u{2060}", with: "")
        let uuids = try machines.todos(a).map { try $0.string("uuid") }
        for uuid in uuids { #expect(!visible.contains(uuid.prefix(8)), "digits of \(uuid) in sight") }
    }

    /// Two machines turn the board on and make it at the same moment: the first issue stays,
    /// the other is closed by the next sync, and the board goes on in one issue.
    @Test func twoBoardsMadeAtOnceEndAsOne() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        machines.syncAll([0, 1])
        for machine in [a, b] { #expect(machine.run("board", "on").status == 0) }
        // a's POST waits on the wire while b makes its board.
        let (arrived, release) = machines.holdFirstPost { $0 == "/repos/\(Machines.data)/issues" }
        defer { release.signal() }
        let first = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: a.environment)
        try #require(arrived.wait(seconds: Patience.seconds), "a's POST never arrived")
        #expect(b.run("sync").status == 0)
        release.signal()
        #expect(first.finish().status == 0)
        machines.github.script(nil)
        #expect(try board(machines).count == 2)
        machines.syncAll([1, 0, 1])
        let left = try board(machines)
        #expect(left.count == 1 && left.first?.body.contains("- [ ] ship it <!-- ") == true)
        #expect(left.first?.number == machines.github.activity.issues(repository: try BoardEndToEndTests.dataID(machines)).map(\.number).min())
    }
}
