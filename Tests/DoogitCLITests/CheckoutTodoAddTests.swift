import DoogitGitHub
import DoogitStore
import Testing
@testable import DoogitCLI

/// `todo add` in a checkout, in-process: the repository it picks (a fork's tracked upstream, the
/// origin, GH_REPO, -R), and what it says when it cannot.
@Suite struct CheckoutTodoAddTests: GitCheckoutSuite {
    func forkHarness(tracked: [RepositoryRecord]) throws -> (harness: CLIHarness, checkout: String) {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories(tracked)
        let checkout = try makeCheckout(harness, remotes: [("origin", "git@github.com:me/widgets.git"),
                                                           ("upstream", "https://github.com/acme/widgets.git")])
        return (harness, checkout)
    }

    static let upstream = Fixture.repository(id: 5, owner: "acme", name: "widgets", description: nil)
    static let fork = Fixture.repository(id: 6, owner: "me", name: "widgets", description: nil)

    @Test func aForkCheckoutUsesTheTrackedUpstream() throws {
        let (harness, checkout) = try forkHarness(tracked: [Self.upstream])
        let result = harness.run(["todo", "add", "x"], currentDirectory: checkout)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try todos(harness) == ["acme/widgets": ["x"]])
    }

    @Test func aTrackedOriginWinsOverATrackedUpstream() throws {
        let (harness, checkout) = try forkHarness(tracked: [Self.upstream, Self.fork])
        #expect(harness.run(["todo", "add", "x"], currentDirectory: checkout).code == 0)
        #expect(try todos(harness) == ["me/widgets": ["x"]])
    }

    @Test func withNothingTrackedTheAdviceNamesOrigin() throws {
        let (harness, checkout) = try forkHarness(tracked: [])
        let result = harness.run(["todo", "add", "x"], currentDirectory: checkout)
        #expect(result.code == 1)
        #expect(result.errorLines == ["doogit: error: repository 'me/widgets' is not tracked; run 'doogit repo add me/widgets' first"])
    }

    @Test func todoAddUsesTheCheckoutsOrigin() throws {
        let harness = try trackedHarness()
        let result = harness.run(["todo", "add", "write", "docs"], currentDirectory: harness.directory.path + "/checkout/docs")
        #expect(result.code == 0)
        #expect(result.stdout == "Added 1 to octocat/Hello-World\n")
        #expect(result.stderr.isEmpty)
        #expect(try todos(harness) == ["octocat/Hello-World": ["write docs"]])
        #expect(harness.transportsMade == 0)
    }

    @Test func ghRepoComesBeforeTheCheckout() throws {
        let harness = try trackedHarness(["GH_REPO": "acme/widgets"])
        let result = harness.run(["todo", "add", "x"], currentDirectory: harness.directory.path + "/checkout")
        #expect(result.code == 0)
        #expect(try todos(harness) == ["acme/widgets": ["x"]])
    }

    @Test func repoOptionComesBeforeGHRepo() throws {
        let harness = try trackedHarness(["GH_REPO": "acme/widgets"])
        let result = harness.run(["todo", "add", "-R", "Hello-World", "y"], currentDirectory: harness.directory.path + "/checkout")
        #expect(result.code == 0)
        #expect(try todos(harness) == ["octocat/Hello-World": ["y"]])
    }

    @Test func aCheckoutOfAnUntrackedRepositoryIsExitOneNamingTheAddCommand() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", "[remote \"origin\"]\n\turl = git@github.com:someone/else.git\n")
        let result = harness.run(["todo", "add", "x"], currentDirectory: harness.directory.path + "/checkout")
        #expect(result.code == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains("doogit repo add someone/else"))
    }

    @Test func outsideACheckoutWithoutRepoIsAUsageError() throws {
        let harness = CLIHarness()
        let result = harness.run(["todo", "add", "x"], currentDirectory: try harness.makeDirectory("plain"))
        expectUsageError(result, topic: "todo add")
        #expect(result.stderr.contains("-R OWNER/NAME"))
    }

    @Test func aTodoStartingWithADashAfterDoubleDash() throws {
        let harness = try trackedHarness()
        let result = harness.run(["todo", "add", "-R", "octocat/Hello-World", "--", "-v", "is", "not", "verbose"])
        #expect(result.code == 0)
        #expect(try todos(harness) == ["octocat/Hello-World": ["-v is not verbose"]])
        let negative = harness.run(["todo", "add", "-R", "octocat/Hello-World", "-40", "degrees"])
        #expect(negative.code == 0)
        #expect(try todos(harness) == ["octocat/Hello-World": ["-v is not verbose", "-40 degrees"]])
    }
}
