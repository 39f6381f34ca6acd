import Foundation
import Testing
import TestSupport

/// A tracked repository stays reachable by every name it had, and `id:ID` names any tracked
/// repository, even two that share a name.
@Suite(.serialized)
struct RepositoryNamesEndToEndTests {
    /// A git checkout whose origin remote points at `fullName` on github.com.
    private func checkout(_ sandbox: Sandbox, _ fullName: String) throws -> String {
        let path = sandbox.home.file("src/" + fullName.replacingOccurrences(of: "/", with: "-"))
        try FileManager.default.createDirectory(atPath: path + "/.git", withIntermediateDirectories: true)
        try """
            [remote "origin"]
            \turl = https://github.com/\(fullName).git
            \tfetch = +refs/heads/*:refs/remotes/origin/*
            """.write(toFile: path + "/.git/config", atomically: true, encoding: .utf8)
        return path
    }

    @Test("after sync follows a rename, the old name works everywhere: checkout, -R OWNER/NAME, -R NAME, GH_REPO")
    func oldNameAfterRename() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 7, owner: "octo", name: "alpha")
        #expect(sandbox.run("repo", "add", "octo/alpha").status == 0)
        let directory = try checkout(sandbox, "octo/alpha")
        sandbox.github.rename(7, to: "alpha2")
        #expect(sandbox.run("sync").stdout.contains("octo/alpha: renamed to octo/alpha2"))

        let fromCheckout = sandbox.run(["todo", "add", "from the old checkout"], directory: directory)
        #expect(fromCheckout.status == 0, "\(fromCheckout.stderr)")
        #expect(fromCheckout.stdout.contains("to octo/alpha2"))
        #expect(sandbox.run("todo", "add", "-R", "octo/alpha", "by the old full name").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "alpha", "by the old name").status == 0)
        sandbox.environment["GH_REPO"] = "octo/alpha"
        #expect(sandbox.run("todo", "add", "from GH_REPO").status == 0)
        sandbox.environment["GH_REPO"] = nil
        let list = sandbox.run("todo", "list", "alpha")
        #expect(list.status == 0)
        #expect(list.stdout.components(separatedBy: "\n").filter { $0.contains("○") }.count == 4, "\(list.stdout)")
    }

    @Test("the advice for a checkout of a repository renamed before it was tracked works when followed")
    func adviceForARenamedRepositoryWorks() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 8, owner: "octo", name: "beta")
        sandbox.github.rename(8, to: "beta2")
        let directory = try checkout(sandbox, "octo/beta")
        let first = sandbox.run(["todo", "add", "x"], directory: directory)
        #expect(first.status == 1)
        #expect(first.stderr.contains("run 'doogit repo add octo/beta' first"), "\(first.stderr)")
        #expect(sandbox.run("repo", "add", "octo/beta").status == 0)
        let second = sandbox.run(["todo", "add", "x"], directory: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("to octo/beta2"))
    }

    @Test("a repository deleted and created again under its name: the live one is meant, id:ID reaches the gone one")
    func idTellsApartTwoRepositoriesWithOneName() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 11, owner: "octo", name: "app")
        #expect(sandbox.run("repo", "add", "octo/app").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "octo/app", "in the old one").status == 0)
        sandbox.github.delete(11)
        #expect(sandbox.run("sync").status == 0)
        sandbox.github.addRepository(id: 12, owner: "octo", name: "app")
        #expect(sandbox.run("repo", "add", "octo/app").status == 0)

        let added = sandbox.run("todo", "add", "-R", "octo/app", "in the new one", "--json")
        #expect(added.status == 0, "\(added.stderr)")
        let gone = sandbox.run("todo", "list", "id:11", "--json")
        #expect(gone.status == 0, "\(gone.stderr)")
        #expect(gone.stdout.contains("in the old one") && !gone.stdout.contains("in the new one"))

        #expect(sandbox.run("todo", "add", "-R", "id:11", "also in the old one").status == 0)
        let refused = sandbox.run("repo", "remove", "id:11")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("2 todos (2 open, 0 done); nothing was removed. Add --force"), "\(refused.stderr)")
        #expect(sandbox.run("repo", "remove", "id:11", "--force").status == 0)
        let repositories = sandbox.run("repo", "list", "--json").stdout
        #expect(repositories.contains("\"id\":12") || repositories.contains("\"id\": 12"))
        #expect(!repositories.contains("\"id\":11") && !repositories.contains("\"id\": 11"))
        let unknown = sandbox.run("todo", "list", "id:11")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no tracked repository has id:11"))
    }

    @Test("repo remove keeps done history unless --force")
    func removeKeepsDoneHistory() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 13, owner: "octo", name: "done-things")
        #expect(sandbox.run("repo", "add", "octo/done-things").status == 0)
        for index in 1...3 { #expect(sandbox.run("todo", "add", "-R", "octo/done-things", "task \(index)").status == 0) }
        #expect(sandbox.run("todo", "done", "1", "2", "3").status == 0)
        let before = try sandbox.snapshot()
        let refused = sandbox.run("repo", "remove", "octo/done-things")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("3 todos (0 open, 3 done); nothing was removed. Add --force"), "\(refused.stderr)")
        #expect(try sandbox.snapshot() == before)
        #expect(sandbox.run("repo", "remove", "octo/done-things", "--force").status == 0)
    }
}

extension RepositoryNamesEndToEndTests {
    @Test("repo add id:ID fetches the repository by GitHub's id; an unknown id is named")
    func addByID() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 21, owner: "octo", name: "by-id")
        let added = sandbox.run("repo", "add", "id:21")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Tracking octo/by-id\n")
        let missing = sandbox.run("repo", "add", "id:22")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("'id:22'"), "\(missing.stderr)")
    }
}
