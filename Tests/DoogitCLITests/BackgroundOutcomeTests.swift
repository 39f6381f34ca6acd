import DoogitSupport
import Testing
@testable import DoogitCLI

/// The view learns what a command it ran in the background did from the command's `--json`, not
/// from its words for people: a sync's summary and a promote's issue, whatever notes share the pipe.
@Suite struct BackgroundOutcomeTests {
    static func output(_ lines: String...) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) }

    @Test func aSyncsSummaryInAFewWords() throws {
        let quiet = #"{"repositories":2,"updated":0,"renamed":0,"gone":0,"unchanged":2,"requests":3,"rateLimitRemaining":4000,"dryRun":false,"issues":{"pulled":0,"pushed":0,"imported":0,"closedByCommit":0,"conflicts":0},"remote":null,"board":null}"#
        #expect(BackgroundOutcome.json(in: Self.output(quiet)).map(BackgroundOutcome.sync) == "nothing changed")
        let busy = #"{"repositories":2,"updated":1,"renamed":1,"gone":0,"unchanged":0,"requests":3,"rateLimitRemaining":4000,"dryRun":false,"issues":{"pulled":2,"pushed":1,"imported":1,"closedByCommit":0,"conflicts":0},"remote":{"pulled":3,"pushed":1,"retries":0,"dropped":0,"untracked":[]},"board":{"finished":1,"reopened":0,"edited":0,"added":1,"removed":0,"unplaced":0,"written":1,"created":0,"closed":0}}"#
        let words = BackgroundOutcome.json(in: Self.output("doogit: warning: this machine's clock is 2 h ahead", busy)).map(BackgroundOutcome.sync)
        #expect(words == "2 repositories changed, 3 received, 1 sent, 3 issue changes, 1 pushed to issues, 2 from the board")
        #expect(BackgroundOutcome.json(in: Self.output("doogit: error: cannot reach GitHub")) == nil)
    }

    @Test func aPromotesIssue() throws {
        let promoted = #"{"id":3,"repository":"octocat/app","text":"fix it","done":false,"createdAt":"2027-01-01T00:00:00.000Z","doneAt":null,"uuid":"u","issue":{"number":12,"url":"https://github.com/octocat/app/issues/12","state":"open"}}"#
        #expect(BackgroundOutcome.json(in: Self.output(promoted)).flatMap(BackgroundOutcome.promoted) == "octocat/app#12")
    }
}
