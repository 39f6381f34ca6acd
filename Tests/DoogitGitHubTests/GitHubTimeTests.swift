@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// GitHub's time as its answers' `Date` says, and a time of this machine's clock moved onto it.
@Suite(.serialized)
struct GitHubTimeTests {
    func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = start.duration(to: .now).components
        return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000 + 1
    }

    @Test func gitHubsTimeIsItsLatestAnswersDateCarriedForward() throws {
        let github = try FakeGitHub()
        github.activity.setClock(2_000_000_000)
        let api = GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token,
                                                    userAgent: "doogit-tests", retry: GitHubClientTests.quickRetries,
                                                    timeouts: GitHubClientTests.patientTimeouts),
                               transport: CurlTransport())
        #expect(api.gitHubNow == nil, "no answer yet")
        let local = Timestamp(secondsSinceEpoch: 2_000_000_900)
        #expect(api.onGitHubsClock(local, now: local) == local, "unmoved while GitHub's time is not known")

        let start = ContinuousClock.now
        _ = try api.currentUser()
        let now = try #require(api.gitHubNow).millisecondsSinceEpoch
        let elapsed = milliseconds(since: start)
        #expect(now >= 2_000_000_000_000 && now <= 2_000_000_000_000 + elapsed, "the Date, and what passed since it came")
        // This machine's clock is 15 minutes ahead: a time it took 5 minutes ago was 20 minutes ago on GitHub's.
        let moved = api.onGitHubsClock(Timestamp(secondsSinceEpoch: 2_000_000_600), now: local).millisecondsSinceEpoch
        #expect(moved >= 1_999_999_700_000 && moved <= 1_999_999_700_000 + milliseconds(since: start))

        github.activity.setClock(2_000_003_600)
        _ = try api.currentUser()
        #expect(try #require(api.gitHubNow).millisecondsSinceEpoch >= 2_000_003_600_000, "the latest answer's")
    }
}
