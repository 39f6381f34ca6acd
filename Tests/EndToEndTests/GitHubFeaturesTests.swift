import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The GitHub side as a user meets it: every repository form, search, auth, hosts, and each
/// failure GitHub can answer with.
@Suite(.serialized)
struct GitHubFeaturesTests {
    @Test func everyRepositoryFormAddsTheRightRepository() throws {
        let sandbox = try Sandbox()
        let forms = [
            (1, "octocat/one", "octocat/one"),
            (2, "two", "https://github.com/octocat/two"),
            (3, "three", "https://github.com/octocat/three.git"),
            (4, "four", "git@github.com:octocat/four.git"),
            (5, "five", "ssh://git@github.com/octocat/five.git"),
            (6, "six", "six"),
        ]
        for (id, name, _) in forms { sandbox.github.addRepository(id: Int64(id), name: name.split(separator: "/").last.map(String.init) ?? name, description: nil) }
        for (_, _, form) in forms {
            let added = sandbox.run("repo", "add", form)
            #expect(added.status == 0, "\(form): \(added.stderr)")
        }
        let list = try JSONParser.parse(sandbox.run("repo", "list", "--json").stdout)
        guard case .array(let repos) = list else {
            Issue.record("repo list --json")
            return
        }
        let names = repos.compactMap { $0["fullName"] }
        #expect(names == ["five", "four", "one", "six", "three", "two"].map { JSONValue.string("octocat/\($0)") })
        #expect(repos.compactMap { $0["id"] } == [5, 4, 1, 6, 3, 2].map { JSONValue.number(String($0)) })
        #expect(sandbox.github.requests.contains { $0.path == "/user" }, "a bare NAME asks who the user is")
    }

    @Test func searchFindsARepositoryOnTheThirdPage() throws {
        let sandbox = try Sandbox()
        for id in 1...260 {
            sandbox.github.addRepository(id: Int64(id), name: String(format: "repo-%03d", id),
                                         description: id == 250 ? "The Needle in the haystack" : "hay")
        }
        #expect(sandbox.run("repo", "add", "octocat/repo-001").status == 0)
        // The owner is searched too, and every word must be found (in the owner, name or description).
        #expect(sandbox.run("repo", "search", "OCTOCAT").stdout.split(separator: "\n").count == 260)
        #expect(sandbox.run("repo", "search", "octocat", "needle").stdout == "  octocat/repo-250  The Needle in the haystack\n")
        #expect(sandbox.run("repo", "search", "octocat needle", "hay").stdout == "  octocat/repo-250  The Needle in the haystack\n")
        #expect(sandbox.run("repo", "search", "needle", "nobody").stdout.isEmpty)
        sandbox.github.resetCounters()
        let found = sandbox.run("repo", "search", "NEEDLE")
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout == "  octocat/repo-250  The Needle in the haystack\n")
        let pages = sandbox.github.requests.filter { $0.path == "/user/repos" }
        #expect(pages.count == 3)

