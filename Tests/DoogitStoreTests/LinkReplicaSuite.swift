import DoogitMerge
@testable import DoogitStore
import DoogitSupport
import Testing

/// What the suites on links and settings as replicated fields share: a store tracking octocat/cat
/// (1) and octocat/dog (2), issues as linked and as seen, stamps of another machine, and a merge
/// made as sync makes it.
protocol LinkReplicaSuite {}

extension LinkReplicaSuite {
    static var other: String { "bbbbbbbbbbbb" }

    func entry(_ store: Store, _ uuid: String) throws -> TodoEntry {
        try #require(try store.replica.read().replica.todos[uuid])
    }

    func snapshot(_ number: Int64, title: String = "Feed the cat", state: IssueState = .open) -> IssueSnapshot {
        IssueSnapshot(number: number, url: "https://github.com/octo/cat/issues/\(number)", title: title, state: state,
                      updatedAt: "2026-01-01T00:00:00Z")
    }

    func link(_ number: Int64, repository: Int64 = 1) -> LinkedIssue {
        LinkedIssue(number: number, repository: repository, url: "https://github.com/octo/cat/issues/\(number)")
    }

    func seen(_ number: Int64, state: String = "open", title: String = "Feed the cat", at second: Int64 = 0) -> IssueObservation {
        IssueObservation(number: number, state: state, title: title, url: "https://github.com/octo/cat/issues/\(number)",
                         updatedAt: moment(second))
    }

    func stamp(_ second: Int64, _ machine: String = other) -> HybridTimestamp {
        HybridTimestamp(wall: moment(second).millisecondsSinceEpoch, counter: 0, machine: machine)
    }

    func makeStore() throws -> Store {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "octo/cat"), repository(2, "octo/dog")])
        return store
    }

    /// Merges `other` into the store as sync does, and returns the merge.
    @discardableResult
    func receive(_ store: Store, _ change: (inout Replica) -> Void, at second: Int64) throws -> Replica {
        let local = try store.replica.read()
        var other = local.replica
        change(&other)
        let merged = merge(local.replica, other)
        try store.replica.apply(ReplicaChanges(from: local.replica, to: merged), at: moment(second))
        return merged
    }
}
