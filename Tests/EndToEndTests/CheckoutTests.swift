import Foundation
import Testing
import TestSupport

/// The built binary finds the repository of a checkout as git and ssh would.
@Suite(.serialized) struct CheckoutTests {
    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A fork reached through an SSH alias as origin, the tracked repository through an
    /// insteadOf shorthand as upstream: the todo goes to the tracked one.
    @Test func aForkCheckoutWithAnAliasAndAShorthand() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo")
        #expect(sandbox.run("repo", "add", "octocat/repo").status == 0)
        let home = sandbox.home.path
        try write("Host github-work\n    HostName github.com\n", to: home + "/.ssh/config")
        try write("[url \"https://github.com/\"]\n\tinsteadOf = gh:\n", to: home + "/.gitconfig")
        try write("""
            [remote "origin"]
            \turl = git@github-work:someone/repo-fork.git
            [remote "upstream"]
            \turl = gh:octocat/repo
            """, to: home + "/work/checkout/.git/config")
        let added = sandbox.run(["todo", "add", "from", "the", "fork"], directory: home + "/work/checkout")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Added 1 to octocat/repo\n")

        let hostForm = sandbox.run(["todo", "add", "-R", "github.com/octocat/repo", "host form"])
        #expect(hostForm.status == 0, "\(hostForm.stderr)")
    }
}
