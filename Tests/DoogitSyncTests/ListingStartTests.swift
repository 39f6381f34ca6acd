import DoogitGitHub
@testable import DoogitSync
import Testing

/// Where the listing of a repository starts once a todo's own issue is made there: early enough
/// for a duplicate another machine made after this machine's search began.
@Suite struct ListingStartTests {
    @Test func itReachesBackAsLongAsTheSearchAndPostTookAndTheListingsLag() {
        let issue = GitHubIssue(number: 2, title: "ship it", state: .open, htmlURL: "https://github.com/o/n/issues/2",
                                updatedAt: "2030-01-01T00:02:00Z")
        #expect(IssueLinker.listingSince(issue, madeWithin: 1500) == "2030-01-01T00:00:58Z", "2 s, rounded up, and 60 s of lag")
        #expect(IssueLinker.listingSince(issue, madeWithin: 0) == "2030-01-01T00:01:00Z")
        #expect(IssueLinker.listingSince(issue, madeWithin: -5) == "2030-01-01T00:01:00Z", "a clock that stepped back counts as no time")
        var odd = issue
        odd.updatedAt = "yesterday"
        #expect(IssueLinker.listingSince(odd, madeWithin: 1000) == nil, "an unreadable time leaves the issue's own")
    }
}
