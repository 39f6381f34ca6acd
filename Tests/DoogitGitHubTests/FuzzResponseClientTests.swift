@testable import DoogitGitHub
import Testing
import TestSupport

/// Random statuses, headers and bodies from "GitHub" for GitHubClient over an in-memory
/// transport. Nothing may trap or hang, and the token may only ever travel to the configured API
/// origin.
///
/// The generated batches run in child processes (exit tests), so that a trap fails the test
/// with the seed and the input that caused it rather than ending the whole test run. Every case
/// is a function of (seed, case number) alone.
struct FuzzResponseClientTests {
    static let clientSeeds: [UInt64] = [0xC11E_0001, 0xC11E_0002]
    static let clientCasesPerSeed = 1500

    // Regressions: answers that trapped GitHubClient on Int64 overflow at commit 6ed4c95 (found by
    // theClientSurvivesAnyAnswer; fixed in 47c51bd). Each runs in a child process, so that a trap
    // fails only its own test.

    /// Trapped in `Timestamp(secondsSinceEpoch:)` (`seconds * 1000`), from `recordRateLimit`.
    @Test func aRateLimitResetBeyondInt64MillisecondsIsARateLimitError() async {
        await #expect(processExitsWith: .success, "403, x-ratelimit-remaining 0, x-ratelimit-reset 9223372036854775807") {
            let client = FixedAnswer.client(status: 403, headers: [("x-ratelimit-remaining", "0"),
                                                                   ("x-ratelimit-reset", "9223372036854775807")])
            FixedAnswer.expectError(client, "a rate limit that lifts at the end of time") { error in
                if case .rateLimited = error { return true }
                return false
            }
        }
    }

    /// Trapped in `Timestamp(secondsSinceEpoch:)` from `recordRateLimit`, on any status.
    @Test func aHugeRateLimitResetOnASuccessIsRecordedWithoutTrapping() async {
        await #expect(processExitsWith: .success, "200, x-ratelimit-remaining 5, x-ratelimit-reset 9223372036854775807") {
            let client = FixedAnswer.client(status: 200, headers: [("x-ratelimit-remaining", "5"),
                                                                   ("x-ratelimit-reset", "9223372036854775807")],
                                            body: #"{"login":"octocat","id":1}"#)
            #expect(throws: Never.self) { try client.currentUser() }
            #expect(client.rateLimit?.remaining == 5)
        }
    }

    /// Trapped in `sendWithRetries` computing the wait: `reset - now` below Int64.min.
    @Test func aRateLimitResetFarInThePastIsARateLimitError() async {
        await #expect(processExitsWith: .success, "403, x-ratelimit-remaining 0, x-ratelimit-reset -9223372036854775") {
            let client = FixedAnswer.client(status: 403, headers: [("x-ratelimit-remaining", "0"),
                                                                   ("x-ratelimit-reset", "-9223372036854775")])
            FixedAnswer.expectError(client, "a rate limit that lifted long ago") { error in
                if case .rateLimited = error { return true }
                return false
            }
        }
    }

    /// Trapped in `GitHubClient.error(for:)`: `seconds * 1000` of Retry-After.
    @Test func aHugeRetryAfterOnA429IsARateLimitError() async {
        await #expect(processExitsWith: .success, "429, retry-after 9223372036854775807") {
            let client = FixedAnswer.client(status: 429, headers: [("retry-after", "9223372036854775807")])
            FixedAnswer.expectError(client, "a rate limit with a retry-after beyond Int64 milliseconds") { error in
                if case .secondaryRateLimited = error { return true }
                return false
            }
        }
    }

    /// Trapped in `retryAfterMilliseconds`: `seconds * 1000` of Retry-After, before a retry.
    @Test func aHugeRetryAfterOnA503IsAServerError() async {
        await #expect(processExitsWith: .success, "503, retry-after 9223372036854775807") {
            let client = FixedAnswer.client(status: 503, headers: [("retry-after", "9223372036854775807")])
            FixedAnswer.expectError(client, "a 503 with a retry-after beyond Int64 milliseconds") { error in
                error == .serverError(status: 503)
            }
        }
    }

    /// The fuzzer's own check of where the token may go, pinned down: it must not be fooled by
    /// the tricks it looks for.
    @Test func theFuzzersOriginCheckIsStrict() {
        let origins = ClientFuzzer.endpoints[0].origins
        #expect(ClientFuzzer.isOnOrigin("https://api.github.com", origins))
        #expect(ClientFuzzer.isOnOrigin("https://api.github.com/user", origins))
        #expect(ClientFuzzer.isOnOrigin("HTTPS://API.GITHUB.COM:443/repositories/1?x=1", origins))
        for url in ["https://api.github.com.evil.example/x", "https://api.github.com@evil.example/x", "http://api.github.com/x",
                    "https://api.github.com:444/x", "https://evil.example/https://api.github.com/", "//api.github.com/x",
                    "https://api.github.comx/", "https://api.github.com:443@evil.example/"] {
            #expect(!ClientFuzzer.isOnOrigin(url, origins), "\(url)")
        }
        #expect(ClientFuzzer.isOnOrigin("https://[::1]:8443/api/user", ClientFuzzer.endpoints[3].origins))
        #expect(!ClientFuzzer.isOnOrigin("https://[::1]:8444/api/user", ClientFuzzer.endpoints[3].origins))
        for url in ["https://evil.example/", "http://127.0.0.1:1/x", "http://localhost/x", "http://[::1]:80/x", "HTTP://127.0.0.9"] {
            #expect(ClientFuzzer.isSecureOrLoopback(url), "\(url)")
        }
        for url in ["http://evil.example/", "http://127.0.0.1.evil.example/", "http://127.0.0.1@evil.example/", "ftp://x/",
                    "http://localhost.evil.example/", "http://[::2]/", "http://128.0.0.1/"] {
            #expect(!ClientFuzzer.isSecureOrLoopback(url), "\(url)")
        }
    }

    @Test(arguments: clientSeeds)
    func theClientSurvivesAnyAnswer(seed: UInt64) async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success,
                                     "the client batch of seed \(FuzzText.hex(seed)) must end without a trap") {
            [seed = seed as UInt64, progress = progress as String, cases = Self.clientCasesPerSeed as Int] in
            ClientFuzzer.runBatch(seed: seed, cases: cases, progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse client seed \(FuzzText.hex(seed))", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }
}
