import DoogitGitHub
import DoogitStore
import Testing
@testable import DoogitCLI

/// A git checkout as doogit reads it: the remotes of its config, the checkout found from a folder
/// inside it (worktrees and submodules too), and the GitHub repository it stands for.
@Suite struct GitCheckoutTests: GitCheckoutSuite {
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
}
