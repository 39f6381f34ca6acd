import Foundation
import DoogitGitHub
import Foundation
import DoogitSupport
import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// `--json` output through Doogit.run on a prepared store: exact text, so key order is pinned.
@Suite struct JSONOutputTests {
    static let widgets = Fixture.repository(id: 42, owner: "acme", name: "widgets", description: nil, archived: true,
                                            gone: true, isPrivate: true)

    /// Two repositories: acme/widgets (no description, archived, gone, private) with one open todo,
    /// octocat/Hello-World with an open todo holding control characters and a done one.
    func preparedHarness() throws -> CLIHarness {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld, Self.widgets])
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "write docs", uuid: Self.uuid(1), at: Fixture.t0)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id,
                              text: "ring\u{07}bell \u{1B}[31mred\u{9B} \"quoted\" back\\slash\ttab", uuid: Self.uuid(2),
                              at: Fixture.t1)
        _ = try store.addTodo(repositoryID: Self.widgets.id, text: "ship it", uuid: Self.uuid(3), at: Fixture.t2)
        _ = try store.setDone([1], done: true, at: Fixture.t3)
        _ = try store.linkIssue(todoID: 2, to: IssueSnapshot(number: 12, url: "https://github.com/octocat/Hello-World/issues/12",
                                                             title: "Ring the bell", state: .open,
                                                             updatedAt: "2023-11-14T22:14:20Z"), at: Fixture.t1)
        try store.setSettings(repositoryIDs: [Self.widgets.id], pushIssues: true, importIssues: .assigned, scanCommits: false, at: Fixture.t2)
        return harness
    }

    static func uuid(_ number: Int) -> String {
        "00000000-0000-4000-8000-00000000000\(number)"
    }

    static let todoListJSON = #"""
        [
          {
            "repository": {
              "id": 42,
              "fullName": "acme/widgets",
              "description": null,
              "archived": true,
              "gone": true,
              "tracked": true
            },
            "todos": [
              {
                "id": 3,
                "text": "ship it",
                "done": false,
                "createdAt": "2023-11-14T22:15:20.000Z",
                "doneAt": null,
                "uuid": "00000000-0000-4000-8000-000000000003",
                "issue": null,
                "due": null,
                "priority": null,
                "tags": [],
                "note": null,
                "labels": null,
                "author": null,
                "finishedBy": null,
                "assignee": null
              }
            ]
          },
          {
            "repository": {
              "id": 1296269,
              "fullName": "octocat/Hello-World",
              "description": "My first repository on GitHub!",
              "archived": false,
              "gone": false,
              "tracked": true
            },
            "todos": [
              {
                "id": 2,
                "text": "ring\u0007bell \u001b[31mred\u009b \"quoted\" back\\slash\ttab",
                "done": false,
                "createdAt": "2023-11-14T22:14:20.000Z",
                "doneAt": null,
                "uuid": "00000000-0000-4000-8000-000000000002",
                "issue": {
                  "number": 12,
                  "url": "https://github.com/octocat/Hello-World/issues/12",
                  "state": "open"
                },
                "due": null,
                "priority": null,
                "tags": [],
                "note": null,
                "labels": [],
                "author": null,
                "finishedBy": null,
                "assignee": null
              },
              {
                "id": 1,
                "text": "write docs",
                "done": true,
                "createdAt": "2023-11-14T22:13:20.000Z",
                "doneAt": "2023-11-14T23:13:20.000Z",
                "uuid": "00000000-0000-4000-8000-000000000001",
                "issue": null,
                "due": null,
                "priority": null,
                "tags": [],
                "note": null,
                "labels": null,
                "author": null,
                "finishedBy": null,
                "assignee": null
              }
            ]
          }
        ]

        """#

    static let repoListJSON = #"""
        [
          {
            "id": 42,
            "fullName": "acme/widgets",
            "owner": "acme",
            "name": "widgets",
            "description": null,
            "url": "https://github.com/acme/widgets",
            "private": true,
            "archived": true,
            "gone": true,
            "open": 1,
            "done": 0,
            "syncedAt": "2023-11-14T22:13:20.000Z",
            "pushIssues": true,
            "importIssues": "assigned",
            "scanCommits": false,
            "shared": false,
            "sharedUnreadableSince": null
          },
          {
            "id": 1296269,
            "fullName": "octocat/Hello-World",
            "owner": "octocat",
            "name": "Hello-World",
            "description": "My first repository on GitHub!",
            "url": "https://github.com/octocat/Hello-World",
            "private": false,
            "archived": false,
            "gone": false,
            "open": 1,
            "done": 1,
            "syncedAt": "2023-11-14T22:13:20.000Z",
            "pushIssues": false,
            "importIssues": "off",
            "scanCommits": true,
            "shared": false,
            "sharedUnreadableSince": null
          }
        ]

        """#

    /// Indented for a person at a terminal.
    @Test func todoListJSON() throws {
        let harness = try preparedHarness()
        let result = harness.run(["todo", "list", "--json"], terminal: true)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == Self.todoListJSON)
        #expect(harness.transportsMade == 0)
    }

    /// Compact for a program (stdout not a terminal): the same document on one line.
    @Test(arguments: [["todo", "list"], ["repo", "list"], ["todo", "done", "3"], ["todo", "show", "3"]])
    func jsonForAProgramIsCompact(command: [String]) throws {
        let harness = try preparedHarness()
        let compact = harness.run(command + ["--json"]).stdout
        #expect(compact.hasSuffix("\n"))
        #expect(compact.filter { $0 == "\n" }.count == 1, "one line: \(compact)")
        #expect(!compact.contains("\": "))
        let indented = harness.run(command + ["--json"], terminal: true).stdout
        #expect(indented.contains("\n  "))
        let parse = { (text: String) in try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSObject }
        #expect(try parse(compact) == parse(indented))
    }

    @Test func globalJSONOptionBeforeOrAfterTheCommandGivesTheSameOutput() throws {
        let harness = try preparedHarness()
        let after = harness.run("todo", "list", "--json")
        #expect(harness.run("--json", "todo", "list").stdout == after.stdout)
        #expect(harness.run("todo", "--json", "ls").stdout == after.stdout)
        #expect(harness.run("--json", "repo", "list").stdout == harness.run("repo", "list", "--json").stdout)
    }

    @Test func jsonIsNeverWrappedOrColouredOnATerminal() throws {
        let harness = try preparedHarness()
        let result = harness.run(["todo", "list", "--json", "--color=always"], terminal: true, width: 20)
        #expect(result.stdout == Self.todoListJSON)
    }

    @Test func todoListJSONFilteredByRepository() throws {
        let harness = try preparedHarness()
        let result = harness.run(["todo", "list", "widgets", "--json"], terminal: true)
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("[\n  {\n    \"repository\": {\n      \"id\": 42,"))
        #expect(!result.stdout.contains("Hello-World"))
        let open = harness.run(["todo", "list", "--open", "--json", "octocat/Hello-World"], terminal: true).stdout
        #expect(open.contains("\"id\": 2,"))
        #expect(!open.contains("\"id\": 1,"))
    }

    @Test func repoListJSON() throws {
        let harness = try preparedHarness()
        let result = harness.run(["repo", "list", "--json"], terminal: true)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == Self.repoListJSON)
    }

    @Test func repositoryFieldsFromGitHubAreEscapedNotStripped() throws {
        let harness = CLIHarness()
        let store = try harness.openStore()
        try store.saveRepository(Fixture.repository(id: 7, owner: "evil", name: "repo",
                                                    description: "\u{1B}]0;pwned\u{07}evil\u{202E}"))
        let result = harness.run("repo", "list", "--json")
        #expect(result.stdout.contains(#""description":"\u001b]0;pwned\u0007evil\u202e","#))
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(!result.stdout.contains("\u{07}"))
    }

    @Test func todoCommandsPrintTheAffectedTodos() throws {
        let harness = try preparedHarness()
        let done = harness.run(["todo", "done", "3", "--json"], terminal: true)
        #expect(done.stdout == #"""
            [
              {
                "id": 3,
                "repository": "acme/widgets",
                "text": "ship it",
                "done": true,
                "createdAt": "2023-11-14T22:15:20.000Z",
                "doneAt": "2023-11-14T22:13:20.000Z",
                "uuid": "00000000-0000-4000-8000-000000000003",
                "issue": null,
                "due": null,
                "priority": null,
                "tags": [],
                "note": null,
                "labels": null,
                "author": null,
                "finishedBy": null,
                "assignee": null
              }
            ]

            """#)
        let added = harness.run(["todo", "add", "-R", "widgets", "--json", "--", "-1", "degrees"], terminal: true)
        #expect(added.code == 0)
        let uuid = try #require(try JSONParser.parse(added.stdout)["uuid"])
        guard case .string(let text) = uuid else { throw JSONError.missing(field: "uuid") }
        #expect(UUIDv4.isValid(text))
        #expect(added.stdout.replacingOccurrences(of: text, with: "UUID") == #"""
            {
              "id": 4,
              "repository": "acme/widgets",
              "text": "-1 degrees",
              "done": false,
              "createdAt": "2023-11-14T22:13:20.000Z",
              "doneAt": null,
              "uuid": "UUID",
              "issue": null,
              "due": null,
              "priority": null,
              "tags": [],
              "note": null,
              "labels": null,
              "author": null,
              "finishedBy": null,
              "assignee": null
            }

            """#)
    }

    /// Every `--json` shape is written in JSONOutput; these two come from GitHub's answers.
    @Test func searchResultAndAuthStatusShapes() {
        let repository = GitHubRepository(id: 7, owner: "acme", name: "tool", fullName: "acme/tool", description: nil,
                                          htmlURL: "https://github.com/acme/tool", isPrivate: true, archived: false,
                                          pushedAt: nil, updatedAt: nil)
        var search = JSONStream()
        search.beginArray()
        JSONOutput.searchResult(repository, tracked: true, into: &search)
        search.endArray()
        #expect(search.text == """
            [
              {
                "id": 7,
                "fullName": "acme/tool",
                "description": null,
                "private": true,
                "archived": false,
                "tracked": true
              }
            ]

            """)
        for (scopes, written) in [(["repo", "read:org"], "[\n    \"repo\",\n    \"read:org\"\n  ]"), (nil, "null")] {
            var status = JSONStream()
            JSONOutput.authStatus(host: "github.com", origin: "https://api.github.com", user: GitHubUser(login: "octocat", id: 1, scopes: scopes),
                                  tokenSource: "the GH_TOKEN environment variable", into: &status)
            #expect(status.text == """
                {
                  "host": "github.com",
                  "origin": "https://api.github.com",
                  "login": "octocat",
                  "source": "the GH_TOKEN environment variable",
                  "scopes": \(written)
                }

                """)
        }
    }
}
