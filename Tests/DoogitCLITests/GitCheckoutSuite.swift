import DoogitStore
@testable import DoogitCLI

/// What the suites on git checkouts share: a config with remotes of every kind, checkouts made
/// from remotes, and a harness that tracks two of their repositories.
protocol GitCheckoutSuite {}

extension GitCheckoutSuite {
    static var config: String {
        """
        [core]
        \trepositoryformatversion = 0
        \tbare = false
        [remote "upstream"]
        \turl = git@github.com:upstream-org/project.git
        \tfetch = +refs/heads/*:refs/remotes/upstream/*
        # a comment
        ; another comment
        [remote "origin"]
        \turl = https://github.com/octocat/Hello-World.git
        \tfetch = +refs/heads/*:refs/remotes/origin/*
        [branch "main"]
        \tremote = origin
        \turl = https://github.com/not/a-remote
        [remote "gitlab"]
        \tURL = "https://gitlab.com/group/project.git"

        """
    }

    /// A checkout with `remotes` (name, url) and `extra` config text, in a harness whose HOME is
    /// `harness.home`; returns the checkout's path.
    func makeCheckout(_ harness: CLIHarness, remotes: [(String, String)], extra: String = "") throws -> String {
        let sections = remotes.map { "[remote \"\($0.0)\"]\n\turl = \($0.1)\n" }.joined()
        try harness.writeFile("checkout/.git/config", sections + extra)
        return harness.directory.path + "/checkout"
    }

    func trackedHarness(_ environment: [String: String] = [:]) throws -> CLIHarness {
        let harness = CLIHarness(environment: environment)
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld, Fixture.repository(id: 5, owner: "acme", name: "widgets", description: nil)])
        try harness.writeFile("checkout/.git/config", Self.config)
        try harness.makeDirectory("checkout/docs")
        return harness
    }

    func todos(_ harness: CLIHarness) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for section in try harness.openStore().sections() { result[section.repository.fullName] = section.todos.map(\.text) }
        return result
    }
}
