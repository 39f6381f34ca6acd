@testable import DoogitCLI
@testable import DoogitStore
import DoogitSupport
import Testing

/// What the suites on imports share.
protocol ImportSuite {}

extension ImportSuite {
    /// A harness with octocat/Hello-World and octocat/tools (id 9) tracked.
    func harness() throws -> CLIHarness {
        let harness = CLIHarness()
        try harness.openStore().saveRepositories([Fixture.helloWorld,
                                                  Fixture.repository(id: 9, owner: "octocat", name: "tools", description: nil)])
        return harness
    }

    func todo(_ harness: CLIHarness, _ id: Int64) throws -> TodoRecord { try harness.openStore().todo(id: id) }

    static func day(_ text: String) throws -> CalendarDate { try #require(CalendarDate(text: text)) }

    /// A moment `seconds` after Fixture.t1.
    static func later(_ seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: Fixture.t1.millisecondsSinceEpoch + seconds * 1000)
    }

    func counts(_ result: RunResult) throws -> [Int64] {
        let value = try JSONParser.parse(result.stdout)
        return try ["added", "updated", "unchanged"].map { try value.int64($0) }
    }
}
