@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The fake GitHub's secondary rate limits, as GitHub's REST docs state them: each claim at a
/// small scale, where a test may lower the numbers, and the numbers themselves.
@Suite(.serialized)
struct FakeSecondaryLimitTests {
    let transport = CurlTransport()

    func send(_ github: FakeGitHub, _ method: String, _ path: String, etag: String? = nil,
              body: String? = nil) throws -> HTTPResponse {
        var headers = [(name: "Authorization", value: "Bearer \(github.token)")]
        if let etag { headers.append(("If-None-Match", etag)) }
        return try transport.send(HTTPRequest(method: method, url: github.apiURL + path, headers: headers,
                                              body: body.map { Array($0.utf8) }))
    }

    @Test func theLimitsAreGitHubsNumbersAndOnByDefault() throws {
        let limits = try FakeGitHub().secondaryLimits
        #expect(limits.enabled)
        #expect(limits.concurrentRequests == 100)
        #expect(limits.pointsPerMinute == 900)
        #expect(limits.contentPerMinute == 80)
        #expect(limits.contentPerHour == 500)
        #expect(limits.retryAfterSeconds == 60)
    }

    @Test func pointsAreCountedPerEndpointAMinuteAtATime() throws {
        let github = try FakeGitHub()
        for id in 1...12 { github.addRepository(id: Int64(id), name: "r\(id)", description: nil) }
        github.secondaryLimits.useManualClock()
        github.secondaryLimits.pointsPerMinute = 10
        let first = try send(github, "GET", "/repositories/1")
        let etag = try #require(first.header("etag"))
        // A 304 costs no primary limit, but it is a request to the endpoint all the same.
        #expect(try send(github, "GET", "/repositories/1", etag: etag).status == 304)
        for id in 2...9 { #expect(try send(github, "GET", "/repositories/\(id)").status == 200) }
        // Another endpoint has points of its own.
        #expect(try send(github, "GET", "/user").status == 200)
        let refused = try send(github, "GET", "/repositories/11")
        #expect(refused.status == 403)
        #expect(refused.header("retry-after") == "60")
        #expect(refused.header("x-ratelimit-remaining") == nil, "a secondary limit's answer has no x-ratelimit-* headers")
        #expect(String(decoding: refused.body, as: UTF8.self).contains("You have exceeded a secondary rate limit"))
        // Until the wait is over every request is refused, and counted as one made while limited.
        #expect(try send(github, "GET", "/user").status == 403)
        #expect(github.secondaryLimits.requestsWhileLimited == 1)
        #expect(github.secondaryLimits.refusals == 1)
        github.secondaryLimits.advance(seconds: 60)
        #expect(try send(github, "GET", "/repositories/12").status == 200)
        #expect(github.secondaryLimits.pointsInLastMinute("GET /repositories/{}") == 1)
    }

    @Test func aWriteCostsFivePoints() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "r", description: nil)
        github.secondaryLimits.useManualClock()
        github.secondaryLimits.pointsPerMinute = 10
        let body = #"{"title":"t"}"#
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 201)
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 201)
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 403)
        #expect(github.secondaryLimits.pointsInLastMinute("POST /repos/{}/{}/issues") == 15)
    }

    @Test func contentCreationIsLimitedAMinuteAndAnHour() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "r", description: nil)
        let limits = github.secondaryLimits
        limits.useManualClock()
        limits.contentPerMinute = 2
        limits.contentPerHour = 3
        let body = #"{"title":"t"}"#
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 201)
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 201)
        let refused = try send(github, "POST", "/repos/octocat/r/issues", body: body)
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("temporarily blocked from content creation"))
        // Reading is not blocked by it.
        #expect(try send(github, "GET", "/repositories/1").status == 200)
        limits.advance(seconds: 61)
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 201)
        limits.advance(seconds: 61)
        // Three made within the hour (the refused one made nothing): no fourth.
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 403)
        limits.advance(seconds: 3600)
        #expect(try send(github, "POST", "/repos/octocat/r/issues", body: body).status == 201)
    }

    @Test func tooManyRequestsAtOnceAreRefused() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "r", description: nil)
        github.secondaryLimits.useManualClock()
        github.secondaryLimits.concurrentRequests = 1
        let hold = AnswerHold()
        github.activity.failNext("GET", pathSuffix: "/repositories/1", with: .holdBeforeProcessing(hold))
        let held = DispatchGroup()
        held.enter()
        Thread {
            _ = try? CurlTransport().send(HTTPRequest(url: github.apiURL + "/repositories/1",
                                                      headers: [("Authorization", "Bearer \(github.token)")]))
            held.leave()
        }.start()
        #expect(hold.waitForArrival())
        #expect(try send(github, "GET", "/user").status == 403)
        hold.releaseAnswer()
        #expect(held.wait(timeout: .now() + 30) == .success)
        #expect(github.secondaryLimits.mostInFlight == 2)
    }

    @Test func withoutRetryAfterAndAs429Too() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "r", description: nil)
        let limits = github.secondaryLimits
        limits.useManualClock()
        limits.pointsPerMinute = 1
        limits.retryAfterSeconds = nil
        limits.status = 429
        #expect(try send(github, "GET", "/repositories/1").status == 200)
        let refused = try send(github, "GET", "/repositories/1")
        #expect(refused.status == 429)
        #expect(refused.header("retry-after") == nil)
        // Without Retry-After, a minute.
        limits.advance(seconds: 59)
        #expect(try send(github, "GET", "/user").status == 429)
        limits.advance(seconds: 2)
        #expect(try send(github, "GET", "/repositories/1").status == 200)
    }

    @Test func switchedOffTheyLetEverythingThrough() throws {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "r", description: nil)
        github.secondaryLimits.pointsPerMinute = 1
        github.secondaryLimits.enabled = false
        for _ in 1...3 { #expect(try send(github, "GET", "/repositories/1").status == 200) }
    }

    @Test(arguments: [
        ("GET", "/repositories/17", "GET /repositories/{}"),
        ("GET", "/repos/o/r/issues?state=all", "GET /repos/{}/{}/issues"),
        ("PATCH", "/repos/o/r/issues/5", "PATCH /repos/{}/{}/issues/{}"),
        ("POST", "/repos/o/r/issues/5/labels", "POST /repos/{}/{}/issues/{}/labels"),
        ("GET", "/repos/o/r/git/trees/abc", "GET /repos/{}/{}/git/trees/{}"),
        ("GET", "/repos/o/r/git/ref/heads/feature/x", "GET /repos/{}/{}/git/ref/{}"),
        ("GET", "/repos/o/r/contents/a/b.md", "GET /repos/{}/{}/contents/{}"),
        ("GET", "/users/someone/repos", "GET /users/{}/repos"),
        ("GET", "/user/7000000/repos?page=2", "GET /user/{}/repos"),
        ("GET", "/user/repos?per_page=100", "GET /user/repos"),
    ])
    func endpointsAreRoutes(method: String, target: String, endpoint: String) {
        let request = ReceivedRequest(method: method, target: target, headers: [:], body: [])
        #expect(FakeSecondaryLimits.endpoint(of: request) == endpoint)
    }
}
