import DoogitGitHub
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
        #expect(GitCheckout.remotes(from: plain).isEmpty)
        #expect(GitCheckout.repository(from: plain, hosts: ["github.com"]) == nil)
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
        #expect(names(GitCheckout.remotes(from: sub)) == ["upstream", "origin", "gitlab"])
        #expect(GitCheckout.repository(from: sub, hosts: ["github.com"]) == .full(owner: "octocat", name: "Hello-World"))
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
        #expect(GitCheckout.repository(from: lib, hosts: ["github.com"]) == .full(owner: "acme", name: "lib"))
    }

    // MARK: repository

    @Test func originIsPreferredWhereverItStands() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", Self.config)
        let checkout = harness.directory.path + "/checkout"
        #expect(GitCheckout.repository(from: checkout, hosts: ["github.com"]) == .full(owner: "octocat", name: "Hello-World"))
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
        #expect(GitCheckout.repository(from: checkout, hosts: ["github.com"]) == .full(owner: "me", name: "project"))
    }

    @Test func noGitHubRemoteAtAll() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", """
            [remote "origin"]
            \turl = https://gitlab.com/me/project.git
            """)
        #expect(GitCheckout.repository(from: harness.directory.path + "/checkout", hosts: ["github.com"]) == nil)
    }

    @Test func anEnterpriseHostCountsWhenGiven() throws {
        let harness = CLIHarness()
        try harness.writeFile("checkout/.git/config", """
            [remote "origin"]
            \turl = https://ghe.example.com/team/tool.git
            """)
        let checkout = harness.directory.path + "/checkout"
        #expect(GitCheckout.repository(from: checkout, hosts: ["github.com"]) == nil)
        #expect(GitCheckout.repository(from: checkout, hosts: ["github.com", "ghe.example.com"]) == .full(owner: "team", name: "tool"))
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
