@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A pacer on the fake GitHub's clock for its limits: its waits move that clock, so that a test
/// of minutes runs in moments and never sleeps.
func pacer(on github: FakeGitHub, policy: PacingPolicy = PacingPolicy()) -> RequestPacer {
    let limits = github.secondaryLimits
    limits.useManualClock()
    return RequestPacer(policy: policy, now: { limits.now }, sleep: { limits.advance(milliseconds: Int64($0)) })
}

/// doogit against GitHub's secondary rate limits: answers told from the primary limit, windows
/// that stop at the first one, nothing sent while it lasts, and requests paced to stay within.
@Suite(.serialized)
struct SecondaryLimitTests {
    /// Quick retries, but generous timeouts: on a loaded machine an answer of a window of a
    /// thousand may be slow, and a retry would change the requests counted.
    func client(_ github: FakeGitHub, pacer: RequestPacer = RequestPacer(), log: @escaping (String) -> Void = { _ in })
        throws -> GitHubClient
    {
        var retry = GitHubClientTests.quickRetries
        retry.deadlineMilliseconds = 120_000
        return GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token, userAgent: "doogit-tests",
                                                 retry: retry,
                                                 timeouts: HTTPTimeouts(connectMilliseconds: 60_000, totalMilliseconds: 60_000,
                                                                        stallMilliseconds: 60_000)),
                            transport: CurlTransport(), log: log, pacer: pacer)
    }

    static func response(_ status: Int, _ body: String = "{}", _ headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    static func secondsFromNow(_ error: GitHubError?) -> Int64? {
        guard case .secondaryRateLimited(let retryAt)? = error else { return nil }
        return (retryAt.millisecondsSinceEpoch - Timestamp.now().millisecondsSinceEpoch + 500) / 1000
    }

    @Test func aSecondaryLimitIsToldFromThePrimaryOne() {
        let recorded = Fixtures.text("error-403-secondary-rate-limit.json")
        // GitHub's recorded answer: 403, retry-after, no x-ratelimit-* headers.
        #expect(Self.secondsFromNow(GitHubClient.error(for: Self.response(403, recorded, [("retry-after", "60")]))) == 60)
        // Its message alone, with requests left this hour: at least a minute.
        #expect(Self.secondsFromNow(GitHubClient.error(for: Self.response(403, recorded, [("x-ratelimit-remaining", "4000")]))) == 60)
        // The older wording.
        let abuse = #"{"message":"You have triggered an abuse detection mechanism. Please wait a few minutes before you try again."}"#
        #expect(Self.secondsFromNow(GitHubClient.error(for: Self.response(403, abuse))) == 60)
        // Retry-After alone, or 429 alone.
        #expect(Self.secondsFromNow(GitHubClient.error(for: Self.response(403, "{}", [("retry-after", "5")]))) == 5)
        #expect(Self.secondsFromNow(GitHubClient.error(for: Self.response(429))) == 60)
        // Its message with none left this hour: until the hour resets.
        #expect(GitHubClient.error(for: Self.response(403, recorded, [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1700000000")]))
            == .secondaryRateLimited(retryAt: Timestamp(secondsSinceEpoch: 1_700_000_000)))
        // The primary limit: none left, and a message that says nothing of a secondary one.
        let primary = Self.response(403, Fixtures.text("error-403-rate-limit.json"),
                                    [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1700000000")])
        #expect(GitHubClient.error(for: primary) == .rateLimited(resetAt: Timestamp(secondsSinceEpoch: 1_700_000_000)))
        #expect(GitHubClient.error(for: Self.response(429, "{}", [("x-ratelimit-remaining", "0")])) == .rateLimited(resetAt: nil))
        // A refusal is neither.
        #expect(GitHubClient.error(for: Self.response(403, #"{"message":"Must have admin rights to Repository."}"#))
            == .forbidden(message: "Must have admin rights to Repository.", hint: nil))
    }

    /// 1,000 requests at once met the limit; now the window stops at the first refusal, and
    /// nothing more is sent while GitHub asks to wait.
    @Test func aWindowStopsAtTheFirstSecondaryLimit() throws {
        let github = try FakeGitHub()
        for id in 1...200 { github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        github.secondaryLimits.useManualClock()
        github.secondaryLimits.pointsPerMinute = 20
        let api = try client(github)
        let results = api.repositories((1...200).map { (id: Int64($0), etag: String?.none) })
        let read = results.filter { if case .success = $0 { true } else { false } }.count
        let limited = results.filter { if case .failure(.secondaryRateLimited) = $0 { true } else { false } }.count
        #expect(read == 20)
        #expect(read + limited == 200, "every other request fails with the limit")
        // Only the requests already on the wire when the refusal came: the transport's width
        // (one connection each over HTTP/1.1) less the refused one.
        #expect(github.secondaryLimits.requestsWhileLimited < CurlTransport.defaultParallelTransfers,
                "\(github.secondaryLimits.requestsWhileLimited) sent while limited")
        let sent = github.requests.count
        #expect(throws: GitHubError.self) { try api.repository(id: 1) }
        var blobs: [Result<[UInt8], GitHubError>] = []
        api.blobs(repository: "other/r1", shas: ["a", "b"]) { blobs.append($1) }
        #expect(blobs.count == 2 && blobs.allSatisfy {
            if case .failure(.secondaryRateLimited) = $0 { true } else { false }
        })
        #expect(github.requests.count == sent, "nothing is sent while the limit lasts")
    }

    /// A short Retry-After is waited out, as a short wait for the primary limit is, and the
    /// window goes on with the requests it had not sent.
    @Test func aShortRetryAfterIsWaitedOut() throws {
        let github = try FakeGitHub()
        for id in 1...60 { github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        let answered = Counter()
        github.script { request in
            answered.next() == 1 ? .json(403, Fixtures.text("error-403-secondary-rate-limit.json"), headers: [("Retry-After", "0")]) : nil
        }
        let api = try client(github)
        let results = api.repositories((1...60).map { (id: Int64($0), etag: String?.none) })
        #expect(results.allSatisfy { if case .success(.modified) = $0 { true } else { false } })
        #expect(github.requests.count == 61, "each once, and the refused one again")
    }

    /// 1,000 repositories by id: within 900 points a minute, so the fake (on its own clock,
    /// which the pacer's waits move) refuses none, where a burst of them all is refused.
    @Test func requestsArePacedWithinTheEndpointsPoints() throws {
        let github = try FakeGitHub()
        for id in 1...1000 { github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        let wanted = (1...1000).map { (id: Int64($0), etag: String?.none) }
        let paced = try client(github, pacer: pacer(on: github))
        #expect(paced.repositories(wanted).allSatisfy { if case .success(.modified) = $0 { true } else { false } })
        #expect(github.secondaryLimits.refusals == 0)
        #expect(paced.pacedMilliseconds >= 55_000, "800 at once, then a wait for the first to leave the minute")
        #expect(paced.pacedMilliseconds <= 62_000)

        github.resetCounters()
        let unpaced = try client(github, pacer: pacer(on: github, policy: PacingPolicy(pointsPerEndpoint: 5000)))
        _ = unpaced.repositories(wanted)
        #expect(github.secondaryLimits.refusals == 1)
    }

    @Test func singleRequestsArePacedToo() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "r", description: nil)
        let api = try client(github, pacer: pacer(on: github, policy: PacingPolicy(pointsPerEndpoint: 2)))
        for _ in 1...5 { _ = try api.repository(id: 1) }
        // Two, then the third a window after the first, the fourth with it, the fifth a window later.
        #expect(api.pacedMilliseconds == 2 * 61_000)
        #expect(github.secondaryLimits.refusals == 0)
    }
}

