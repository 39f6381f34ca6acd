import DoogitSupport

/// A page of a listing as sync last read it: its ETag, the next page's URL, and its content in
/// a form of the caller's choosing (the store does not read it).
public struct CachedPage: Equatable, Sendable {
    public var url: String
    public var etag: String
    public var nextURL: String?
    public var content: String

    public init(url: String, etag: String, nextURL: String?, content: String) {
        self.url = url
        self.etag = etag
        self.nextURL = nextURL
        self.content = content
    }
}

extension CachedPage {
    /// The listing of the signed-in user's repositories (`GET /user/repos`).
    public static let userListing = "user"

    /// The listing of an owner's repositories (`GET /users/{owner}/repos`).
    public static func ownerListing(_ owner: String) -> String { "users/" + owner.lowercased() }
}

extension Store {
    public func cachedPage(url: String) throws -> CachedPage? {
        try database.query("SELECT url, etag, next_url, repositories FROM listing_pages WHERE url = ?", [.text(url)]) {
            row throws(StoreError) in
            CachedPage(url: try row.string(0), etag: try row.string(1), nextURL: row.optionalString(2),
                       content: try row.string(3))
        }.first
    }

    /// Saves these pages of `listing` in one transaction; with `replacingAll` (the listing was
    /// read to its end) its pages no longer reached are forgotten.
    public func saveCachedPages(_ pages: [CachedPage], listing: String = CachedPage.userListing, replacingAll: Bool,
                                at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            if replacingAll { try database.run("DELETE FROM listing_pages WHERE listing = ?", .text(listing)) }
            for page in pages {
                try database.run("""
                    INSERT OR REPLACE INTO listing_pages (url, etag, next_url, repositories, fetched_at, listing)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, .text(page.url), .text(page.etag), .optional(page.nextURL), .text(page.content),
                    .text(now.rfc3339), .text(listing))
            }
        }
    }

    /// Forgets the pages of every listing but these (the owners no longer read by their listing).
    public func forgetListings(except kept: Set<String>) throws {
        try database.transaction { () throws(StoreError) in
            let listings = try database.query("SELECT DISTINCT listing FROM listing_pages") { row throws(StoreError) in
                try row.string(0)
            }
            for listing in listings where !kept.contains(listing) {
                _ = try database.run("DELETE FROM listing_pages WHERE listing = ?", .text(listing))
            }
        }
    }

    /// Records that GitHub confirmed these repositories unchanged, in one transaction.
    public func markSynced(ids: [Int64], at now: Timestamp) throws {
        guard !ids.isEmpty else { return }
        try database.transaction { () throws(StoreError) in
            for id in ids {
                try database.run("UPDATE repositories SET synced_at = ? WHERE id = ?", .text(now.rfc3339), .integer(id))
            }
        }
    }
}
