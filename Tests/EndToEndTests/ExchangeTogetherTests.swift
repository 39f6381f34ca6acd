import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The exchange with the remote's files on GitHub as part of a sync: a failed exchange fails only
/// itself, nothing GitHub did not take is reported as sent, the counts agree, one sync settles
/// what it changed itself, and a hand edit of a file on GitHub is taken.
@Suite(.serialized)
struct ExchangeTogetherTests {
    enum Breakage: String, CaseIterable, CustomTestStringConvertible {
        case badLine, newerVersion, repositoryDeleted, branchLost, forbidden, madePublic, unavailable
        var testDescription: String { rawValue }
    }

    static func dataID(_ machines: Machines) -> Int64 { machines.github.repositoryNamed(Machines.data)?.id ?? 0 }

    /// The file of octocat/app's todos.
    static let appTodos = "todos/1/1.jsonl"

    static func isRemote(_ request: ReceivedRequest) -> Bool {
        request.path.hasPrefix("/repos/\(Machines.data)/git/") || request.path.hasPrefix("/repos/\(Machines.data)/contents/")
    }

    /// Breaks the exchange as `breakage` says; returns what to do to mend it, as the message advises.
    func breakExchange(_ breakage: Breakage, _ machines: Machines) -> (expected: String, code: Int32, mend: () -> Void) {
        let github = machines.github, id = Self.dataID(machines)
        switch breakage {
        case .badLine:
            let good = github.contents.file(Machines.data, Self.appTodos)?.text ?? ""
            github.contents.commitFiles(Machines.data, [Self.appTodos: good + "{\"type\":\"todo\",\"uuid\":\"nope\"}\n"])
            return ("\(Self.appTodos) in \(Machines.data) cannot be read: line ", 1,
                    { github.contents.commitFiles(Machines.data, [Self.appTodos: good]) })
        case .newerVersion:
            let good = github.contents.file(Machines.data, "remote.jsonl")?.text ?? ""
            github.contents.commitFiles(Machines.data, ["remote.jsonl": #"{"format":"doogit","version":"5.0"}"# + "\n"])
            return ("was written by a newer doogit (format 5.0); the changes here wait. Upgrade doogit", 1,
                    { github.contents.commitFiles(Machines.data, ["remote.jsonl": good]) })
        case .repositoryDeleted:
            github.delete(id)
            return ("the remote repository \(Machines.data) is gone", 1, {
                #expect(machines[0].run("remote", "init", Machines.data, "--create").status == 0)
            })
        case .branchLost:
            github.update(id) { $0.defaultBranch = "main" }
            github.pushCommits(repository: id, branch: "main", messages: ["Start afresh"])
            github.activity.deleteBranch(repository: id, branch: "master")
            github.contents.setFile(Machines.data, github.contents.file(Machines.data)?.text ?? "", branch: "main")
            return ("the branch master of \(Machines.data) is gone", 1, {
                #expect(machines[0].run("remote", "init", Machines.data).status == 0)
            })
        case .forbidden:
            github.script { request in
                Self.isRemote(request) && request.method == "POST"
                    ? .json(403, #"{"message":"Resource not accessible by personal access token","documentation_url":"https://docs.github.com/rest"}"#)
                    : nil
            }
            return ("GitHub refused the exchange with \(Machines.data): Resource not accessible by personal access token", 1,
                    { github.script(nil) })
        case .madePublic:
            github.update(id) { $0.isPrivate = false }
            return ("\(Machines.data) is public now, and anyone could read your todos there, so nothing was written", 1,
                    { github.update(id) { $0.isPrivate = true } })
        case .unavailable:
            github.script { request in
                Self.isRemote(request) ? .json(503, #"{"message":"Service Unavailable"}"#) : nil
            }
            return ("the exchange with \(Machines.data) failed: GitHub is having trouble (HTTP 503)", 75, { github.script(nil) })
        }
    }

    /// Whatever breaks the exchange, repositories, issues and commits are synced; the exit code
    /// and the one line say what failed and what to do; nothing is reported as sent, and the
    /// change waits. Done as the line says, the next sync sends it.
    @Test(arguments: Breakage.allCases)
    func aFailedExchangeFailsTheExchangeNotTheSync(breakage: Breakage) throws {
        let machines = try Machines(1)
        let machine = machines[0], github = machines.github
        #expect(machine.run("todo", "add", "-R", "app", "linked").status == 0)
        #expect(machine.run("todo", "add", "-R", "app", "by commit").status == 0)
        #expect(machine.run("todo", "promote", "1").status == 0)
        #expect(machine.run("sync").status == 0)
        #expect(machine.run("todo", "add", "-R", "app", "waiting").status == 0)
        let (expected, code, mend) = breakExchange(breakage, machines)

        // The other phases have work: a rename, a closed issue, a trailer.
        github.rename(1, to: "application")
        github.activity.close(repository: 1, number: 1)
        github.activity.setClock(Int64(Date().timeIntervalSince1970) + 2)
        let uuid = try machines.uuid("by commit", on: machine)
        github.pushCommits(repository: 1, messages: ["Fix\n\nDoogit-Done: \(uuid.prefix(8))"])
        let failed = machine.run("sync")
        #expect(failed.status == code, "\(failed.stderr)")
        #expect(failed.stderrLines.count == 1 && failed.stderr.contains(expected), "\(failed.stderr)")
        #expect(failed.stdout.contains("octocat/app: renamed to octocat/application"))
        #expect(failed.stdout.contains("octocat/application#1: closed on GitHub; todo 1 marked done"))
        #expect(failed.stdout.contains("todo 2 marked done by commit"))
        #expect(!failed.stdout.contains("sent"), "nothing GitHub did not take is reported as sent")
        #expect(!machine.run("remote", "status").stdout.contains("Waiting: nothing"), "the changes wait")
        let again = try JSONParser.parse(machine.run("sync", "--json").stdout)
        #expect(again["remote"]?["pushed"] == .int(0), "GitHub took nothing: nothing is reported as sent")
        mend()
        let mended = machine.run("sync")
        #expect(mended.status == 0, "\(mended.stderr)")
        #expect(mended.stdout.contains("sent "), "\(mended.stdout)")
        #expect(machine.run("remote", "status").stdout.contains("Waiting: nothing"))
        let branch = breakage == .branchLost ? "main" : "master"
        let todos = github.contents.file(Machines.data, Self.appTodos, branch: branch)?.text ?? ""
        let repositories = github.contents.file(Machines.data, "repositories.jsonl", branch: branch)?.text ?? ""
        #expect(todos.contains("\"waiting\"") && repositories.contains("octocat/application"), "what waited arrived")
    }

    /// The counts agree: what `remote status` says waits is what `sync` then sends, and what the
    /// other machine receives; an import's count is what waits.
    @Test func theCountsAgree() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        machines.syncAll([0, 1, 0])
        for text in ["one", "two", "three"] { #expect(a.run("todo", "add", "-R", "app", text).status == 0) }
        #expect(a.run("todo", "done", "1").status == 0)
        #expect(a.run("todo", "edit", "1", "one, edited").status == 0)
        #expect(a.run("remote", "status").stdout.contains("Waiting: 3 local changes"))
        #expect(try JSONParser.parse(a.run("remote", "status", "--json").stdout)["pending"] == .int(3))
        let sent = a.run("sync")
        #expect(sent.stdout == "\(Machines.data): sent 3 changes\n", "\(sent.stdout)")
        #expect(b.run("sync").stdout == "\(Machines.data): received 3 changes\n")

        let file = try b.home.write("todo.txt", "fix the docs +octocat/app\nx 2026-11-02 2026-11-01 ship +octocat/app\n")
        #expect(b.run("import", file).stdout == "Imported 2 todos from \(file)\n")
        #expect(b.run("import", file).stdout == "Imported 0 todos from \(file) (2 already here)\n")
        #expect(b.run("remote", "status").stdout.contains("Waiting: 2 local changes"))
        let json = try JSONParser.parse(b.run("sync", "--json").stdout)
        #expect(json["remote"]?["pushed"] == .int(2))
        #expect(a.run("sync").stdout == "\(Machines.data): received 2 changes\n")
    }

    /// What a sync changes itself (an import, an issue closed, a trailer, a rename) reaches the
    /// file in the same sync: the other machine has it after one sync.
    @Test func oneSyncSettles() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        let github = machines.github
        #expect(a.run("repo", "set", "app", "--import-issues", "all").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "by commit").status == 0)
        machines.syncAll([0, 1])
        github.activity.addIssue(repository: 1, title: "imported")
        github.rename(1, to: "application")
        github.activity.setClock(Int64(Date().timeIntervalSince1970) + 2)
        let uuid = try machines.uuid("by commit", on: a)
        github.pushCommits(repository: 1, messages: ["Fix\n\nDoogit-Done: \(uuid.prefix(8))"])
        let changed = a.run("sync")
        #expect(changed.status == 0 && changed.stdout.contains("imported as todo"), "\(changed.stdout)")
        let file = try #require(github.contents.file(Machines.data, Self.appTodos)?.text)
        let repositories = try #require(github.contents.file(Machines.data, "repositories.jsonl")?.text)
        #expect(repositories.contains(#""fullName":"octocat/application""#) && file.contains(#""text":"imported""#)
                && file.contains(#""text":"by commit","done":true"#), "what a's sync changed is in the files already")
        github.resetCounters()
        let settled = b.run("sync")
        #expect(settled.status == 0)
        #expect(try machines.list(b) == ["octocat/application: imported #1, by commit [done]"])
        #expect(try machines.list(b) == machines.list(a))
        #expect(!github.requests.contains { $0.method != "GET" && !Self.isRemote($0) }, "b made nothing itself")
    }

    /// A file edited in GitHub's web editor: a text and a state changed without their stamps
    /// are taken as changes made when read, on every machine, and written back stamped.
    @Test func aHandEditOfTheFileIsTakenEverywhere() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "write the notes").status == 0)
        #expect(a.run("todo", "add", "-R", "app", "ship").status == 0)
        machines.syncAll([0, 1])
        let file = try #require(machines.github.contents.file(Machines.data, Self.appTodos)?.text)
        let edited = file.replacingOccurrences(of: #""text":"write the notes""#, with: #""text":"write the release notes""#)
            .replacingOccurrences(of: #""text":"ship","done":false"#, with: #""text":"ship","done":true"#)
        #expect(edited != file)
        machines.github.contents.commitFiles(Machines.data, [Self.appTodos: edited], message: "Edit todos/1/1.jsonl")
        let took = b.run("sync")
        #expect(took.status == 0, "\(took.stderr)")
        #expect(took.stdout.contains("received 2 changes") && took.stdout.contains("sent 2 changes"), "\(took.stdout)")
        #expect(try machines.list(b) == ["octocat/app: write the release notes, ship [done]"])
        let written = try #require(machines.github.contents.file(Machines.data, Self.appTodos)?.text)
        #expect(written != edited, "written back with proper stamps")
        machines.syncAll([0])
        #expect(try machines.list(a) == machines.list(b))
        let quiet = a.run("sync")
        #expect(quiet.stdout.isEmpty, "settled: \(quiet.stdout)")
    }

    /// `repositories.jsonl` edited by hand: settings added to a repository's line without their
    /// stamp are taken as set when read, on every machine.
    @Test func aHandEditOfTheRepositoriesFileIsTakenEverywhere() throws {
        let machines = try Machines(2)
        let (a, b) = (machines[0], machines[1])
        #expect(a.run("todo", "add", "-R", "app", "write the notes").status == 0)
        machines.syncAll([0, 1])
        let file = try #require(machines.github.contents.file(Machines.data, "repositories.jsonl")?.text)
        let settings = #""tracked":true,"settings":{"pushIssues":true,"importIssues":"all","scanCommits":false},"clock""#
        let edited = file.replacingOccurrences(of: #""tracked":true,"clock""#, with: settings)
        #expect(edited != file)
        machines.github.contents.commitFiles(Machines.data, ["repositories.jsonl": edited], message: "Edit repositories.jsonl")
        let took = b.run("sync")
        #expect(took.status == 0, "\(took.stderr)")
        machines.syncAll([0])
        for machine in [a, b] {
            let listed = machine.run("repo", "list", "--json").stdout
            #expect(listed.contains(#""pushIssues":true,"importIssues":"all","scanCommits":false"#), "\(listed)")
        }
        let written = try #require(machines.github.contents.file(Machines.data, "repositories.jsonl")?.text)
        #expect(written != edited && written.contains(#""settings":""#), "written back with the settings' stamp")
    }
}
