import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// `doogit sync` as cron runs it: no terminal, no colour, a loopback GitHub that changes.
@Suite(.serialized)
struct SyncTests {
    func tracked(_ sandbox: Sandbox, own: Int = 2, others: Int = 0) throws {
        var references: [String] = []
        for id in 0..<own {
            sandbox.github.addRepository(id: Int64(100 + id), name: "own-\(id)", description: "own \(id)")
            references.append("octocat/own-\(id)")
        }
        for id in 0..<others {
            sandbox.github.addRepository(id: Int64(1000 + id), owner: "other", name: "r\(id)", description: nil)
            references.append("other/r\(id)")
        }
        for chunk in stride(from: 0, to: references.count, by: 50) {
            let added = sandbox.run(["repo", "add"] + Array(references[chunk..<min(references.count, chunk + 50)]))
            #expect(added.status == 0, "\(added.stderr)")
        }
        for reference in references.prefix(5) {
            #expect(sandbox.run("todo", "add", "-R", reference, "todo", "for", reference).status == 0)
        }
    }

    @Test func silentWhenNothingChangedAndOneLinePerChange() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 2, others: 1)
        let first = sandbox.run("sync")
        #expect(first.status == 0 && first.stdout.isEmpty && first.stderr.isEmpty, "\(first.stdout)\(first.stderr)")

        sandbox.github.resetCounters()
        let noop = sandbox.run("sync")
        #expect(noop.status == 0 && noop.stdout.isEmpty && noop.stderr.isEmpty)
        #expect(sandbox.github.rateLimitUsed == 0, "a no-op sync costs no rate limit")

        sandbox.github.rename(100, to: "renamed")
        sandbox.github.update(101) { $0.archived = true }
        sandbox.github.delete(1000)
        let changed = sandbox.run("sync")
        #expect(changed.status == 0)
        #expect(changed.stderr.isEmpty)
        #expect(changed.stdout == """
            octocat/own-0: renamed to octocat/renamed
            octocat/own-1: archived
            other/r0: flagged gone (GitHub no longer returns it; its todos are kept)

            """)
        let list = sandbox.run("todo", "list")
        #expect(list.stdout.contains("octocat/renamed  own 0\n"))
        #expect(list.stdout.contains("octocat/own-1 [archived]  own 1\n"))
        #expect(list.stdout.contains("other/r0 [gone]\n  ○ 3  todo for other/r0"))

        sandbox.github.rename(100, to: "again")
        #expect(sandbox.run("sync", "--quiet").stdout.isEmpty)
        #expect(sandbox.run("todo", "list").stdout.contains("octocat/again"))

        let json = try JSONParser.parse(sandbox.run("sync", "--json").stdout)
        guard case .object(let members) = json else {
            Issue.record("sync --json is not an object")
            return
        }
        #expect(members.map(\.key) == ["repositories", "updated", "renamed", "gone", "unchanged",
                                       "requests", "rateLimitRemaining", "dryRun", "issues", "remote", "board", "shares"])
        #expect(json["issues"] == .object(["pulled", "pushed", "imported", "closedByCommit", "conflicts"].map {
            JSONMember($0, .number("0"))
        }))
        #expect(json["remote"] == .null, "no remote is set")
        #expect(json["repositories"] == .number("3"))
        #expect(json["unchanged"] == .number("3"))
    }

    @Test func dryRunShowsWithoutChanging() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 1)
        sandbox.github.rename(100, to: "next")
        let before = try sandbox.snapshot()
        let dry = sandbox.run("sync", "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.stdout == "octocat/own-0: would be renamed to octocat/next\n")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func onlyOneSyncRunsAtATime() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 0, others: 3)
        // The first sync's requests are held until released: while they are, it holds the lock.
        let arrived = Event(), release = Event()
        sandbox.github.script { _ in
            arrived.signal()
            _ = release.wait(seconds: 3 * Patience.seconds)
            return nil
        }
        defer { release.signal() }
        let first = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: sandbox.environment)
        try #require(arrived.wait(seconds: Patience.seconds), "the first sync never reached GitHub")

        // Were the second one to wait for the lock, it could not finish before the release (which
        // comes after it, or three times its patience later).
        let second = sandbox.run(["sync"], timeout: Patience.seconds)
        #expect(!second.timedOut, "the second sync must not wait")
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.contains("another sync is running"))

        let waited = try ChildProcess.spawn(DoogitBinary.path, ["sync", "--wait"], environment: sandbox.environment)
        #expect(waitForBlockedLock(of: waited.pid, seconds: Patience.seconds), "sync --wait must be waiting for the lock")
        release.signal()
        let firstResult = first.finish()
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        let waitedResult = waited.finish()
        #expect(waitedResult.status == 0)
        #expect(!waitedResult.stderr.contains("another sync"))
    }

    /// Whether `pid` shows in /proc/locks as waiting for a `flock` within `seconds`.
    func waitForBlockedLock(of pid: pid_t, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            let blocked = locks.split(separator: "\n").contains { line in
                line.contains("-> FLOCK") && line.split(separator: " ").contains(Substring(String(pid)))
            }
            if blocked { return true }
            usleep(10_000)
        }
        return false
    }

    /// The sync's requests are held until the first todo is added: it is added while the sync
    /// waits on GitHub, whatever the machine's speed (held only as long as one add takes:
    /// doogit's own timeout is 20 s). The others are added while the sync goes on.
    @Test func todosCanBeAddedWhileASyncRuns() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 0, others: 20)
        for id in 0..<20 { sandbox.github.update(Int64(1000 + id)) { $0.description = "changed" } }
        let arrived = Event(), release = Event()
        sandbox.github.script { _ in
            arrived.signal()
            _ = release.wait(seconds: Patience.seconds)
            return nil
        }
        defer { release.signal() }
        let sync = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: sandbox.environment)
        try #require(arrived.wait(seconds: Patience.seconds), "the sync never reached GitHub")
        for index in 0..<10 {
            let added = sandbox.run("todo", "add", "-R", "other/r1", "added during sync \(index)")
            if index == 0 {
                #expect(!sync.hasEnded, "added while the sync waits on GitHub, not after it")
                release.signal()
            }
            #expect(added.status == 0, "\(added.stderr)")
            #expect(!added.stderr.contains("locked"))
        }
        #expect(sync.finish().status == 0)
        let list = sandbox.run("todo", "list", "other/r1")
        #expect(list.stdout.components(separatedBy: "added during sync").count == 11)
        #expect(list.stdout.hasPrefix("other/r1  changed\n"))
    }

    @Test func aKilledSyncLosesNothing() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 0, others: 60)
        let todosBefore = sandbox.run("todo", "list", "--json").stdout
        for id in 0..<60 { sandbox.github.update(Int64(1000 + id)) { $0.description = "v2" } }
        sandbox.github.setDelay(milliseconds: 60)
        // Kill moments spread over the sync on purpose; no assertion depends on where they land.
        for killAfter in [150, 400, 700, 1000] {
            let sync = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: sandbox.environment)
            usleep(UInt32(killAfter) * 1000)
            sync.kill()
            _ = sync.finish(timeoutSeconds: 10)
            let database = try Database(path: sandbox.databasePath)
            #expect(try database.scalarString("PRAGMA integrity_check") == "ok")
            #expect(sandbox.run("todo", "list", "--json").stdout.components(separatedBy: "\"text\"").count
                == todosBefore.components(separatedBy: "\"text\"").count)
        }
        sandbox.github.setDelay(milliseconds: 0)
        let finish = sandbox.run("sync", "--quiet")
        #expect(finish.status == 0)
        let repos = sandbox.run("repo", "list", "--json").stdout
        #expect(repos.components(separatedBy: "\"v2\"").count == 61, "a later sync finishes the work")
        #expect(sandbox.run("todo", "list", "--json").stdout.components(separatedBy: "\"text\"").count
            == todosBefore.components(separatedBy: "\"text\"").count)
    }

    @Test func networkDownAndRateLimitExitSeventyFive() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 0, others: 3)
        for id in 1000..<1003 { sandbox.github.update(Int64(id)) { $0.description = "new" } }
        sandbox.github.rateLimit = sandbox.github.rateLimitUsed + 1
        let limited = sandbox.run("sync")
        #expect(limited.status == 75)
        #expect(limited.stderrLines.count == 1)
        #expect(limited.stderr.contains("rate limit") && limited.stderr.contains("try again after"))
        // Requests run in parallel, so which one got through varies; it is kept and reported.
        #expect(limited.stdout.split(separator: "\n").count == 1)
        #expect(limited.stdout.hasSuffix(": description changed to \"new\"\n"))
        let repos = sandbox.run("repo", "list", "--json").stdout
        #expect(repos.components(separatedBy: "\"new\"").count == 2)
        #expect(!repos.contains("\"gone\":true"))

        try sandbox.letRateLimitsPass()
        let before = try sandbox.snapshot()
        sandbox.github.stop()
        let down = sandbox.run("sync")
        #expect(down.status == 75)
        #expect(down.stderrLines.count == 1)
        #expect(down.stderr.contains("cannot reach GitHub"))
        #expect(try sandbox.snapshot() == before)
    }

    @Test func withoutATokenSyncExitsFour() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 1)
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["PATH"] = sandbox.home.path
        let result = sandbox.run("sync")
        #expect(result.status == 4)
        #expect(result.stderrLines.count == 1)
    }

    @Test func aWrongAPIPathFlagsNothingGone() throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 0, others: 3)
        let before = try sandbox.snapshot()
        // The fake has no /api/v3 prefix: every path answers GitHub's 404 for an unknown route.
        sandbox.environment["DOOGIT_API_URL"] = sandbox.github.apiURL + "/api/v3"
        let result = sandbox.run("sync")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("the API URL looks wrong"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("check DOOGIT_API_URL or GH_HOST\n"))
        #expect(try sandbox.snapshot() == before)
    }

    /// The most requests a GitHub answering 502 to every repository may see from one sync: the
    /// listing page with its attempts (3), then the first answers of one batch (4 in flight at
    /// first) and one request, with its attempts, that confirms GitHub is failing: a handful,
    /// where once it was one per repository and attempt (151).
    static let mostRequestsAFailingGitHubSees = 3 + 4 + 3

    @Test(arguments: [true, false])
    func aGitHubAnswering502ExitsSeventyFiveAfterOneBatch(listingFails: Bool) throws {
        let sandbox = try Sandbox()
        try tracked(sandbox, own: 0, others: 60)
        let before = try sandbox.snapshot()
        sandbox.github.resetCounters()
        sandbox.github.script { request in
            !listingFails && request.path == "/user/repos" ? nil : .json(502, #"{"message":"Server Error"}"#)
        }
        let result = sandbox.run("sync")
        #expect(result.status == 75)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("HTTP 502"))
        #expect(try sandbox.snapshot() == before, "nothing is flagged gone")
        #expect(sandbox.github.requests.count <= Self.mostRequestsAFailingGitHubSees,
                "\(sandbox.github.requests.count) requests")
    }
}

/// A one-way signal between threads: `signal` once, `wait` with a timeout.
final class Event: @unchecked Sendable {
    private let condition = NSCondition()
    private var signalled = false

    func signal() {
        condition.lock()
        signalled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether it was signalled (without waiting).
    var isSignalled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return signalled
    }

    /// Whether it was signalled within `seconds`.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !signalled && condition.wait(until: deadline) {}
        return signalled
    }
}
