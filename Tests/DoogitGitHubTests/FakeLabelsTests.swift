@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The fake GitHub's labels, as GitHub's REST API has them: the repository's labels (names
/// unique without case), an issue's labels taken from them, the labels endpoints of an issue,
/// and another user's relabel between a read and a write. Through the client, on 127.0.0.1.
@Suite(.serialized)
struct FakeLabelsTests {
    static let issuePath = "/repos/octocat/app/issues/1"
    static let about = GitHubResource.issue(repository: "octocat/app", number: 1)

    func world() throws -> (FakeGitHub, GitHubClient) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: nil)
        github.activity.setClock(1_900_000_000)
        github.activity.addLabel(repository: 1, name: "bug", color: "d73a4a", description: "Something isn't working",
                                 isDefault: true)
        let client = GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token,
                                                       userAgent: "doogit-tests", retry: GitHubClientTests.quickRetries,
                                                       timeouts: GitHubClientTests.patientTimeouts),
                                  transport: CurlTransport())
        return (github, client)
    }

    func names(_ labels: JSONValue) -> [String] {
        guard case .array(let items) = labels else { return [] }
        return items.compactMap { if case .string(let name)? = $0["name"] { name } else { nil } }
    }

    func labels(_ github: FakeGitHub) -> [String] { github.activity.issue(repository: 1, number: 1)?.labels ?? [] }

    func keys(_ value: JSONValue?) -> [String] {
        guard case .object(let members)? = value else { return [] }
        return members.map(\.key)
    }

    @Test func aLabelNamedInAnotherCaseIsTheRepositorysAndANewOneIsMade() throws {
        let (github, api) = try world()
        let created = try api.createIssue(owner: "octocat", name: "app", title: "crash", body: "", labels: ["BUG", "good first issue"])
        #expect(created.labels == ["bug", "good first issue"], "the existing label keeps its spelling")
        #expect(github.activity.labels(repository: 1).map(\.name) == ["bug", "good first issue"], "one bug, in any case")

        // Each label has the shape of the spec's label objects, with the repository's values.
        let read = try api.parse(try api.get(Self.issuePath))
        guard case .array(let objects)? = read["labels"], objects.count == 2 else {
            Issue.record("two labels expected: \(read["labels"] ?? .null)")
            return
        }
        guard case .array(let fixtureIssues) = Fixtures.json("issues-list.json"),
              case .array(let fixtureLabels)? = fixtureIssues.first?["labels"] else { throw JSONError.missing(field: "labels") }
        #expect(keys(objects[0]) == keys(fixtureLabels.first) && keys(objects[1]) == keys(fixtureLabels.first))
        #expect(objects[0]["color"] == .string("d73a4a") && objects[0]["default"] == .bool(true)
                && objects[0]["description"] == .string("Something isn't working"))
        #expect(objects[1]["color"] == .string("ededed") && objects[1]["default"] == .bool(false)
                && objects[1]["description"] == .null, "made by naming it: grey, no description")
        #expect(objects[1]["url"] == .string("\(github.apiURL)/repos/octocat/app/labels/good%20first%20issue"))
        #expect(objects[0]["id"] != objects[1]["id"])

        // An update replaces them, through the same repository labels.
        let updated = try api.updateIssue(owner: "octocat", name: "app", number: 1, title: nil, state: nil,
                                          labels: ["Good First Issue", "Docs", "docs"])
        #expect(updated.labels == ["good first issue", "Docs"])
        #expect(github.activity.labels(repository: 1).map(\.name) == ["bug", "good first issue", "Docs"])
        // Someone on GitHub naming one in another case gets it too.
        github.activity.updateIssue(repository: 1, number: 1) { $0.labels.append("BUG") }
        #expect(labels(github) == ["good first issue", "Docs", "bug"])
    }

    @Test func addingLabelsKeepsTheOthersAndSettingReplacesThem() throws {
        let (github, api) = try world()
        github.activity.addIssue(repository: 1, title: "crash", labels: ["bug"])
        let added = try api.post(Self.issuePath + "/labels", .object([JSONMember("labels", .array([.string("ci"), .string("BUG")]))]),
                                 about: Self.about)
        #expect(names(added) == ["bug", "ci"], "the issue's labels, all of them")
        #expect(github.activity.labelWrites(repository: 1, method: "POST") == [1])

        // The other forms GitHub takes: the list itself, a single name, objects with a name.
        _ = try api.post(Self.issuePath + "/labels", .array([.string("docs")]), about: Self.about)
        _ = try api.post(Self.issuePath + "/labels", .string("release"), about: Self.about)
        #expect(labels(github) == ["bug", "ci", "docs", "release"])
        let set = try api.put(Self.issuePath + "/labels",
                              .object([JSONMember("labels", .array([.object([JSONMember("name", .string("CI"))])]))]),
                              about: Self.about)
        #expect(names(set) == ["ci"] && labels(github) == ["ci"])
        #expect(throws: GitHubError.self, "not a name") { try api.put(Self.issuePath + "/labels", .array([.int(3)]), about: Self.about) }
        #expect(labels(github) == ["ci"])

        // Adding an empty list removes every label, as GitHub documents.
        #expect(names(try api.post(Self.issuePath + "/labels", .object([JSONMember("labels", .array([]))]), about: Self.about)) == [])
        #expect(labels(github).isEmpty)
        #expect(github.activity.labels(repository: 1).map(\.name) == ["bug", "ci", "docs", "release"], "the repository keeps them")
        let listed = try api.parse(try api.get(Self.issuePath + "/labels"))
        #expect(names(listed) == [])
    }

    @Test func aLabelIsRemovedByItsExactNameAndAnotherIsNotFound() throws {
        let (github, api) = try world()
        github.activity.addIssue(repository: 1, title: "crash", labels: ["bug", "good first issue", "ci"])
        let remaining = try api.delete(Self.issuePath + "/labels/good%20first%20issue", about: Self.about)
        #expect(names(remaining) == ["bug", "ci"], "the labels left")
        #expect(labels(github) == ["bug", "ci"])

        let notFound = GitHubError.notFound(Self.about, message: "Label does not exist")
        #expect(throws: notFound, "named in another case") { try api.delete(Self.issuePath + "/labels/BUG", about: Self.about) }
        #expect(throws: notFound, "not on the issue") { try api.delete(Self.issuePath + "/labels/docs", about: Self.about) }
        #expect(labels(github) == ["bug", "ci"])
        #expect(github.activity.labelWrites(repository: 1, method: "DELETE") == [1])

        #expect(try api.delete(Self.issuePath + "/labels", about: Self.about) == .null, "204: every label removed")
        #expect(labels(github).isEmpty)
        #expect(throws: GitHubError.notFound(.issue(repository: "octocat/app", number: 9), message: "Not Found")) {
            try api.delete("/repos/octocat/app/issues/9/labels/bug", about: .issue(repository: "octocat/app", number: 9))
        }
    }

    @Test func aChangeOfLabelsMovesTheIssuesUpdateAndItsListingsETag() throws {
        let (github, api) = try world()
        github.activity.addIssue(repository: 1, title: "crash", labels: ["bug"])
        let url = api.issueListingURL(owner: "octocat", name: "app", since: nil)
        guard case .modified(_, let etag) = try api.issuePage(url, ifNoneMatch: nil, about: .repository("octocat/app"))
        else { throw GitHubError.unexpectedResponse("a first read") }
        #expect(try api.issuePage(url, ifNoneMatch: etag, about: .repository("octocat/app")) == .notModified)

        // Adding a label it has changes nothing.
        _ = try api.post(Self.issuePath + "/labels", .array([.string("Bug")]), about: Self.about)
        #expect(try api.issuePage(url, ifNoneMatch: etag, about: .repository("octocat/app")) == .notModified)
        #expect(github.activity.labelWrites(repository: 1, method: "POST").isEmpty)

        github.activity.setClock(1_900_000_060)
        _ = try api.delete(Self.issuePath + "/labels/bug", about: Self.about)
        guard case .modified(let page, let newTag) = try api.issuePage(url, ifNoneMatch: etag, about: .repository("octocat/app"))
        else { Issue.record("the listing should have changed"); return }
        #expect(newTag != etag && page.issues.first?.labels == [] && page.issues.first?.updatedAt == "2030-03-17T17:47:40Z")
    }

    @Test func aRepositorysLabelsAreListedAndANameIsTakenInAnyCase() throws {
        let (github, api) = try world()
        let made = try api.post("/repos/octocat/app/labels", .object([JSONMember("name", .string("needs triage")),
                                                                      JSONMember("color", .string("C5DEF5"))]),
                                about: .repository("octocat/app"))
        #expect(made["name"] == .string("needs triage") && made["color"] == .string("c5def5") && made["default"] == .bool(false))
        #expect(throws: GitHubError.validationFailed(message: "Validation Failed: name already_exists"), "bug exists") {
            try api.post("/repos/octocat/app/labels", .object([JSONMember("name", .string("Bug")), JSONMember("color", .string("000000"))]),
                         about: .repository("octocat/app"))
        }
        #expect(github.activity.labels(repository: 1).map(\.name) == ["bug", "needs triage"])
        for index in 0..<40 { github.activity.addLabel(repository: 1, name: "area \(index)") }
        let first = try api.get("/repos/octocat/app/labels?per_page=30")
        let firstNames = names(try api.parse(first))
        #expect(firstNames.prefix(2) == ["bug", "needs triage"] && firstNames.count == 30)
        let next = try #require(first.header("link").flatMap { LinkHeader.url(for: "next", in: $0) })
        #expect(names(try api.parse(try api.get(next))).count == 12)
    }

    /// Someone else's change between doogit's read and its write: the relabel comes right after
    /// the read, so the read shows the labels before it.
    @Test func anotherUserRelabelsTheIssueRightAfterTheNextRead() throws {
        let (github, api) = try world()
        github.activity.addIssue(repository: 1, title: "crash", labels: ["bug", "ci"])
        github.activity.relabelAfterNextRead(repository: 1, number: 1, adding: ["urgent"], removing: ["CI"])
        #expect(try api.issue(owner: "octocat", name: "app", number: 1).labels == ["bug", "ci"], "the read sees them as they were")
        #expect(labels(github) == ["bug", "urgent"], "then they change")
        #expect(try api.issue(owner: "octocat", name: "app", number: 1).labels == ["bug", "urgent"], "once")

        // After a listing's read too; a write of the whole set read drops their label, one of
        // changes does not.
        github.activity.relabelAfterNextRead(repository: 1, number: 1, adding: ["later"])
        let url = api.issueListingURL(owner: "octocat", name: "app", since: nil)
        guard case .modified(let page, _) = try api.issuePage(url, ifNoneMatch: nil, about: .repository("octocat/app"))
        else { throw GitHubError.unexpectedResponse("a first read") }
        #expect(page.issues.first?.labels == ["bug", "urgent"])
        _ = try api.post(Self.issuePath + "/labels", .array([.string("mine")]), about: Self.about)
        #expect(labels(github) == ["bug", "urgent", "later", "mine"])
        _ = try api.updateIssue(owner: "octocat", name: "app", number: 1, title: nil, state: nil,
                                labels: (page.issues.first?.labels ?? []) + ["mine"])
        #expect(labels(github) == ["bug", "urgent", "mine"], "the whole set as read removes theirs")
    }
}
