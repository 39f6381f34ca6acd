import DoogitSupport

/// A rate limit GitHub asked to wait out: nothing goes to that API before `until`.
public struct RateLimitHold: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// The hour's requests are used up.
        case primary
        /// Too many requests at once, or in a minute, or too much content created.
        case secondary
    }

    public var until: Timestamp
    public var kind: Kind

    public init(until: Timestamp, kind: Kind) {
        self.until = until
        self.kind = kind
    }
}

extension Store {
    /// The hold on this API origin that lasts past `now`, if any.
    public func rateLimitHold(origin: String, at now: Timestamp) throws -> RateLimitHold? {
        try database.query("SELECT until, kind FROM rate_limit_holds WHERE origin = ?", [.text(origin)]) { row throws(StoreError) in
            guard let kind = RateLimitHold.Kind(rawValue: try row.string("kind")) else { throw StoreError.corrupt }
            return RateLimitHold(until: try Self.timestamp(row, "until"), kind: kind)
        }.first.flatMap { $0.until > now ? $0 : nil }
    }

    /// Keeps a hold on this API origin (the later of it and the one kept), and forgets holds
    /// that have passed.
    public func keepRateLimitHold(_ hold: RateLimitHold, origin: String, at now: Timestamp) throws {
        try database.transaction { () throws(StoreError) in
            try database.run("DELETE FROM rate_limit_holds WHERE until <= ?", .text(now.rfc3339))
            try database.run("""
                INSERT INTO rate_limit_holds (origin, until, kind) VALUES (?1, ?2, ?3)
                ON CONFLICT (origin) DO UPDATE SET until = ?2, kind = ?3 WHERE excluded.until > until
                """, .text(origin), .text(hold.until.rfc3339), .text(hold.kind.rawValue))
        }
    }
}
