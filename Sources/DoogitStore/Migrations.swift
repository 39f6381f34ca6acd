/// One step of the schema. `version` is its place in the order, which PRAGMA user_version records.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String
}

public enum Migrations {
    /// The schema's steps in order, embedded in the binary from `migrations/*.sql` so that a
    /// moved binary needs nothing on disk. A test checks this list against that folder.
    public static let all: [Migration] = [
        Migration(version: 1, name: "m0001_init", sql: String(decoding: PackageResources.m0001_init_sql, as: UTF8.self)),
        Migration(version: 2, name: "m0002_listing_cache",
                  sql: String(decoding: PackageResources.m0002_listing_cache_sql, as: UTF8.self)),
        Migration(version: 3, name: "m0003_repository_names",
                  sql: String(decoding: PackageResources.m0003_repository_names_sql, as: UTF8.self)),
        Migration(version: 4, name: "m0004_restorable_removals",
                  sql: String(decoding: PackageResources.m0004_restorable_removals_sql, as: UTF8.self)),
        Migration(version: 5, name: "m0005_issues", sql: String(decoding: PackageResources.m0005_issues_sql, as: UTF8.self)),
        Migration(version: 6, name: "m0006_remote", sql: String(decoding: PackageResources.m0006_remote_sql, as: UTF8.self)),
        Migration(version: 7, name: "m0007_observations",
                  sql: String(decoding: PackageResources.m0007_observations_sql, as: UTF8.self)),
        Migration(version: 8, name: "m0008_remote_files",
                  sql: String(decoding: PackageResources.m0008_remote_files_sql, as: UTF8.self)),
        Migration(version: 9, name: "m0009_todo_details",
                  sql: String(decoding: PackageResources.m0009_todo_details_sql, as: UTF8.self)),
        Migration(version: 10, name: "m0010_remote_modes",
                  sql: String(decoding: PackageResources.m0010_remote_modes_sql, as: UTF8.self)),
        Migration(version: 11, name: "m0011_tag_set", sql: String(decoding: PackageResources.m0011_tag_set_sql, as: UTF8.self)),
        Migration(version: 12, name: "m0012_read_progress",
                  sql: String(decoding: PackageResources.m0012_read_progress_sql, as: UTF8.self)),
        Migration(version: 13, name: "m0013_label_filter",
                  sql: String(decoding: PackageResources.m0013_label_filter_sql, as: UTF8.self)),
        Migration(version: 14, name: "m0014_rate_limit_holds",
                  sql: String(decoding: PackageResources.m0014_rate_limit_holds_sql, as: UTF8.self)),
        Migration(version: 15, name: "m0015_board", sql: String(decoding: PackageResources.m0015_board_sql, as: UTF8.self)),
        Migration(version: 16, name: "m0016_list_order",
                  sql: String(decoding: PackageResources.m0016_list_order_sql, as: UTF8.self)),
        Migration(version: 17, name: "m0017_priority_index",
                  sql: String(decoding: PackageResources.m0017_priority_index_sql, as: UTF8.self)),
        Migration(version: 18, name: "m0018_todo_counts",
                  sql: String(decoding: PackageResources.m0018_todo_counts_sql, as: UTF8.self)),
        Migration(version: 19, name: "m0019_who", sql: String(decoding: PackageResources.m0019_who_sql, as: UTF8.self)),
        Migration(version: 20, name: "m0020_shares", sql: String(decoding: PackageResources.m0020_shares_sql, as: UTF8.self)),
    ]

    public static var latestVersion: Int { all.count }
}
