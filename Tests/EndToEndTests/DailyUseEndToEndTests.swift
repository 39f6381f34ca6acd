import DoogitSupport
import Foundation
import Testing
import TestSupport

/// What a new user tries in the first hour, run as they would run it: the built binary against
/// a GitHub on 127.0.0.1.
@Suite(.serialized)
struct DailyUseEndToEndTests {
    @Test func theFirstHour() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "Hello-World", description: "My first repository on GitHub!")
        sandbox.github.addRepository(id: 2, name: "Spoon-Knife", description: nil)
        #expect(sandbox.run().stdout.isEmpty, "doogit alone, nothing tracked: an empty list")
        #expect(sandbox.run("repo", "add", "Hello-World", "Spoon-Knife").status == 0)
        #expect(sandbox.run("add", "-R", "Hello-World", "write", "the", "release", "notes").stdout == "Added 1 to octocat/Hello-World\n")
        #expect(sandbox.run(["add", "-R", "Spoon-Knife", "-"], stdin: "fork it\nfix the fork\n").stdout
            == "Added 2 todos to octocat/Spoon-Knife: 2 3\n")
        #expect(sandbox.run("ls", "--grep", "FORK").stdout == "octocat/Spoon-Knife\n  ○ 2  fork it\n  ○ 3  fix the fork\n")
        #expect(sandbox.run("move", "3", "-R", "Hello-World").stdout == "Moved 3 to octocat/Hello-World\n")
        #expect(sandbox.run("done", "#1").status == 0)
        #expect(sandbox.run("rm", "2,3").stdout.hasSuffix("To take them back: doogit todo restore 2 3\n"))
        #expect(sandbox.run("restore", "2-3").status == 0)
        #expect(sandbox.run("clear", "Hello-World").stdout == "Cleared 1 done todo of octocat/Hello-World\nTo take it back: doogit todo restore 1\n")
        #expect(sandbox.run().stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ○ 3  fix the fork

            octocat/Spoon-Knife
              ○ 2  fork it

            """)
        #expect(sandbox.run("help", "add").stdout == sandbox.run("help", "todo", "add").stdout)
        #expect(sandbox.run("help", "help").status == 0)
    }

    /// A transfer says so; a description with quotes reads unambiguously; the lines are sorted.
    @Test func syncLinesSayWhatHappened() throws {
        let sandbox = try Sandbox()
        for (id, name) in [(1, "zeta"), (2, "alpha"), (3, "mid")] {
            sandbox.github.addRepository(id: Int64(id), owner: "other", name: name, description: nil)
        }
        #expect(sandbox.run("repo", "add", "other/zeta", "other/alpha", "other/mid").status == 0)
        sandbox.github.transfer(1, to: "acme")
        sandbox.github.update(2) { $0.description = #"say "hi""# }
        sandbox.github.rename(3, to: "middle")
        let sync = sandbox.run("sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout == """
            other/alpha: description changed to "say \\"hi\\""
            other/mid: renamed to other/middle
            other/zeta: transferred to acme/zeta

            """)
    }

    @Test func authStatusNamesTheTokenSourceByIdentifier() throws {
        let sandbox = try Sandbox()
        sandbox.environment["XDG_CONFIG_HOME"] = sandbox.home.path + "/config"
        func source() -> String? {
            let status = sandbox.run("auth", "status", "--json")
            guard case .object(let members)? = try? JSONParser.parse(status.stdout) else { return nil }
            return members.first { $0.key == "source" }.flatMap { if case .string(let text) = $0.value { text } else { nil } }
        }
        #expect(source() == "GH_TOKEN")
        let token = sandbox.github.token
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["GITHUB_TOKEN"] = token
        #expect(source() == "GITHUB_TOKEN")
        sandbox.environment["GITHUB_TOKEN"] = nil
        #expect(sandbox.run(["auth", "login", "--with-token"], stdin: token + "\n").status == 0)
        #expect(source() == "saved")
        #expect(sandbox.run("auth", "logout").status == 0)
        let bin = sandbox.home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try ChildProcess.writeExecutable("#!/bin/sh\necho \(token)\n", to: bin + "/gh")
        sandbox.environment["PATH"] = bin + ":/usr/bin:/bin"
        #expect(source() == "gh")
    }

    /// The sync stopped by the reserve it keeps, not by GitHub, says so.
    @Test func aSyncStoppedByTheReserveSaysSo() throws {
        let sandbox = try Sandbox()
        // Ten tracked: the user's listing is read first, and its answer says how much is left.
        for id in 1...10 { sandbox.github.addRepository(id: Int64(id), owner: "other", name: "r\(id)", description: nil) }
        #expect(sandbox.run(["repo", "add"] + (1...10).map { "other/r\($0)" }).status == 0)
        sandbox.github.rateLimit = sandbox.github.rateLimitUsed + 20
        sandbox.github.update(1) { $0.description = "new" }
        let limited = sandbox.run("sync")
        #expect(limited.status == 75)
        #expect(limited.stderr.hasPrefix("doogit: error: sync stopped to keep 50 requests of GitHub's rate limit in reserve; what was done is kept; try again after "),
                "\(limited.stderr)")
    }

    @Test func searchLinesHaveNoTrailingSpaces() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "a-rather-long-name", description: "described")
        sandbox.github.addRepository(id: 2, name: "short", description: nil)
        sandbox.github.addRepository(id: 3, name: "secret", description: nil, isPrivate: true)
        #expect(sandbox.run("repo", "add", "short").status == 0)
        let found = sandbox.run("repo", "search", "--ascii")
        #expect(found.stdout == """
              octocat/a-rather-long-name  described
              octocat/secret              [private]
            * octocat/short

            """)
        for line in found.stdout.split(separator: "\n") { #expect(!line.hasSuffix(" ")) }
    }
}
