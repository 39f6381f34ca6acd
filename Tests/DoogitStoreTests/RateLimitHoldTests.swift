@testable import DoogitStore
import DoogitSupport
import Testing

/// A rate limit GitHub asked to wait out is kept per API origin: the later hold wins, and one
/// that has passed holds nothing.
@Suite("Store: rate limits kept across commands")
struct RateLimitHoldTests {
    @Test func theLaterHoldOfAnOriginStandsUntilItPasses() throws {
        let store = try memoryStore()
        let github = "https://api.github.com", enterprise = "https://ghe.example.com"
        #expect(try store.rateLimitHold(origin: github, at: moment(0)) == nil)
        try store.keepRateLimitHold(RateLimitHold(until: moment(120), kind: .secondary), origin: github, at: moment(0))
        try store.keepRateLimitHold(RateLimitHold(until: moment(60), kind: .primary), origin: github, at: moment(1))
        #expect(try store.rateLimitHold(origin: github, at: moment(2)) == RateLimitHold(until: moment(120), kind: .secondary))
        #expect(try store.rateLimitHold(origin: enterprise, at: moment(2)) == nil, "another GitHub is not held")
        #expect(try store.rateLimitHold(origin: github, at: moment(120)) == nil, "passed")
        try store.keepRateLimitHold(RateLimitHold(until: moment(3600), kind: .primary), origin: enterprise, at: moment(200))
        #expect(try store.count("SELECT count(*) FROM rate_limit_holds") == 1, "a hold that passed is forgotten")
    }
}
