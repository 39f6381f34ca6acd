import DoogitGitHub
import DoogitStore
import Testing
@testable import DoogitCLI

/// A checkout's remotes resolved as git and ssh resolve them: url.insteadOf, SSH host aliases,
/// GitHub's SSH host on port 443, and which remote comes first.
@Suite struct GitRemoteResolutionTests: GitCheckoutSuite {
    func found(_ harness: CLIHarness, _ checkout: String, hosts: Set<String> = ["github.com"],
               environment: [String: String]? = nil) -> [RepositoryReference] {
        GitCheckout(environment: environment ?? ["HOME": harness.home], hosts: hosts).repositories(from: checkout)
    }

    static let alpha = RepositoryReference.full(owner: "octo", name: "alpha")

    @Test func insteadOfInTheRepositoryConfigRewritesTheRemote() throws {
        let harness = CLIHarness()
        let checkout = try makeCheckout(harness, remotes: [("origin", "gh:octo/alpha")],
                                        extra: "[url \"git@github.com:\"]\n\tinsteadOf = gh:\n")
        #expect(found(harness, checkout) == [Self.alpha])
    }

    @Test func insteadOfFromTheUsersGitconfigAndXDGConfig() throws {
        let harness = CLIHarness()
        let checkout = try makeCheckout(harness, remotes: [("origin", "gh:octo/alpha"), ("other", "work:team/tool")])
        try harness.writeFile("home/.gitconfig", "[url \"https://github.com/\"]\n    insteadOf = gh:\n")
        try harness.writeFile("home/.config/git/config", "[url \"git@github.com:\"]\n    insteadOf = work:\n")
        #expect(found(harness, checkout) == [Self.alpha, .full(owner: "team", name: "tool")])
        // XDG_CONFIG_HOME moves the second file; HOME comes from the context, not the process.
        try harness.writeFile("xdg/git/config", "[url \"ssh://git@github.com/\"]\n    insteadOf = work:\n")
        #expect(found(harness, checkout, environment: ["HOME": harness.home, "XDG_CONFIG_HOME": harness.directory.path + "/xdg"])
            == [Self.alpha, .full(owner: "team", name: "tool")])
        #expect(found(harness, checkout, environment: ["HOME": harness.directory.path + "/elsewhere"]).isEmpty)
    }

    @Test func theLongestInsteadOfPrefixWins() throws {
        let harness = CLIHarness()
        let extra = """
            [url "https://gitlab.com/"]
            \tinsteadOf = gh:
            [url "https://github.com/octo/"]
            \tinsteadOf = gh:octo/
            [url "https://gitlab.com/x/"]
            \tinsteadOf = gh:o
            """
        let checkout = try makeCheckout(harness, remotes: [("origin", "gh:octo/alpha"), ("other", "gh:team/tool")], extra: extra)
        #expect(found(harness, checkout) == [Self.alpha])
        #expect(URLRewrites(configs: [GitConfig(extra)]).apply(to: "gh:team/tool") == "https://gitlab.com/team/tool")
    }

    @Test func pushInsteadOfDoesNotChangeWhereTheRepositoryIs() throws {
        let harness = CLIHarness()
        let checkout = try makeCheckout(harness, remotes: [("origin", "gh:octo/alpha")],
                                        extra: "[url \"git@github.com:\"]\n\tpushInsteadOf = gh:\n")
        #expect(found(harness, checkout).isEmpty)
    }

    @Test func anSSHHostAliasCountsAsTheHostItReaches() throws {
        let harness = CLIHarness()
        try harness.writeFile("home/.ssh/config", """
            # work account
            Host github-work
                HostName github.com
                User git
                IdentityFile ~/.ssh/work
            Host gh-* !gh-blocked
                HostName=github.com
            Host gitlab-alias
                HostName gitlab.com
            """)
        let checkout = try makeCheckout(harness, remotes: [
            ("origin", "git@github-work:octo/alpha.git"),
            ("glob", "ssh://git@gh-personal/me/beta.git"),
            ("negated", "git@gh-blocked:me/gamma.git"),
            ("gitlab", "git@gitlab-alias:me/delta.git"),
            ("web", "https://github-work/me/epsilon"),
            ("unknown", "git@nowhere:me/zeta.git"),
        ])
        #expect(found(harness, checkout) == [Self.alpha, .full(owner: "me", name: "beta")])
        #expect(found(harness, checkout, environment: [:]).isEmpty, "without HOME there is no SSH config")
    }

    @Test func githubsSSHHostOnPort443() throws {
        let harness = CLIHarness()
        let checkout = try makeCheckout(harness, remotes: [("origin", "ssh://git@ssh.github.com:443/octo/alpha.git"),
                                                           ("scp", "git@ssh.github.com:me/beta.git")])
        #expect(found(harness, checkout) == [Self.alpha, .full(owner: "me", name: "beta")])
        #expect(found(harness, checkout, hosts: ["ghe.example.com"]).isEmpty)
    }

    @Test func originThenUpstreamThenTheRest() throws {
        let harness = CLIHarness()
        let checkout = try makeCheckout(harness, remotes: [("mirror", "git@github.com:m/m.git"), ("upstream", "git@github.com:u/u.git"),
                                                           ("origin", "git@github.com:o/o.git")])
        #expect(found(harness, checkout).map(\.description) == ["o/o", "u/u", "m/m"])
    }

    @Test func hostOwnerNameIsAcceptedForKnownHosts() {
        #expect(RepositoryReference.parse("github.com/octo/alpha") == Self.alpha)
        #expect(RepositoryReference.parse("GitHub.com/octo/alpha") == Self.alpha)
        #expect(RepositoryReference.parse("ghe.example.com/octo/alpha", hosts: ["github.com", "ghe.example.com"]) == Self.alpha)
        #expect(RepositoryReference.parse("ghe.example.com/octo/alpha") == nil)
        #expect(RepositoryReference.parse("gitlab.com/octo/alpha") == nil)
        #expect(RepositoryReference.parse("github.com/octo/") == nil)
        #expect(RepositoryReference.acceptedForms.contains("github.com/OWNER/NAME"))
    }

    @Test func ghRepoMayNameTheHost() throws {
        let harness = try trackedHarness(["GH_REPO": "github.com/acme/widgets"])
        let result = harness.run(["todo", "add", "x"], currentDirectory: harness.directory.path + "/checkout")
        #expect(result.code == 0)
        #expect(try todos(harness) == ["acme/widgets": ["x"]])
    }
}
