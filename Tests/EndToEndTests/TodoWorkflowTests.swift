import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The walking skeleton as a user meets it: the built binary, a temp HOME, GitHub on loopback.
@Suite(.serialized)
struct TodoWorkflowTests {
    @Test func addCompleteAndListTodos() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1296269, owner: "octocat", name: "Hello-World",
                                     description: "My first repository on GitHub!")

        let added = sandbox.run("repo", "add", "octocat/Hello-World")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Tracking octocat/Hello-World\n")
        #expect(added.stderr.isEmpty)

        #expect(sandbox.run("todo", "add", "-R", "octocat/Hello-World", "set", "up", "CI").stdout == "Added 1 to octocat/Hello-World\n")
        #expect(sandbox.run("todo", "add", "--repo=Hello-World", "write the release notes").status == 0)
        let done = sandbox.run("todo", "done", "1")
        #expect(done.status == 0)
        #expect(done.stdout == "  ● 1  set up CI\n")

        let list = sandbox.run("todo", "list")
        #expect(list.status == 0)
        #expect(list.stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ○ 2  write the release notes
              ● 1  set up CI

            """)
        #expect(list.stderr.isEmpty)

        #expect(sandbox.run("todo", "list", "--open").stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ○ 2  write the release notes

            """)
        #expect(sandbox.run("todo", "list", "--done", "octocat/hello-world").stdout.contains("● 1  set up CI"))

        #expect(sandbox.run("todo", "undo", "1").stdout == "  ○ 1  set up CI\n")
        #expect(sandbox.run("todo", "edit", "2", "write", "notes").stdout == "  ○ 2  write notes\n")
        #expect(sandbox.run("todo", "rm", "1").stdout == "Removed 1  set up CI\nTo take it back: doogit todo restore 1\n")
        #expect(sandbox.run("todo", "list").stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ○ 2  write notes

            """)
        // IDs are never reused.
        #expect(sandbox.run("todo", "add", "-R", "octocat/Hello-World", "again").stdout == "Added 3 to octocat/Hello-World\n")
    }

    @Test func jsonOutputFollowsTheContract() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 42, owner: "octocat", name: "Spoon-Knife", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/Spoon-Knife").status == 0)

        let added = try JSONParser.parse(sandbox.run("todo", "add", "-R", "octocat/Spoon-Knife", "--json", "fork", "it").stdout)
        #expect(added["id"] == .number("1"))
        #expect(added["repository"] == .string("octocat/Spoon-Knife"))
        #expect(added["text"] == .string("fork it"))
        #expect(added["done"] == .bool(false))
        #expect(added["doneAt"] == .null)
        let createdAt = try added.string("createdAt")
        #expect(Timestamp(rfc3339: createdAt) != nil && createdAt.hasSuffix("Z"))

        let done = try JSONParser.parse(sandbox.run("--json", "todo", "done", "1").stdout)
        guard case .array(let affected) = done, let first = affected.first else {
            Issue.record("todo done --json is not an array")
            return
        }
        #expect(first["done"] == .bool(true))
        #expect(try Timestamp(rfc3339: first.string("doneAt")) != nil)

        let list = try JSONParser.parse(sandbox.run("todo", "list", "--json").stdout)
        guard case .array(let sections) = list, let section = sections.first else {
            Issue.record("todo list --json is not an array of sections")
            return
        }
        let repository = try #require(section["repository"])
        #expect(repository == .object([
            JSONMember("id", .number("42")), JSONMember("fullName", .string("octocat/Spoon-Knife")),
            JSONMember("description", .null), JSONMember("archived", .bool(false)), JSONMember("gone", .bool(false)),
            JSONMember("tracked", .bool(true)),
        ]))
        guard case .array(let todos)? = section["todos"], case .object(let members)? = todos.first else {
            Issue.record("section has no todos")
            return
        }
        #expect(members.map(\.key) == ["id", "text", "done", "createdAt", "doneAt", "uuid", "issue", "due", "priority", "tags", "note", "labels",
                                        "author", "finishedBy", "assignee"])

        let repos = try JSONParser.parse(sandbox.run("repo", "list", "--json").stdout)
        guard case .array(let entries) = repos, case .object(let fields)? = entries.first else {
            Issue.record("repo list --json is not an array of objects")
            return
        }
        #expect(fields.map(\.key) == ["id", "fullName", "owner", "name", "description", "url", "private",
                                      "archived", "gone", "open", "done", "syncedAt", "pushIssues", "importIssues",
                                      "scanCommits", "shared", "sharedUnreadableSince"])
        #expect(entries.first?["done"] == .number("1"))
        #expect(entries.first?["open"] == .number("0"))
        #expect(entries.first?["description"] == .null)

        let removed = try JSONParser.parse(sandbox.run("todo", "rm", "1", "--json").stdout)
        guard case .array(let gone) = removed else {
            Issue.record("todo rm --json is not an array")
            return
        }
        #expect(gone.first?["text"] == .string("fork it"))
        #expect(sandbox.run("todo", "list", "--json").stdout == "[]\n")
    }

    @Test func markersFollowTheLocale() throws {
        let sandbox = try Sandbox(locale: nil)
        sandbox.github.addRepository(id: 7, owner: "octocat", name: "linguist", description: "Language detection")
        #expect(sandbox.run("repo", "add", "octocat/linguist").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "linguist", "one").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "linguist", "two").status == 0)
        #expect(sandbox.run("todo", "done", "2").status == 0)
        let expected = """
            octocat/linguist  Language detection
              [ ] 1  one
              [x] 2  two

            """
        #expect(sandbox.run("todo", "list").stdout == expected)
        sandbox.environment["LC_ALL"] = "en_US.UTF-8"
        #expect(sandbox.run("todo", "list").stdout.contains("○ 1  one"))
        #expect(sandbox.run("todo", "list", "--ascii").stdout == expected)
        sandbox.environment["LC_ALL"] = "C"
        sandbox.environment["LANG"] = "en_US.UTF-8"
        #expect(sandbox.run("todo", "list").stdout == expected, "LC_ALL wins over LANG")
    }

    @Test func repositoryComesFromTheCheckoutOrGHRepo() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, owner: "octocat", name: "Hello-World", description: nil)
        sandbox.github.addRepository(id: 2, owner: "octocat", name: "Spoon-Knife", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/Hello-World", "git@github.com:octocat/Spoon-Knife.git").status == 0)

        let checkout = sandbox.home.path + "/src/hello"
        try FileManager.default.createDirectory(atPath: checkout + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: checkout + "/deep/er", withIntermediateDirectories: true)
        try """
            [core]
            \tbare = false
            [remote "upstream"]
            \turl = https://github.com/octocat/Spoon-Knife.git
            [remote "origin"]
            \turl = git@github.com:octocat/Hello-World.git
            \tfetch = +refs/heads/*:refs/remotes/origin/*
            """.write(toFile: checkout + "/.git/config", atomically: true, encoding: .utf8)

        let fromCheckout = sandbox.run(["todo", "add", "from", "the", "checkout"], directory: checkout + "/deep/er")
        #expect(fromCheckout.stdout == "Added 1 to octocat/Hello-World\n", "\(fromCheckout.stderr)")

        sandbox.environment["GH_REPO"] = "octocat/Spoon-Knife"
        #expect(sandbox.run(["todo", "add", "from", "GH_REPO"], directory: checkout).stdout == "Added 2 to octocat/Spoon-Knife\n")
        #expect(sandbox.run(["todo", "add", "-R", "octocat/Hello-World", "--", "from", "-R"], directory: checkout).stdout
            == "Added 3 to octocat/Hello-World\n")
        #expect(sandbox.run("todo", "list", "--json").stdout.contains("\"from -R\""))

        sandbox.environment["GH_REPO"] = nil
        let outside = sandbox.run(["todo", "add", "nowhere"], directory: sandbox.home.path)
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("-R OWNER/NAME"))
    }

    @Test func repoRemoveRefusesWhileTodosAreOpen() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 5, owner: "octocat", name: "Hello-World", description: "hi")
        #expect(sandbox.run("repo", "add", "octocat/Hello-World").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "Hello-World", "open one").status == 0)
        let before = try sandbox.snapshot()

        let refused = sandbox.run("repo", "remove", "octocat/Hello-World")
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("1 todo (1 open, 0 done)") && refused.stderr.contains("--force"))
        #expect(try sandbox.snapshot() == before)

        let forced = sandbox.run("repo", "rm", "Hello-World", "--force")
        #expect(forced.status == 0)
        #expect(forced.stdout == "Stopped tracking octocat/Hello-World and its 1 todo\n")
        #expect(sandbox.run("repo", "list").stdout.isEmpty)
        #expect(sandbox.run("todo", "list").stdout.isEmpty)
    }

    @Test func databaseFilesArePrivate() throws {
        let sandbox = try Sandbox()
        #expect(sandbox.run("todo", "list").status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.databasePath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        for folder in [".local", ".local/share", ".local/share/doogit"] {
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: sandbox.home.path + "/" + folder)
            #expect((folderAttributes[.posixPermissions] as? Int) == 0o700, "\(folder)")
        }
        let custom = sandbox.home.path + "/elsewhere/todo.db"
        #expect(sandbox.run("--db", custom, "todo", "list").status == 0)
        #expect(FileManager.default.fileExists(atPath: custom))
        sandbox.environment["DOOGIT_DB"] = sandbox.home.path + "/env.db"
        #expect(sandbox.run("repo", "list").status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.home.path + "/env.db"))
        sandbox.environment["DOOGIT_DB"] = nil
        sandbox.environment["XDG_DATA_HOME"] = sandbox.home.path + "/xdg"
        #expect(sandbox.run("repo", "list").status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.home.path + "/xdg/doogit/doogit.sqlite3"))
    }

    @Test func versionAndHelp() throws {
        let sandbox = try Sandbox()
        let version = sandbox.run("--version")
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("doogit ") && version.stdout.split(separator: ".").count == 3)
        let help = sandbox.run("help", "todo", "add")
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: doogit todo add TEXT... [OPTIONS]"))
        #expect(sandbox.run("todo", "add", "-h").stdout == help.stdout)
        #expect(sandbox.run("todo", "add", "--help", "--bogus").stdout == help.stdout)
        #expect(sandbox.run("--help").stdout == sandbox.run("help").stdout)
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath), "help must not create the database")
    }
}
