@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Issues, branches, comparisons and commit lists, against the fake GitHub on 127.0.0.1.
@Suite(.serialized)
struct IssueClientTests {
    func client(_ github: FakeGitHub, timeouts: HTTPTimeouts = GitHubClientTests.patientTimeouts) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token,
                                          userAgent: "doogit-tests", retry: GitHubClientTests.quickRetries,
                                          timeouts: timeouts),
                     transport: CurlTransport())
    }

    func world() throws -> FakeGitHub {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: nil)
        return github
    }

    @Test func theSpecsIssueExamplesDecodeAndThePullRequestIsRecognised() throws {
        let issue = try GitHubIssue(json: Fixtures.json("issue-created.json"))
        #expect(issue.number == 1347 && issue.title == "Found a bug" && issue.state == .open)
        #expect(issue.updatedAt == "2011-04-22T13:33:48Z" && issue.assignees == ["octocat"] && issue.author == "octocat")
        #expect(issue.isPullRequest, "the spec's example carries a pull_request member")
        guard case .array(let items) = Fixtures.json("issues-list.json") else { throw JSONError.missing(field: "list") }
        #expect(try items.map { try GitHubIssue(json: $0).number } == [1347])
        let commits = Fixtures.json("commits-list.json")
        guard case .array(let list) = commits, let first = list.first else { throw JSONError.missing(field: "list") }
        #expect(try GitHubCommit(json: first) == GitHubCommit(sha: "6dcb09b5b57875f334f61aebed695e2e4193db5e",
                                                               message: "Fix all the bugs",
                                                               committedAt: Timestamp(rfc3339: "2011-04-14T16:00:49Z")))
    }

    /// Issues of 2012 and 2013 carry a `pull_request` member whose addresses are null: they are
    /// issues. A pull request's names one.
    @Test func anIssueWithANullPullRequestMemberIsAnIssue() throws {
        let base = Fixtures.json("issue-created.json")
        let old = base.replacing(["pull_request": .object([JSONMember("html_url", .null), JSONMember("diff_url", .null),
                                                           JSONMember("patch_url", .null)])])
        #expect(try !GitHubIssue(json: old).isPullRequest)
        #expect(try !GitHubIssue(json: base.replacing(["pull_request": .null])).isPullRequest)
        #expect(try !GitHubIssue(json: base.removing("pull_request")).isPullRequest)
        #expect(try GitHubIssue(json: base).isPullRequest)
        let closed = base.replacing(["state": .string("closed"), "closed_at": .string("2011-04-22T13:40:00Z")])
        #expect(try GitHubIssue(json: closed).closedAt == "2011-04-22T13:40:00Z")
    }

    @Test func createGetAndUpdateAnIssue() throws {
        let github = try world()
        let api = try client(github)
        let created = try api.createIssue(owner: "octocat", name: "app", title: "Write docs", body: "body", labels: ["todo"])
        #expect(created.number == 1 && created.state == .open && !created.isPullRequest)
        #expect(created.htmlURL == "https://github.com/octocat/app/issues/1" && created.author == github.login)
        let sent = try JSONParser.parse(try #require(github.requests.last { $0.method == "POST" }).body)
        #expect(sent["labels"] == .array([.string("todo")]) && sent["body"] == .string("body"))

        let closed = try api.updateIssue(owner: "octocat", name: "app", number: 1, title: "Write the docs", state: .closed)
        #expect(closed.state == .closed && closed.title == "Write the docs")
        let patch = try JSONParser.parse(try #require(github.requests.last { $0.method == "PATCH" }).body)
        #expect(patch["state_reason"] == .string("completed"))
        #expect(github.activity.issue(repository: 1, number: 1)?.stateReason == "completed")
        #expect(try api.issue(owner: "octocat", name: "app", number: 1).state == .closed)
        #expect(throws: GitHubError.notFound(.issue(repository: "octocat/app", number: 9), message: "Not Found")) {
            try api.issue(owner: "octocat", name: "app", number: 9)
        }
    }

    @Test func aListingIsConditionalPaginatedAndHoldsPullRequests() throws {
        let github = try world()
        for index in 1...150 { github.activity.addIssue(repository: 1, title: "issue \(index)") }
        github.activity.addIssue(repository: 1, title: "a pull request", isPullRequest: true)
        let api = try client(github)
        let url = api.issueListingURL(owner: "octocat", name: "app", since: nil)
        guard case .modified(let first, let etag) = try api.issuePage(url, ifNoneMatch: nil, about: .repository("octocat/app"))
        else { Issue.record("expected a page"); return }
        #expect(first.issues.count == 100 && first.nextURL != nil)
        guard case .modified(let second, _) = try api.issuePage(try #require(first.nextURL), ifNoneMatch: nil,
                                                                about: .repository("octocat/app"))
        else { Issue.record("expected a page"); return }
        #expect(second.issues.count == 51 && second.nextURL == nil)
        #expect((first.issues + second.issues).filter(\.isPullRequest).map(\.title) == ["a pull request"])

        github.resetCounters()
        let again = api.issuePages([(url: url, etag: etag, resource: .repository("octocat/app"))])
        #expect(again.count == 1)
        if case .success(.notModified) = again[0] {} else { Issue.record("expected 304, got \(again[0])") }
        #expect(github.rateLimitUsed == 0)
    }

    @Test func issuesOpenedByTheUserSinceATime() throws {
        let github = try world()
        github.activity.setClock(1_800_000_000)
        github.activity.addIssue(repository: 1, title: "old mine", author: github.login)
        github.activity.setClock(1_800_000_100)
        github.activity.addIssue(repository: 1, title: "theirs", author: "someone")
        github.activity.addIssue(repository: 1, title: "new mine", author: github.login)
        let found = try client(github).issuesOpened(owner: "octocat", name: "app", by: github.login,
                                                    since: "2027-01-15T08:01:40Z")
        #expect(found.map(\.title) == ["new mine"])
    }

    @Test func branchesComparisonsAndCommitLists() throws {
        let github = try world()
        let api = try client(github)
        let branch = api.branchURL(owner: "octocat", name: "app", branch: "master")
        let start = try #require(github.activity.head(repository: 1))
        let read = try #require(try api.branchHeads([(url: branch, etag: nil, resource: .repository("octocat/app"))]).first?.get())
        guard case .modified(let head, let etag) = read.head else { Issue.record("expected the branch"); return }
        #expect(head == start && read.date != nil, "with GitHub's time of the answer")
        github.resetCounters()
        let again = try #require(try api.branchHeads([(url: branch, etag: etag, resource: .repository("octocat/app"))]).first?.get())
        guard case .notModified = again.head else { Issue.record("expected 304"); return }
        #expect(github.rateLimitUsed == 0 && again.date != nil)

        let pushed = github.pushCommits(repository: 1, messages: (1...120).map { "commit \($0)" })
        let comparison = try api.compare(owner: "octocat", name: "app", base: start, head: try #require(pushed.last))
        #expect(comparison.status == "ahead")
        #expect(comparison.commits.map(\.message) == (1...120).map { "commit \($0)" }, "every page, oldest first")

        let recent = try api.recentCommits(owner: "octocat", name: "app", from: try #require(pushed.last), limit: 3)
        #expect(recent.map(\.message) == ["commit 120", "commit 119", "commit 118"])
        #expect(recent.allSatisfy { $0.committedAt != nil }, "when each was committed")

        let rewritten = github.forcePushCommits(repository: 1, dropping: 2, messages: ["rewritten"])
        let diverged = try api.compare(owner: "octocat", name: "app", base: try #require(pushed.last),
                                       head: try #require(rewritten.last))
        #expect(diverged.status == "diverged" && diverged.commits.map(\.message) == ["rewritten"])
        github.forcePushCommits(repository: 1, dropping: 1, messages: ["again"], forget: true)
        #expect(throws: GitHubError.self) {
            try api.compare(owner: "octocat", name: "app", base: try #require(rewritten.last),
                            head: try #require(github.activity.head(repository: 1)))
        }
        let slashed = api.branchURL(owner: "octocat", name: "app", branch: "feature/ä b")
        #expect(slashed.hasSuffix("/branches/feature/%C3%A4%20b"))
    }

    @Test func aCreationWhoseAnswerIsLostSaysSoAndTheIssueExists() throws {
        let github = try world()
        github.activity.failNext("POST", pathSuffix: "/issues", with: .dropAfterProcessing)
        #expect(throws: GitHubError.self) {
            try client(github).createIssue(owner: "octocat", name: "app", title: "Once", body: "", labels: [])
        }
        #expect(github.activity.issues(repository: 1).map(\.title) == ["Once"])
        #expect(github.requests.filter { $0.method == "POST" }.count == 1, "a POST is not repeated")

        // Its answer held until the request has given up.
        let hold = AnswerHold()
        defer { hold.releaseAnswer() }
        github.activity.failNext("POST", pathSuffix: "/issues", with: .holdAfterProcessing(hold))
        #expect(throws: GitHubError.outcomeUnknown(request: "POST /repos/octocat/app/issues", reason: "it timed out")) {
            try client(github, timeouts: GitHubClientTests.shortTimeouts)
                .createIssue(owner: "octocat", name: "app", title: "Twice?", body: "", labels: [])
        }
        #expect(github.activity.issues(repository: 1).map(\.title) == ["Once", "Twice?"])
        #expect(github.requests.filter { $0.method == "POST" }.count == 2)
    }

    /// Adding labels the issue has already changes nothing: after a 502 or a lost answer they are
    /// added again. An empty list is never sent (GitHub would remove every label).
    @Test func addingLabelsIsRepeatedAfterA502OrALostAnswer() throws {
        let github = try world()
        guard case .array(let listed)? = Fixtures.json("issue-created.json")["labels"], let bug = listed.first else {
            Issue.record("the fixture has no label")
            return
        }
        let todo = bug.replacing(["id": .int(208045947), "name": .string("todo"), "default": .bool(false)])
        let posts = Counter()
        github.script { request in
            guard request.method == "POST", request.path == "/repos/octocat/app/issues/7/labels" else { return nil }
            switch posts.next() {
            case 1: return .json(502, #"{"message":"Server Error"}"#)
            case 2: return ServerResponse(status: 200).hangingUp()
            default: return .json(200, JSONWriter.write(.array([bug, todo])))
            }
        }
        #expect(try client(github).addLabels(owner: "octocat", name: "app", number: 7, labels: ["todo"]) == ["bug", "todo"])
        let sent = github.requests.filter { $0.method == "POST" }
        #expect(sent.count == 3)
        #expect(sent.allSatisfy { (try? JSONParser.parse($0.body)) == .object([JSONMember("labels", .array([.string("todo")]))]) })

        github.resetCounters()
        #expect(try client(github).addLabels(owner: "octocat", name: "app", number: 7, labels: []) == nil)
        #expect(github.requests.isEmpty)
    }

    /// libcurl sends a request again, unasked, when a reused connection closes before any answer:
    /// a POST after a GET on one client goes on a connection of its own, and is sent once.
    @Test func aCreationAfterAReadOnTheSameConnectionIsNotSentTwice() throws {
        let github = try world()
        let api = try client(github)
        _ = try api.currentUser()
        github.activity.failNext("POST", pathSuffix: "/issues", with: .dropAfterProcessing)
        #expect(throws: GitHubError.self) {
            try api.createIssue(owner: "octocat", name: "app", title: "Once", body: "", labels: [])
        }
        #expect(github.activity.issues(repository: 1).map(\.title) == ["Once"])
        #expect(github.requests.filter { $0.method == "POST" }.count == 1, "a POST is not repeated")
    }
}

@Suite struct IssueReferenceTests {
    @Test func everyFormOfAnIssue() {
        #expect(IssueReference.parse("12") == IssueReference(number: 12))
        #expect(IssueReference.parse("#12") == IssueReference(number: 12))
        #expect(IssueReference.parse("octocat/app#12") == IssueReference(owner: "octocat", name: "app", number: 12))
        #expect(IssueReference.parse("https://github.com/octocat/app/issues/12")
                == IssueReference(owner: "octocat", name: "app", number: 12))
        #expect(IssueReference.parse("https://github.com/octocat/app/issues/12#issuecomment-1")
                == IssueReference(owner: "octocat", name: "app", number: 12))
        #expect(IssueReference.parse("https://github.com/octocat/app/pull/7")
                == IssueReference(owner: "octocat", name: "app", number: 7, isPullRequest: true))
        #expect(IssueReference.parse("https://ghe.example.com/octocat/app/issues/3", hosts: ["github.com", "ghe.example.com"])?.number == 3)
        for bad in ["", "#", "0", "-3", "+3", "twelve", "#1x", "octocat/app#", "octocat/app", "a/b/c#1",
                    "https://example.com/octocat/app/issues/1", "https://github.com/octocat/app/wiki/1",
                    "https://github.com/octocat/app/issues/", "99999999999999999999", "１２"] {
            #expect(IssueReference.parse(bad) == nil, "\(bad)")
        }
    }
}
