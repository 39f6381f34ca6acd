import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The board as a user meets it: `doogit board on`, a sync, the list as a task list in an issue
/// of the remote repository; what a person changes there (a tick, an untick, an edit, a line
/// added or deleted) comes home on every machine, once; nothing a person did there is written
/// over, even when they do it while a sync runs.
@Suite(.serialized)
struct BoardEndToEndTests {
    /// Two machines of one user sharing octocat/doogit-data, with two todos and the board on.
    func boardOn() throws -> (Machines, Sandbox, Sandbox) {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "write the docs", "due:2030-01-31", "+docs").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "ship it").status == 0)
        let on = a.run("board", "on")
        #expect(on.status == 0, "\(on.stderr)")
        #expect(on.stdout == "The board will be made by the next sync ('doogit sync'), in an issue of octocat/doogit-data\n")
        let made = a.run("sync")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("board: made 1 issue ('doogit board' shows where)"), "\(made.stdout)")
        machines.syncAll([1])
        return (machines, a, b)
    }

    static func dataID(_ machines: Machines) throws -> Int64 {
        try #require(machines.github.repositoryNamed(Machines.data)?.id)
    }

    /// The board's open issues on GitHub, part by part.
    static func boards(_ machines: Machines) throws -> [FakeActivity.Issue] {
        machines.github.activity.issues(repository: try dataID(machines))
            .filter { $0.state == "open" && $0.body.hasPrefix("<!-- doogit board part") }
    }

    /// A person's edit of the board's first part on GitHub, a second after the last.
    static func edit(_ machines: Machines, _ change: (String) -> String) throws {
        let board = try #require(try boards(machines).first)
        let activity = machines.github.activity
        activity.setClock((activity.clockSeconds ?? Int64(Date().timeIntervalSince1970)) + 1)
        activity.updateIssue(repository: try dataID(machines), number: board.number) { $0.body = change($0.body) }
    }

    @Test func theBoardShowsTheListAndATickComesHomeOnEveryMachine() throws {
        let (machines, a, b) = try boardOn()
        let boards = try Self.boards(machines)
        #expect(boards.count == 1 && boards.first?.title == "doogit: your todos")
        let body = try #require(boards.first?.body)
        #expect(body.contains("## octocat/app · 0 of 2 done\n- [ ] write the docs due:2030-01-31 +docs <!-- "), "\(body)")
        #expect(body.contains("\n- [ ] ship it <!-- "))
        let shown = b.run("board")
        #expect(shown.stdout.hasPrefix("Board: on, in octocat/doogit-data\n  https://github.com/octocat/doogit-data/issues/"),
                "\(shown.stdout)")

        try Self.edit(machines) { $0.replacingOccurrences(of: "- [ ] ship it", with: "- [x] ship it") }
        let ticked = b.run("sync")
        #expect(ticked.status == 0 && ticked.stdout.contains("board: 1 done"), "\(ticked.stdout)\(ticked.stderr)")
        #expect(try machines.list(b) == ["octocat/app: write the docs, ship it [done]"])
        machines.syncAll([0])
        #expect(try machines.list(a) == ["octocat/app: write the docs, ship it [done]"])
        #expect(try Self.boards(machines).first?.body.contains("- [x] ship it <!-- ") == true)
        #expect(a.run("board", "--json").stdout.contains(#""lastRead":"#))

        // Settled: a sync of either machine reads the board for nothing (304) and writes nothing.
        machines.syncAll([1, 0])
        machines.github.resetCounters()
        let writes = machines.github.activity.writes(repository: try Self.dataID(machines), method: "PATCH").count
        machines.syncAll([0, 1])
        #expect(machines.github.activity.writes(repository: try Self.dataID(machines), method: "PATCH").count == writes)
        #expect(machines.github.rateLimitUsed == 0, "every read a 304")
    }

    @Test func editsDeletionsAndNewLinesComeHomeOnce() throws {
        let (machines, a, b) = try boardOn()
        try Self.edit(machines) { body in
            body.replacingOccurrences(of: "- [ ] write the docs due:2030-01-31 +docs", with: "- [ ] write the guide pri:H")
                .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("ship it") }.joined(separator: "\n")
                .replacingOccurrences(of: "## octocat/app · 0 of 2 done", with: "## octocat/app · 0 of 2 done\n- [ ] typed on the phone +mobile")
        }
        let read = a.run("sync")
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("board: 1 edited, 1 added, 1 removed (removed: \"ship it\"; restorable: 'doogit todo list --removed')"),
                "\(read.stdout)")
        machines.syncAll([1, 0, 1])
        for machine in [a, b] {
            let list = try machines.list(machine)
            #expect(list == ["octocat/app: write the guide, typed on the phone"], "\(list)")
        }
        let todo = try #require(try machines.todos(b).first { (try? $0.string("text")) == "write the guide" })
        #expect(todo["priority"] == .string("H") && todo["due"] == .null && todo["tags"] == .array([]))
        #expect(b.run("todo", "list", "--removed").stdout.contains("ship it"))
    }

    /// Two machines read a new line before either wrote the board back: one todo.
    @Test func aLineTwoMachinesReadBeforeEitherWroteIsOneTodo() throws {
        let (machines, a, b) = try boardOn()
        try Self.edit(machines) { $0.replacingOccurrences(of: "0 of 2 done", with: "0 of 2 done\n- [ ] buy milk") }
        // a's write of the board waits on the wire while b syncs whole.
        let (arrived, release) = machines.holdFirstPatch { $0.hasPrefix("/repos/\(Machines.data)/issues/") }
        defer { release.signal() }
        let first = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: a.environment)
        try #require(arrived.wait(seconds: Patience.seconds), "a's write never arrived")
        let bResult = b.run("sync")
        #expect(bResult.status == 0, "\(bResult.stderr)")
        release.signal()
        let aResult = first.finish()
        #expect(aResult.status == 0, "\(aResult.stderr)")
        machines.github.script(nil)
        machines.syncAll([0, 1, 0, 1])
        for machine in [a, b] {
            let list = try machines.list(machine)
            #expect(list == ["octocat/app: write the docs, ship it, buy milk"], "\(list)")
        }
        let lines = try #require(try Self.boards(machines).first?.body).components(separatedBy: "buy milk").count - 1
        #expect(lines == 1, "one line on the board")
    }

    /// A tick made while a sync runs, after its first read of the board and before its write,
    /// is read right before the write and kept.
    @Test func aTickMadeWhileASyncRunsSurvives() throws {
        let (machines, a, _) = try boardOn()
        let dataID = try Self.dataID(machines)
        let ticked = Event()
        let activity = machines.github.activity
        machines.github.script { request in
            // The issues of octocat/app are read between the board's two passes.
            if request.path == "/repos/octocat/app/issues", !ticked.isSignalled {
                let board = activity.issues(repository: dataID).first { $0.body.hasPrefix("<!-- doogit board part") }
                activity.setClock((activity.clockSeconds ?? Int64(Date().timeIntervalSince1970)) + 1)
                if let board {
                    activity.updateIssue(repository: dataID, number: board.number) {
                        $0.body = $0.body.replacingOccurrences(of: "- [ ] ship it", with: "- [x] ship it")
                    }
                }
                ticked.signal()
            }
            return nil
        }
        // A change here too, so that the sync writes the board; and octocat/app's issues read
        // (importing them), between the board's read and its write.
        #expect(a.run("todo", "add", "-R", "app", "one more").status == 0)
        #expect(a.run("repo", "set", "app", "--import-issues", "all").status == 0)
        let synced = a.run("sync")
        machines.github.script(nil)
        #expect(synced.status == 0 && ticked.isSignalled, "\(synced.stderr)")
        #expect(try machines.list(a) == ["octocat/app: write the docs, one more, ship it [done]"])
        let body = try #require(try Self.boards(machines).first?.body)
        #expect(body.contains("- [x] ship it <!-- ") && body.contains("- [ ] one more <!-- "), "\(body)")
    }

    @Test func offClosesTheBoardAndWithoutARemoteThereIsNone() throws {
        let (machines, a, b) = try boardOn()
        #expect(b.run("board", "off").status == 0)
        machines.syncAll([1, 0])
        #expect(try Self.boards(machines).isEmpty)
        #expect(machines.github.activity.issues(repository: try Self.dataID(machines)).allSatisfy { $0.state == "closed" })
        #expect(a.run("board").stdout.hasPrefix("No board."))
        #expect(try machines.list(a) == ["octocat/app: write the docs, ship it"], "the todos stay")

        let alone = try Sandbox()
        let refused = alone.run("board", "on")
        #expect(refused.status == 1 && refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("no remote is set") && refused.stderr.contains("doogit remote init --create"), "\(refused.stderr)")
    }
}