/// The pacer's arithmetic, on a clock of the test's.
struct RequestPacerTests {
    final class Clock {
        var now: Int64 = 1_000_000
    }

    func pacer(_ policy: PacingPolicy, _ clock: Clock) -> RequestPacer {
        RequestPacer(policy: policy, now: { clock.now }, sleep: { clock.now += Int64($0) })
    }

    @Test func aBurstUpToTheLimitThenWaitsForTheOldestToLeave() {
        let clock = Clock()
        let pacer = pacer(PacingPolicy(pointsPerEndpoint: 10, creations: 2, windowMilliseconds: 61_000), clock)
        let gets = (1...15).map { RequestPacer.Request(.get, "https://api.github.com/repositories/\($0)") }
        #expect(pacer.room(for: gets) == 10)
        pacer.record(Array(gets.prefix(4)))
        clock.now += 10_000
        pacer.record(Array(gets[4..<10]))
        #expect(pacer.room(for: gets[10...]) == 0)
        #expect(pacer.wait(before: gets[10]) == 51_000, "when the first four leave the window")
        // Another endpoint is not held up.
        #expect(pacer.room(for: [RequestPacer.Request(.get, "https://api.github.com/user")]) == 1)
        clock.now += 51_000
        #expect(pacer.room(for: gets[10...]) == 4)
    }

    @Test func writesCostFivePointsAndCreationsAreCounted() {
        let clock = Clock()
        let patches = (1...3).map { RequestPacer.Request(.patch, "https://api.github.com/repos/o/r/issues/\($0)") }
        #expect(pacer(PacingPolicy(pointsPerEndpoint: 10), clock).room(for: patches) == 2)
        let creating = pacer(PacingPolicy(pointsPerEndpoint: 100, creations: 2, windowMilliseconds: 61_000), clock)
        let posts = [RequestPacer.Request(.post, "https://api.github.com/repos/o/r/git/blobs"),
                     RequestPacer.Request(.put, "https://api.github.com/repos/o/r/contents/a.md"),
                     RequestPacer.Request(.post, "https://api.github.com/repos/o/r/issues")]
        #expect(creating.room(for: posts) == 2, "two creations, though each endpoint has room")
        #expect(creating.room(for: patches) == 3, "an edit creates nothing")
        creating.record(Array(posts.prefix(2)))
        #expect(creating.wait(before: posts[2]) == 61_000)
    }

    @Test(arguments: [
        ("https://api.github.com/repositories/17", "GET /repositories/*"),
        ("https://api.github.com/repos/o/r/git/trees/abc?recursive=1", "GET /repos/*/*/git/trees/*"),
        ("https://api.github.com/repos/o/r/git/blobs/abc", "GET /repos/*/*/git/blobs/*"),
        ("https://api.github.com/repos/o/r/branches/feature/x", "GET /repos/*/*/branches/*"),
        ("https://api.github.com/repos/o/r/issues?since=x", "GET /repos/*/*/issues"),
        ("https://ghe.example.com/api/v3/users/a/repos?per_page=100", "GET /api/v3/users/*/repos"),
        ("https://api.github.com/user/7/repos?page=2", "GET /user/*/repos"),
        ("https://api.github.com/user/repos?page=2", "GET /user/repos"),
    ])
    func endpointsLeaveParametersOut(url: String, endpoint: String) {
        #expect(RequestPacer.endpoint(.get, url) == endpoint)
    }
}
