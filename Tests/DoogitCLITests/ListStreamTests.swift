import DoogitMerge
import DoogitStore
import DoogitSupport
import TestSupport
import Testing
@testable import DoogitCLI

/// `todo list` written a section at a time as it is read (no `--grep`, `--long` or named
/// repositories) is the list written from every section read first, byte for byte.
@Suite struct ListStreamTests {
    /// Random todos over three repositories, every text holding "t" (so `--grep t` matches all
    /// and takes the path that reads every section first).
    private func harness(seed: UInt64) throws -> CLIHarness {
        var random = SplitMix64(seed: seed)
        let harness = CLIHarness(environment: ["LANG": "C.UTF-8"])
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.repository(id: 1, owner: "Zeta", name: "app", description: "z"),
                                    Fixture.repository(id: 2, owner: "alpha", name: "tools", description: nil),
                                    Fixture.repository(id: 3, owner: "beta", name: "lib", description: "b", archived: true)])
        let today = try #require(CalendarDate.local(at: harness.now))
        for index in 0..<Int.random(in: 1...150, using: &random) {
            let due: CalendarDate?? = Int.random(in: 0..<3, using: &random) == 0
                ? .some(today.adding(days: Int.random(in: -20...20, using: &random))) : nil
            let priority: Priority?? = Bool.random(using: &random) ? .some(Priority.allCases.randomElement(using: &random)) : nil
            let tags = ["ci", "docs"].filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
            let todo = try store.addTodo(repositoryID: Int64.random(in: 1...3, using: &random), text: "todo t\(index)",
                                         details: DetailsEdit(due: due, priority: priority, addTags: tags), at: Fixture.t0)
            if Int.random(in: 0..<4, using: &random) == 0 { _ = try store.setDone([todo.id], done: true, at: Fixture.t1) }
        }
        return harness
    }

    @Test("streamed and read whole, the same bytes", arguments: 0..<6)
    func sameBytes(seed: UInt64) throws {
        let harness = try harness(seed: seed)
        for filter in [[], ["--open"], ["--done"], ["--tag", "ci"], ["--priority", "H"], ["--priority", "M", "--priority", "L"],
                       ["--due", "week"], ["--due", "overdue"], ["--tag", "docs", "--open"]] {
            // (Not in colour: there --grep marks what it matched.)
            for format in [[], ["--json"], ["--ascii"]] {
                let streamed = harness.run(["todo", "list"] + filter + format)
                let whole = harness.run(["todo", "list", "--grep", "t"] + filter + format)
                #expect(streamed.code == 0 && whole.code == 0)
                #expect(streamed.stdout == whole.stdout, "\(filter + format)")
            }
        }
    }

    @Test("the ID column is as wide as the largest ID shown, not the largest there is")
    func idWidthOfWhatIsShown() throws {
        let harness = CLIHarness(environment: ["LANG": "C.UTF-8"])
        let store = try harness.openStore()
        try store.saveRepositories([Fixture.helloWorld])
        for index in 1...12 { _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "t\(index)", at: Fixture.t0) }
        _ = try store.editDetails(id: 3, DetailsEdit(priority: .some(.high)), at: Fixture.t0)
        let result = harness.run("todo", "list", "--priority", "H")
        #expect(result.stdout == """
            octocat/Hello-World  My first repository on GitHub!
              ○ 3  (H) t3

            """)
        #expect(harness.run("todo", "list").stdout.contains("\n  ○  3  (H) t3\n"))
        #expect(harness.run("todo", "list", "--priority", "M").stdout == "")
    }
}
