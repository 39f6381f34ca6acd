@testable import DoogitStore
import DoogitSupport
import Foundation
import Testing

/// A read that takes more than one run, and the listings' pages kept apart.
@Suite struct ReadProgressTests {
    @Test func whatWasReadGoesLastUntilTheReadIsWhole() throws {
        let store = try memoryStore()
        let progress = store.readProgress(ReadProgress.repositories)
        #expect(try progress.unreadFirst([1, 2, 3, 4, 5]) { String($0) } == [1, 2, 3, 4, 5])
        try progress.note([("2", nil), ("4", nil)])
        try progress.note([("5", nil)])
        #expect(try progress.unreadFirst([1, 2, 3, 4, 5]) { String($0) } == [1, 3, 2, 4, 5])
        // Each read is its own.
        #expect(try store.readProgress("another").unreadFirst([2, 1]) { String($0) } == [2, 1])
        try progress.finish()
        #expect(try progress.itemsRead().isEmpty)
        #expect(try progress.unreadFirst([5, 4]) { String($0) } == [5, 4])
    }

    /// What a reader keeps of an item (a file's text) is handed back; bytes that are not UTF-8
    /// text are not kept, and their item is read again.
    @Test func whatIsKeptIsHandedBack() throws {
        let store = try memoryStore()
        let progress = store.readProgress("remote octocat/todos")
        let text = Array("{\"a\":1}\n".utf8)
        try progress.note([("sha1", text), ("sha2", [0xFF, 0xFE]), ("sha3", [])])
        #expect(try progress.kept(["sha1", "sha2", "sha3", "sha4"]) == ["sha1": text, "sha3": []])
        #expect(try Set(progress.itemsRead().keys) == ["sha1", "sha3"])
    }

    /// A store that cannot write leaves the progress as it was: nothing half-noted.
    @Test func aNoteIsOneTransaction() throws {
        let store = try memoryStore()
        let progress = store.readProgress(ReadProgress.repositories)
        try store.database.execute("""
            CREATE TRIGGER refuse_third BEFORE INSERT ON read_progress WHEN NEW.item = '3'
            BEGIN SELECT RAISE(ABORT, 'refused'); END
            """)
        #expect(throws: (any Error).self) { try progress.note([("1", nil), ("2", nil), ("3", nil)]) }
        #expect(try progress.itemsRead().isEmpty)
    }

    @Test func eachListingsPagesAreReplacedOnTheirOwn() throws {
        let store = try memoryStore()
        func page(_ url: String) -> CachedPage { CachedPage(url: url, etag: "\"e\"", nextURL: nil, content: "[]") }
        let user = CachedPage.userListing
        let owner = CachedPage.ownerListing("BigOrg")
        #expect(owner == "users/bigorg")
        try store.saveCachedPages([page("u1"), page("u2")], listing: user, replacingAll: true, at: moment(0))
        try store.saveCachedPages([page("o1"), page("o2")], listing: owner, replacingAll: true, at: moment(0))
        try store.saveCachedPages([page("u1")], listing: user, replacingAll: true, at: moment(1))
        #expect(try store.cachedPage(url: "u2") == nil, "the user's listing no longer reaches it")
        #expect(try store.cachedPage(url: "o2") != nil, "another listing's pages stay")
        try store.forgetListings(except: [user])
        #expect(try store.cachedPage(url: "o1") == nil)
        #expect(try store.cachedPage(url: "u1") != nil)
    }

    /// The pages cached before there were several listings are the user's.
    @Test func pagesCachedBeforeAreTheUsers() throws {
        let directory = try ScratchDirectory()
        let database = try Database(path: directory.file("doogit.db"))
        try Migrator.migrate(database, to: Array(Migrations.all.prefix(9)))
        try database.execute("""
            INSERT INTO listing_pages (url, etag, next_url, repositories, fetched_at)
            VALUES ('https://api.github.com/user/repos', '"e"', NULL, '[]', '2026-01-01T00:00:00.000Z')
            """)
        try Migrator.migrate(database)
        #expect(try database.scalarString("SELECT listing FROM listing_pages") == CachedPage.userListing)
    }
}
