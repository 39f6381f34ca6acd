import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// A sync says how far it has gone at every step, not only while it reads repositories: the
/// commits and issues it reads after them count too, each step ending done.
@Suite(.serialized) struct SyncProgressStepsTests {
    @Test func commitsAndIssuesShowTheirProgress() throws {
        let world = try IssueWorld()
        try world.linkedTodo("write the docs")
        world.github.pushCommits(repository: IssueWorld.app, messages: ["Start"])
        var steps: [SyncProgress] = []
        _ = try world.base.syncer().run { steps.append($0) }
        for step in [SyncProgress.Step.repositories, .commits, .issues] {
            let reported = steps.filter { $0.step == step }
            #expect(reported.first?.done == 0 && reported.first?.total == 1, "\(step): \(reported)")
            #expect(reported.last == SyncProgress(step, done: 1, total: 1), "\(step): \(reported)")
        }
        #expect(steps.map(\.step).firstIndex(of: .commits) ?? 0 < steps.map(\.step).firstIndex(of: .issues) ?? 0)
    }
}
