import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// One machine: its own database and clock, the shared fake GitHub, and `sync` as the CLI runs it.
final class Machine: @unchecked Sendable {
    let folder = TemporaryDirectory()
    let store: Store
    let github: FakeGitHub
    /// This machine's clock: true time plus its skew.
    var now: Timestamp

    static let dataRepository = "octocat/doogit-data"

    init(_ github: FakeGitHub, now: Timestamp) throws {
        self.github = github
        self.now = now
        store = try Store.open(path: folder.file("doogit.sqlite3"))
        try store.setRemote(repositoryID: 4242, fullName: Self.dataRepository, branch: "master", at: now)
    }

    func client() throws -> GitHubClient { try SyncerTests.client(github) }

    @discardableResult
    func sync(dryRun: Bool = false) throws -> SyncSummary {
        let lock = try #require(try FileLock(path: folder.file("doogit.sqlite3.sync-lock"), wait: true))
        let syncer = Syncer(store: store, github: try client(), lock: lock, clock: { [unowned self] in now })
        return try syncer.run(dryRun: dryRun)
    }

    func advance(seconds: Int64) { now = Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch + seconds * 1000) }

    func track(_ id: Int64, _ fullName: String) throws {
        let parts = fullName.split(separator: "/").map(String.init)
        try store.saveRepository(RepositoryRecord(id: id, owner: parts[0], name: parts[1], fullName: fullName, description: nil,
                                                  url: "https://github.com/\(fullName)", isPrivate: false, archived: false,
                                                  addedAt: now, syncedAt: now))
    }

    func add(_ text: String, to repository: Int64 = 1) throws -> TodoRecord {
        try store.addTodo(repositoryID: repository, text: text, at: now)
    }

    func todo(_ uuid: String) throws -> TodoRecord? {
        try store.sections().flatMap(\.todos).first { $0.uuid == uuid }
    }

    func id(_ uuid: String) throws -> Int64 {
        try #require(try todo(uuid)?.id)
    }

    /// The list as `todo list --json` shows it, local IDs aside.
    func list() throws -> [String] {
        try store.sections().map { section in
            "\(section.repository.fullName): " + section.todos.map { "\($0.text)\($0.done ? " [done]" : "")" }.joined(separator: ", ")
        }
    }
}
