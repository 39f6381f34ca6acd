import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A wrong API URL and a redirect off the API's origin: exit 1, one line that says what is
/// wrong, and nothing stored.
@Suite(.serialized)
struct APIOriginTests {
    /// `/api/v3` on a server without that prefix answers every route with GitHub's generic 404.
    @Test func aWrongAPIPathIsReportedAsSuchAndFlagsNothingGone() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/repo").status == 0)
        sandbox.environment["DOOGIT_API_URL"] = sandbox.github.apiURL + "/api/v3"

        let status = sandbox.run("auth", "status")
        #expect(status.status == 1, "\(status.stderr)")
        #expect(status.stderrLines.count == 1)
        #expect(status.stderr.contains("API URL") && status.stderr.contains("DOOGIT_API_URL"), "\(status.stderr)")
        #expect(!status.stderr.contains("repositor"), "\(status.stderr)")

        let before = try sandbox.snapshot()
        let sync = sandbox.run("sync")
        #expect(sync.status == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains("DOOGIT_API_URL"), "\(sync.stderr)")
        #expect(!sync.stdout.contains("gone"))
        #expect(try sandbox.snapshot() == before)
    }

    @Test func aRedirectToAnotherHostIsRefused() throws {
        let elsewhere = try HTTPServer { _ in
            .json(200, #"{"id":9,"name":"n","full_name":"evil/n","owner":{"login":"evil"},"html_url":"https://github.com/evil/n","private":false}"#)
        }
        let sandbox = try Sandbox()
        sandbox.github.script { _ in ServerResponse(status: 301, headers: [("Location", elsewhere.baseURL + "/repositories/9")]) }
        #expect(sandbox.run("repo", "list").status == 0)
        let before = try sandbox.snapshot()
        let result = sandbox.run("repo", "add", "octocat/repo")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("127.0.0.1:\(elsewhere.port)"), "\(result.stderr)")
        #expect(try sandbox.snapshot() == before)
    }

    /// A token saved for one API origin, or kept by gh for one host, never reaches another. Two
    /// GitHubs on loopback, one at 127.0.0.1 and one at localhost, each with its own port and
    /// token, record the Authorization header of every request; a fake gh records how it was
    /// asked, and knows a token for localhost only.
    @Test func aTokenGoesOnlyToItsOrigin() throws {
        let sandbox = try Sandbox()
        let first = sandbox.github
        let second = try FakeGitHub(token: "ghp_secondtoken0123456789")
        second.publicURL = "http://localhost:\(second.port)"
        let bin = sandbox.home.path + "/bin", calls = sandbox.home.path + "/gh-calls"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try ChildProcess.writeExecutable("""
            #!/bin/sh
            echo "$*" >> '\(calls)'
            [ "$*" = "auth token --hostname localhost" ] && echo \(second.token) && exit 0
            echo "no oauth token found" >&2
            exit 1

            """, to: bin + "/gh")
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["PATH"] = bin + ":/usr/bin:/bin"
        func use(_ github: FakeGitHub) { sandbox.environment["DOOGIT_API_URL"] = github.apiURL }
        func source() throws -> (String?, String?) {
            let json = try JSONParser.parse(sandbox.run("auth", "status", "--json").stdout)
            func text(_ key: String) -> String? { if case .string(let value)? = json[key] { value } else { nil } }
            return (text("source"), text("origin"))
        }

        use(first)
        #expect(sandbox.run(["auth", "login", "--with-token"], stdin: first.token + "\n").status == 0)
        use(second)
        let status = sandbox.run("auth", "status")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("Signed in to \(second.apiURL) as octocat"), "\(status.stdout)")
        #expect(status.stdout.contains("gh auth token --hostname localhost"), "\(status.stdout)")
        use(first)
        #expect(try source() == ("saved", first.apiURL), "each origin its own token")

        // Saved for the second origin too, the first keeps its own; a logout forgets one origin's.
        use(second)
        #expect(sandbox.run(["auth", "login", "--with-token"], stdin: second.token + "\n").status == 0)
        #expect(try source() == ("saved", second.apiURL))
        let file = sandbox.home.path + "/.config/doogit/tokens"
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.contains("\n\(first.apiURL) \(first.token)\n") && saved.contains("\n\(second.apiURL) \(second.token)\n"))
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: sandbox.home.path + "/.config/doogit")[.posixPermissions] as? Int == 0o700)
        #expect(sandbox.run("auth", "logout").stdout == "Removed the token saved for \(second.apiURL)\n")
        #expect(try source() == ("gh", second.apiURL))
        use(first)
        #expect(try source() == ("saved", first.apiURL))

        // Without a saved token, gh is asked for 127.0.0.1's, and has none: nothing is sent.
        #expect(sandbox.run("auth", "logout").status == 0)
        let before = first.requests.count
        #expect(sandbox.run("auth", "status").status == 4)
        // An older doogit's single token is https://api.github.com's, not this origin's.
        try first.token.write(toFile: sandbox.home.path + "/.config/doogit/token", atomically: true, encoding: .utf8)
        #expect(sandbox.run("auth", "status").status == 4)
        #expect(first.requests.count == before)

        for request in first.requests { #expect(request.headers["authorization"] == "Bearer \(first.token)", "\(request.target)") }
        for request in second.requests { #expect(request.headers["authorization"] == "Bearer \(second.token)", "\(request.target)") }
        #expect(!second.requests.isEmpty)
        let asked = try String(contentsOfFile: calls, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Set(asked) == ["auth token --hostname localhost", "auth token --hostname 127.0.0.1"], "\(asked)")
    }
}
