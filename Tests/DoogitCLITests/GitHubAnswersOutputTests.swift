import DoogitSupport
import Foundation
import Testing
import TestSupport
@testable import DoogitCLI

/// What the commands show of GitHub's answers as GitHub gives them: a remote renamed on GitHub,
/// said once by the sync that finds it; a search listing that leaves fields out, shown with
/// them unknown; a listed repository that cannot be read, left out with a note under `-v`.
@Suite(.serialized)
struct GitHubAnswersOutputTests {
    func run(_ arguments: [String], _ github: FakeGitHub, _ home: TemporaryDirectory) -> (status: Int32, out: String, err: String) {
        let (status, out, err) = RepoAddErrorTests.run(arguments, github: github, home: home)
        return (status, out.text, err.text)
    }

    @Test func aRemoteRenamedOnGitHubIsSaidOnceByTheSyncThatFindsIt() throws {
        let github = try FakeGitHub()
        let home = TemporaryDirectory()
        github.addRepository(id: 1, name: "app")
        github.addRepository(id: 4242, name: "doogit-data", isPrivate: true)
        #expect(run(["repo", "add", "app"], github, home).status == 0)
        let initialized = run(["remote", "init", "octocat/doogit-data"], github, home)
        #expect(initialized.status == 0, "\(initialized.err)")
        #expect(run(["add", "-R", "app", "one"], github, home).status == 0)
        #expect(run(["sync"], github, home).status == 0)
        github.rename(4242, to: "todos-home")
        #expect(run(["add", "-R", "app", "two"], github, home).status == 0)
        let found = run(["sync"], github, home)
        #expect(found.status == 0, "\(found.err)")
        #expect(found.out == "the remote octocat/doogit-data is now octocat/todos-home\noctocat/todos-home: sent 1 change\n")
        #expect(run(["add", "-R", "app", "three"], github, home).status == 0)
        #expect(run(["sync"], github, home).out == "octocat/todos-home: sent 1 change\n")
        #expect(run(["remote", "status", "--json"], github, home).out.contains(#""repository":"octocat/todos-home""#))
    }

    @Test func aSearchShowsWhatTheListingLeftOutAsUnknown() throws {
        let github = try FakeGitHub()
        let home = TemporaryDirectory()
        github.addRepository(id: 1, name: "told", description: "archived, as GitHub said", archived: true)
        github.addRepository(id: 2, name: "untold", description: "GitHub did not say")
        github.addRepository(id: 3, name: "ownerless")
        github.addRepository(id: 4, name: "broken")
        github.script { request in
            guard request.path == "/user/repos" else { return nil }
            let items: [JSONValue] = ["told", "untold", "ownerless", "broken"].compactMap { name in
                guard let repository = github.repositoryNamed("octocat/\(name)") else { return nil }
                let item = FakeGitHub.json(for: repository, apiURL: github.apiURL, form: .listing)
                switch name {
                case "untold": return item.removing("archived").removing("pushed_at").removing("default_branch")
                case "ownerless": return item.replacing(["owner": .null])
                case "broken": return item.removing("id")
                default: return item
                }
            }
            return .json(200, JSONWriter.write(.array(items)))
        }
        let found = run(["repo", "search", "-v"], github, home)
        #expect(found.status == 0, "\(found.err)")
        #expect(found.out == """
              octocat/told       [archived]  archived, as GitHub said
              octocat/untold     [archived?]  GitHub did not say
              octocat/ownerless

            """)
        #expect(found.err.contains("doogit: left out octocat/broken of the listing GitHub sent: field 'id' is missing\n"))
        #expect(!run(["repo", "search"], github, home).err.contains("left out"), "a note for -v only")
        let json = try JSONParser.parse(run(["repo", "search", "--json"], github, home).out)
        guard case .array(let results) = json else {
            Issue.record("repo search --json")
            return
        }
        #expect(results.map { $0["archived"] } == [.bool(true), .null, .bool(false)])
        #expect(RepositoryListing.entries(fromJSON: Array(JSONWriter.write(json).utf8))?.map(\.archived) == [true, nil, false])
    }
}