        let json = try JSONParser.parse(sandbox.run("repo", "search", "repo-00", "--json").stdout)
        guard case .array(let results) = json else {
            Issue.record("repo search --json")
            return
        }
        #expect(results.count == 9)
        #expect(results.first?["fullName"] == .string("octocat/repo-001"))
        #expect(results.first?["tracked"] == .bool(true))
        #expect(results.last?["tracked"] == .bool(false))
        if case .object(let members)? = results.first {
            #expect(members.map(\.key) == ["id", "fullName", "description", "private", "archived", "tracked"])
        }
        #expect(sandbox.run("repo", "search", "no-such-thing").stdout.isEmpty)
    }

    @Test func escapeSequencesFromGitHubNeverReachTheTerminal() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 9, name: "evil",
                                     description: "\u{1B}]0;pwned\u{07}safe \u{1B}[31mred\u{1B}[0m \u{202E}txt.exe\u{9B}2J end")
        #expect(sandbox.run("repo", "add", "octocat/evil").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "evil", "x").status == 0)
        sandbox.github.update(9) { $0.description = "\u{1B}[2J\u{1B}[Hcleared \u{1B}P1;2q\u{1B}\\" }
        for output in [sandbox.run("todo", "list").stdout, sandbox.run("repo", "list").stdout,
                       sandbox.run("repo", "search").stdout, sandbox.run("sync").stdout, sandbox.run("todo", "list").stdout] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 || $0.value == 0x202E },
                    "\(output.debugDescription)")
        }
        #expect(sandbox.run("todo", "list").stdout.hasPrefix("octocat/evil  cleared\n"))
        let json = sandbox.run("todo", "list", "--json").stdout
        #expect(json.contains(#"\u001b[2J"#), "JSON escapes control characters instead of dropping them")
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func authLoginStatusAndLogout() throws {
        let sandbox = try Sandbox()
        let token = sandbox.github.token
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["PATH"] = sandbox.home.path  // no gh
        let missing = sandbox.run("auth", "status")
        #expect(missing.status == 4)

        let wrong = sandbox.run(["auth", "login", "--with-token"], stdin: "ghp_not_the_token\n")
        #expect(wrong.status == 4)
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.path + "/.config/doogit/tokens"))

        let login = sandbox.run(["auth", "login", "--with-token"], stdin: token + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(!login.stdout.contains(token) && !login.stderr.contains(token))
        let path = sandbox.home.path + "/.config/doogit/tokens"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let status = sandbox.run("auth", "status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("as octocat"))
        #expect(status.stdout.contains("saved by 'doogit auth login'"))
        #expect(status.stdout.contains("Token scopes: repo, read:org"))
        #expect(!status.stdout.contains(token))
        let json = try JSONParser.parse(sandbox.run("auth", "status", "--json").stdout)
        #expect(json["login"] == .string("octocat"))

        sandbox.github.addRepository(id: 1, name: "saved", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/saved").status == 0, "the saved token is used")

        sandbox.environment["GH_TOKEN"] = "ghp_from_environment"
        #expect(sandbox.run("auth", "status").status == 4, "GH_TOKEN wins over the saved token")
        sandbox.environment["GH_TOKEN"] = nil

        #expect(sandbox.run("auth", "logout").stdout == "Removed the token saved for \(sandbox.github.apiURL)\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(sandbox.run("auth", "status").status == 4)
        #expect(sandbox.run(["auth", "login"], stdin: token).status == 2, "--with-token is required")
    }

    @Test func ghAuthTokenIsTheLastResort() throws {
        let sandbox = try Sandbox()
        let bin = sandbox.home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = "#!/bin/sh\n[ \"$1 $2\" = \"auth token\" ] && echo \(sandbox.github.token) && exit 0\nexit 1\n"
        try ChildProcess.writeExecutable(script, to: bin + "/gh")
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["PATH"] = bin + ":/usr/bin:/bin"
        let status = sandbox.run("auth", "status")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("gh auth token"))
    }

    /// A gh that would hang for ten minutes: doogit stops it (the shell execs, so stopping it
    /// leaves nothing behind) and says it found no token, long before the test's patience ends.
    @Test func aHangingGhIsStopped() throws {
        let sandbox = try Sandbox()
        let bin = sandbox.home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try ChildProcess.writeExecutable("#!/bin/sh\nexec sleep 600\n", to: bin + "/gh")
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["PATH"] = bin + ":/usr/bin:/bin"
        let result = sandbox.run("auth", "status")
        #expect(!result.timedOut, "a hung gh must not hold doogit")
        #expect(result.status == 4)
    }

    @Test func githubFailuresHaveTheirExitCodes() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        let cases: [(ServerResponse, Int32, String)] = [
            (.json(403, Fixtures.text("error-403-rate-limit.json"),
                   headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "4102444800")]), 75, "try again after"),
            (.json(429, #"{"message":"secondary"}"#, headers: [("Retry-After", "3600")]), 75, "rate limit"),
            (.json(403, #"{"message":"Resource protected by organization SAML enforcement."}"#,
                   headers: [("X-GitHub-SSO", "required; url=https://github.com/orgs/o/sso")]), 1, "single sign-on"),
            (.json(422, Fixtures.text("error-422.json")), 1, "Validation Failed"),
            (.json(200, "{\"id\": 1, \"name\""), 1, "unexpected response from GitHub"),
            (.json(200, #"{"id":"1","name":"repo","full_name":"octocat/repo","owner":{"login":"octocat"},"html_url":"u","private":false}"#),
             1, "unexpected response from GitHub"),
            (.json(500, "oops"), 75, "GitHub is having trouble"),
        ]
        for (response, status, message) in cases {
            sandbox.github.script { _ in response }
            let result = sandbox.run("repo", "add", "octocat/repo")
            #expect(result.status == status, "\(message): \(result.stderr)")
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(sandbox.run("repo", "list").stdout.isEmpty)
            try sandbox.letRateLimitsPass()
        }
    }

    @Test func ghHostMeansEnterpriseAndPlainHTTPIsRefused() throws {
        let sandbox = try Sandbox()
        sandbox.environment["DOOGIT_API_URL"] = nil
        sandbox.environment["GH_HOST"] = "127.0.0.1:1"
        let result = sandbox.run("-v", "repo", "add", "octocat/x")
        // https://127.0.0.1:1/api/v3: nothing listens there, which proves the URL that was built.
        #expect(result.status == 75)
        #expect(result.stderr.contains("https://127.0.0.1:1/api/v3/repos/octocat/x"))
    }
}
