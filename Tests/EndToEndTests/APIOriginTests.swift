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
}
