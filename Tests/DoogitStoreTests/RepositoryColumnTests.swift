@testable import DoogitStore
import Testing

/// A repository's row is read by position (`RepositoryColumn`): the positions must be those of
/// `Store.repositoryColumns`, or every field would be read from its neighbour.
@Suite struct RepositoryColumnTests {
    @Test func eachPositionIsItsColumn() throws {
        let names: [RepositoryColumn: String] = [
            .id: "repository_id", .owner: "owner", .name: "name", .fullName: "full_name", .description: "description",
            .url: "html_url", .isPrivate: "private", .archived: "archived", .gone: "gone", .pushedAt: "pushed_at",
            .remoteUpdatedAt: "remote_updated_at", .etag: "etag", .addedAt: "added_at", .syncedAt: "synced_at",
            .defaultBranch: "default_branch", .pushIssues: "push_issues", .importIssues: "import_issues",
            .scanCommits: "scan_commits",
        ]
        let store = try memoryStore()
        var saved = repository(7, "octo/cat", description: "the cat")
        (saved.pushedAt, saved.remoteUpdatedAt, saved.etag, saved.defaultBranch) = ("p", "u", "\"e\"", "main")
        try store.saveRepository(saved)
        let positions = try store.database.query("SELECT \(Store.repositoryColumns), 1 AS extra FROM repositories r") {
            row throws(StoreError) in RepositoryColumn.allCases.map { row.position(of: names[$0] ?? "") == $0.rawValue }
        }
        #expect(positions == [Array(repeating: true, count: RepositoryColumn.allCases.count)])
        #expect(names.count == RepositoryColumn.allCases.count)
        #expect(try store.repository(id: 7) == saved)
    }
}
