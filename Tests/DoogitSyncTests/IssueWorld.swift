import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// A store in a temp folder, the fake GitHub with octocat/app (id 1) tracked, and helpers to
/// link todos and sync, for the tests of issues and commits.
final class IssueWorld {
    /// The world of SyncerTests: the store, the fake GitHub, the lock and a quick client.
    let base: SyncerTests.World
    var github: FakeGitHub { base.github }
    var store: Store { base.store }
    var activity: FakeActivity { base.github.activity }
    static let app: Int64 = 1

    init() throws {
        base = try SyncerTests.World()
        github.addRepository(id: Self.app, name: "app", description: nil)
        _ = try RepositoryTracker(store: store, github: client()).add([.full(owner: "octocat", name: "app")], at: .now())
    }

    func client() throws -> GitHubClient { try base.client() }

    func linker() throws -> IssueLinker { IssueLinker(store: store, github: try client()) }

    @discardableResult
    func sync(dryRun: Bool = false) throws -> SyncSummary {
        try base.syncer().run(dryRun: dryRun)
    }

    /// A todo linked to a new issue with the same title (as `todo promote` leaves it).
    @discardableResult
    func linkedTodo(_ text: String, at time: Timestamp = .now()) throws -> (todo: TodoRecord, number: Int64) {
        let number = activity.addIssue(repository: Self.app, title: text)
        let todo = try store.addTodo(repositoryID: Self.app, text: text, at: time)
        return (try linker().link(todoID: todo.id, owner: nil, name: nil, number: number).todo, number)
    }

    func todo(_ id: Int64) throws -> TodoRecord { try store.todo(id: id) }

    func requests(_ method: String) -> [ReceivedRequest] { github.requests.filter { $0.method == method } }

    func setPush(_ on: Bool) throws {
        try store.setSettings(repositoryIDs: [Self.app], pushIssues: on, importIssues: nil, scanCommits: nil, at: .now())
    }

    func setImport(_ mode: IssueImport) throws {
        try store.setSettings(repositoryIDs: [Self.app], pushIssues: nil, importIssues: mode, scanCommits: nil, at: .now())
    }
}

/// A moment `seconds` after the start of 2030, for todo times that tests order against GitHub's.
func at(_ seconds: Int64) -> Timestamp { Timestamp(secondsSinceEpoch: 1_893_456_000 + seconds) }
