import DoogitGitHub
import Foundation
import Testing
import TestSupport

/// doogit against a GitHub that enforces its secondary rate limits (on in the fake by default),
/// as a user meets them: many repositories of someone else's organisation, a limit met anyway,
/// a first sync too big for the hour.
@Suite(.serialized)
struct SecondaryLimitsEndToEndTests {
    /// Tracks the repositories in `repo add` commands of at most 500, a minute apart on the
    /// limits' clock (as a user would add them: a burst of thousands would meet the limit).
    func track(_ sandbox: Sandbox, _ names: [String]) {
        for chunk in stride(from: 0, to: names.count, by: 500) {
            let added = sandbox.run(["repo", "add"] + Array(names[chunk..<min(names.count, chunk + 500)]))
            #expect(added.status == 0, "\(added.stderr)")
            sandbox.github.secondaryLimits.advance(seconds: 61)
        }
    }

    /// Before, a sync sent 1,000 `GET /repositories/{id}` in about a second, and this GitHub
    /// stopped it at the 901st ("rate limit is used up", exit 75). Now it reads the
    /// organisation's listing, 100 a page.
    @Test func aThousandRepositoriesOfAnotherOrganisationSyncWithinTheLimits() throws {
        let sandbox = try Sandbox()
        sandbox.github.secondaryLimits.useManualClock()
        for id in 1...1000 {
            sandbox.github.addRepository(id: Int64(id), owner: "bigorg", name: String(format: "lib-%04d", id), description: "v1")
        }
        track(sandbox, (1...1000).map { String(format: "bigorg/lib-%04d", $0) })
        sandbox.github.resetCounters()

        let first = sandbox.run("sync")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(sandbox.github.secondaryLimits.refusals == 0)
        #expect(sandbox.github.requests.count <= 12, "the user's listing, ten pages of the organisation's, and the user (its login, once)")
        #expect(!sandbox.github.requests.contains { $0.path.hasPrefix("/repositories/") })

        sandbox.github.update(321) { $0.description = "v2" }
        sandbox.github.resetCounters()
        let changed = sandbox.run("sync")
        #expect(changed.status == 0)
        #expect(changed.stdout == "bigorg/lib-0321: description changed to \"v2\"\n")
        // The page that changed (exactly one in ManyRepositoriesTests, whose client waits longer
        // than doogit's 20 seconds: on a loaded machine an answer may take longer, and a retry costs again).
        #expect(sandbox.github.rateLimitUsed < 10, "the page that changed, not the whole listing")
    }

    /// `repo add` of 1,000 repositories of an organisation asked for each (more than a minute's
    /// points: it waited for the limit to pass): now it reads the organisation's listing, its
    /// pages at once, and asks by name only for what the listing does not hold; a missing one
    /// is named and nothing is added.
    @Test func aThousandRepositoriesOfAnOrganisationAreAddedFromItsListing() throws {
        let sandbox = try Sandbox()
        sandbox.github.secondaryLimits.useManualClock()
        for id in 1...1000 {
            sandbox.github.addRepository(id: Int64(id), owner: "bigorg", name: String(format: "lib-%04d", id), description: "v1")
        }
        sandbox.github.addRepository(id: 1001, owner: "bigorg", name: "internal", isPrivate: true)
        let names = (1...1000).map { String(format: "bigorg/lib-%04d", $0) } + ["bigorg/internal"]

        let missing = sandbox.run(["repo", "add"] + names + ["bigorg/nothing"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("'bigorg/nothing' not found"), "\(missing.stderr)")
        #expect(sandbox.run("repo", "list", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")

        sandbox.github.resetCounters()
        let added = sandbox.run(["repo", "add", "--json"] + names)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.components(separatedBy: "\"fullName\"").count - 1 == 1001)
        #expect(sandbox.github.secondaryLimits.refusals == 0)
        let paths = sandbox.github.requests.map(\.path)
        #expect(paths.filter { $0.hasPrefix("/repos/") } == ["/repos/bigorg/internal"], "only what the listing does not hold")
        #expect(paths.count == 10 + 1, "\(paths)")

        let sync = sandbox.run("sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sandbox.github.secondaryLimits.refusals == 0)
    }

    /// Met anyway (another program using the token, say): one line that names the secondary
    /// limit and when to try again, exit 75, what was read kept, nothing sent while it lasts.
    @Test func aSecondaryLimitStopsTheSyncWithOneLine() throws {
        let sandbox = try Sandbox()
        sandbox.github.secondaryLimits.useManualClock()
        // Another owner's private repositories: its listing does not show them, so they are read by id.
        for id in 1...100 { sandbox.github.addRepository(id: Int64(id), owner: "corp", name: "r\(id)", description: "v1", isPrivate: true) }
        track(sandbox, (1...100).map { "corp/r\($0)" })
        for id in 1...100 { sandbox.github.update(Int64(id)) { $0.description = "v2" } }
        sandbox.github.resetCounters()
        sandbox.github.secondaryLimits.pointsPerMinute = 40

        let limited = sandbox.run("sync")
        #expect(limited.status == 75)
        #expect(limited.stderrLines.count == 1)
        #expect(limited.stderr.hasPrefix("doogit: error: sync stopped: GitHub's secondary rate limit was met (too many requests in a short time); what was done is kept; try again after "),
                "\(limited.stderr)")
        #expect(!limited.stderr.contains("used up"))
        // Only what was on the wire when GitHub said so: doogit's width over HTTP/1.1 less the refused one.
        #expect(sandbox.github.secondaryLimits.requestsWhileLimited < CurlTransport.defaultParallelTransfers,
                "only what was on the wire when GitHub said so: \(sandbox.github.secondaryLimits.requestsWhileLimited)")
        let kept = sandbox.run("repo", "list", "--json").stdout.components(separatedBy: "\"v2\"").count - 1
        #expect(kept >= 30, "\(kept) read before the stop are kept")

