import Foundation
import Testing
import TestSupport

/// With doogit's real timeouts and retries: a server that accepts connections and never answers
/// fails the command with exit 75 within the contract's 60 seconds. Its own suite, so the long
/// wait overlaps the other suites.
@Suite(.serialized)
struct StalledServerTests {
    @Test func aStalledServerFailsWithinSixtySeconds() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/repo").status == 0)
        sandbox.github.setDelay(milliseconds: 120_000)
        let before = try sandbox.snapshot()
        let started = Date()
        let result = sandbox.run(["sync"], timeout: 90)
        let elapsed = Date().timeIntervalSince(started)
        #expect(!result.timedOut)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("did not answer in time"))
        #expect(elapsed < 60, "took \(elapsed) s")
        #expect(try sandbox.snapshot() == before)
    }
}
