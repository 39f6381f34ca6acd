import DoogitGitHub
import DoogitStore
import Testing
@testable import DoogitCLI

@Suite struct GitCheckoutTests {
    static let config = """
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

    func checkout(hosts: Set<String> = ["github.com"], home: String? = nil) -> GitCheckout {
        GitCheckout(environment: home.map { ["HOME": $0] } ?? [:], hosts: hosts)
    }

    func repository(_ directory: String, hosts: Set<String>) -> RepositoryReference? {
        checkout(hosts: hosts).repositories(from: directory).first
    }

    func names(_ remotes: [(name: String, url: String)]) -> [String] { remotes.map(\.name) }
    func urls(_ remotes: [(name: String, url: String)]) -> [String] { remotes.map(\.url) }

    // MARK: parseRemotes

    @Test func remotesInConfigOrder() {
        let remotes = GitCheckout.parseRemotes(Self.config)
        #expect(names(remotes) == ["upstream", "origin", "gitlab"])
        #expect(urls(remotes) == ["git@github.com:upstream-org/project.git", "https://github.com/octocat/Hello-World.git",
                                  "https://gitlab.com/group/project.git"])
    }

    @Test func windowsLineEndings() {
        let remotes = GitCheckout.parseRemotes("[remote \"origin\"]\r\n\turl = https://github.com/a/b\r\n")
        #expect(names(remotes) == ["origin"])
        #expect(urls(remotes) == ["https://github.com/a/b"])
    }

    @Test func theFirstURLOfARemoteCounts() {
        let remotes = GitCheckout.parseRemotes("""
            [remote "origin"]
                url = https://github.com/first/one
                url = https://github.com/second/one
            """)
        #expect(urls(remotes) == ["https://github.com/first/one"])
    }

    @Test func urlsOutsideRemoteSectionsAreIgnored() {
        let remotes = GitCheckout.parseRemotes("""
            url = https://github.com/top/level
            [url "https://github.com/"]
                insteadOf = gh:
            [branch "main"]
                url = https://github.com/x/y
            """)
        #expect(remotes.isEmpty)
    }

    @Test func emptyOrGarbageConfig() {
        #expect(GitCheckout.parseRemotes("").isEmpty)
        #expect(GitCheckout.parseRemotes("[remote \"origin\"\nurl").isEmpty)
        #expect(GitCheckout.parseRemotes("[remote]\nurl = https://github.com/a/b").isEmpty)
    }

    // MARK: findGitDirectory and remotes

    @Test func gitFolderFoundFromASubfolder() throws {
        let harness = CLIHarness()
        let gitDirectory = try harness.makeDirectory("checkout/.git")
        let deep = try harness.makeDirectory("checkout/src/deeply/nested")
        #expect(GitCheckout.findGitDirectory(from: deep) == gitDirectory)
        #expect(GitCheckout.findGitDirectory(from: harness.directory.path + "/checkout") == gitDirectory)
    }

    @Test func theNearestCheckoutWins() throws {
        let harness = CLIHarness()
        try harness.makeDirectory("outer/.git")
        let inner = try harness.makeDirectory("outer/vendor/inner/.git")
        #expect(GitCheckout.findGitDirectory(from: harness.directory.path + "/outer/vendor/inner") == inner)
        #expect(GitCheckout.findGitDirectory(from: harness.directory.path + "/outer/vendor") == harness.directory.path + "/outer/.git")
        let lib = try harness.makeDirectory("outer/vendor/inner/lib")
        #expect(GitCheckout.findGitDirectory(from: lib) == inner)
    }

    @Test func noCheckoutAnywhere() throws {
        let harness = CLIHarness()
        let plain = try harness.makeDirectory("not/a/checkout")
        #expect(GitCheckout.findGitDirectory(from: plain) == nil)
        #expect(repository(plain, hosts: ["github.com"]) == nil)
    }

    @Test func aGitFileWithAnAbsoluteGitdir() throws {
        let harness = CLIHarness()
        let real = try harness.makeDirectory("elsewhere/real.git")
        try harness.writeFile("worktree/.git", "gitdir: \(real)\n")
        let sub = try harness.makeDirectory("worktree/sub")
        #expect(GitCheckout.findGitDirectory(from: sub) == real)
    }

    @Test func aGitFileThatIsNotAGitdirIsSkipped() throws {
        let harness = CLIHarness()
        let outer = try harness.makeDirectory("outer/.git")
        try harness.writeFile("outer/inner/.git", "not a gitdir line\n")
        let sub = try harness.makeDirectory("outer/inner/sub")
        #expect(GitCheckout.findGitDirectory(from: sub) == outer)
    }

    @Test func aWorktreeReadsTheConfigOfTheMainCheckout() throws {
        let harness = CLIHarness()
        try harness.writeFile("main/.git/config", Self.config)
        let worktreeGit = try harness.makeDirectory("main/.git/worktrees/feature")
        try harness.writeFile("main/.git/worktrees/feature/commondir", "../..\n")
        try harness.writeFile("feature/.git", "gitdir: \(worktreeGit)\n")
        let sub = try harness.makeDirectory("feature/Sources")
        #expect(GitCheckout.findGitDirectory(from: sub) == worktreeGit)
        #expect(checkout().repositories(from: sub) == [.full(owner: "octocat", name: "Hello-World"),
                                                      .full(owner: "upstream-org", name: "project")])
    }

    @Test func aSubmoduleWithARelativeGitdir() throws {
        let harness = CLIHarness()
        try harness.makeDirectory("super/.git")
        try harness.writeFile("super/.git/modules/lib/config", """
            [remote "origin"]
            \turl = https://github.com/acme/lib.git
            """)
        try harness.writeFile("super/lib/.git", "gitdir: ../.git/modules/lib\n")
        let lib = harness.directory.path + "/super/lib"
        #expect(GitCheckout.findGitDirectory(from: lib) == lib + "/../.git/modules/lib")
        #expect(repository(lib, hosts: ["github.com"]) == .full(owner: "acme", name: "lib"))
    }

    // MARK: repository

    @Test func originIsPreferredWhereverItStands() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", Self.config)
        let checkout = harness.directory.path + "/checkout"
        #expect(repository(checkout, hosts: ["github.com"]) == .full(owner: "octocat", name: "Hello-World"))
    }

    @Test func nonGitHubRemotesAreSkipped() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", """
            [remote "origin"]
            \turl = https://gitlab.com/me/project.git
            [remote "mirror"]
            \turl = ssh://git@bitbucket.org/me/project.git
            [remote "github"]
            \turl = git@github.com:me/project.git
            """)
        let checkout = harness.directory.path + "/checkout"
        #expect(repository(checkout, hosts: ["github.com"]) == .full(owner: "me", name: "project"))
    }

    @Test func noGitHubRemoteAtAll() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", """
            [remote "origin"]
            \turl = https://gitlab.com/me/project.git
            """)
        #expect(repository(harness.directory.path + "/checkout", hosts: ["github.com"]) == nil)
    }

    @Test func anEnterpriseHostCountsWhenGiven() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", """
            [remote "origin"]
            \turl = https://ghe.example.com/team/tool.git
            """)
        let checkout = harness.directory.path + "/checkout"
        #expect(repository(checkout, hosts: ["github.com"]) == nil)
        #expect(repository(checkout, hosts: ["github.com", "ghe.example.com"]) == .full(owner: "team", name: "tool"))
    }

    // MARK: As git and ssh resolve a remote

    /// A checkout with `remotes` (name, url) and `extra` config text, in a harness whose HOME is
    /// `harness.home`; returns the checkout's path.
    func makeCheckout(_ harness: CLIHarness, remotes: [(String, String)], extra: String = "") throws -> String {
        let sections = remotes.map { "[remote \"\($0.0)\"]\n\turl = \($0.1)\n" }.joined()
        try harness.writeFile("checkout/.git/config", sections + extra)
        return harness.directory.path + "/checkout"
    }

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

    // MARK: A fork's checkout

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

    // MARK: In-process: todo add picks the repository

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