        // Held across commands: the next sync, before GitHub's time, sends nothing and says until when.
        sandbox.github.resetCounters()
        let held = sandbox.run("sync")
        #expect(held.status == 75 && held.stderrLines.count == 1)
        #expect(held.stderr.contains("secondary rate limit") && held.stderr.contains("try again after "), "\(held.stderr)")
        #expect(sandbox.github.requests.isEmpty, "\(sandbox.github.requests.map(\.path))")
        let search = sandbox.run("repo", "search")
        #expect(search.status == 75 && sandbox.github.requests.isEmpty, "every command to that GitHub keeps to it")

        // GitHub's time passes (on its clock, and on the one the hold was kept by).
        sandbox.github.secondaryLimits.advance(seconds: 61)
        sandbox.github.secondaryLimits.pointsPerMinute = 900
        try sandbox.letRateLimitsPass()
        let next = sandbox.run("sync")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(sandbox.run("repo", "list", "--json").stdout.components(separatedBy: "\"v2\"").count == 101)
    }

    /// A first sync that needs more than the hour's requests stops at the reserve; the next
    /// ones, an hour apart, go on with what is still unread until every repository was read.
    @Test func aFirstSyncBeyondTheHourGoesOnAcrossSyncs() throws {
        let sandbox = try Sandbox()
        sandbox.github.secondaryLimits.useManualClock()
        for id in 1...150 { sandbox.github.addRepository(id: Int64(id), owner: "corp", name: "r\(id)", description: "v1", isPrivate: true) }
        track(sandbox, (1...150).map { "corp/r\($0)" })
        for id in 1...150 { sandbox.github.update(Int64(id)) { $0.description = "v2" } }
        var readBefore = 0
        var runs = 0
        var status: Int32 = 75
        while status == 75 && runs < 5 {
            sandbox.github.resetCounters()  // the next hour
            sandbox.github.rateLimit = 120  // 50 of it kept in reserve
            sandbox.github.secondaryLimits.advance(seconds: 3600)
            let sync = sandbox.run("sync")
            status = sync.status
            runs += 1
            let read = sandbox.run("repo", "list", "--json").stdout.components(separatedBy: "\"v2\"").count - 1
            if status == 75 {
                #expect(sync.stderr.contains("in reserve"), "\(sync.stderr)")
                // A stopped run read what it could (those on the wire when the reserve was reached too).
                #expect(read > readBefore, "run \(runs) made progress")
            }
            readBefore = read
        }
        #expect(status == 0)
        #expect(readBefore == 150)
        #expect(runs >= 2, "70 requests an hour: the first sync could not read them all")
    }
}
