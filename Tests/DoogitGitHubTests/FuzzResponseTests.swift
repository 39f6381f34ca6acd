@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Hostile answers from "GitHub": mutated and malformed JSON for the decoders, and random
/// statuses, headers and bodies for GitHubClient over an in-memory transport. Nothing may trap
/// or hang, and the token may only ever travel to the configured API origin.
///
/// The generated batches run in child processes (exit tests), so that a trap fails the test
/// with the seed and the input that caused it rather than ending the whole test run. Every case
/// is a function of (seed, case number) alone.
struct FuzzResponseTests {
    static let decoderSeeds: [UInt64] = [0xD0C0_DE01, 0xD0C0_DE02]
    static let clientSeeds: [UInt64] = [0xC11E_0001, 0xC11E_0002]
    static let clientCasesPerSeed = 1500

    // MARK: (a) decoders

    @Test func everyFixtureIsThere() {
        for name in JSONFuzzer.fixtureNames {
            #expect(!Fixtures.text(name).isEmpty, "missing fixture \(name)")
        }
    }

    @Test(arguments: decoderSeeds)
    func mutatedFixturesNeverTrapTheDecoders(seed: UInt64) async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success,
                                     "the decoder batch of seed \(FuzzText.hex(seed)) must end without a trap") {
            [seed = seed as UInt64, progress = progress as String] in
            JSONFuzzer.runMutations(seed: seed, progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse decoders seed \(FuzzText.hex(seed))", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    @Test func truncatedFixturesAreSyntaxErrors() async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success, "truncated documents must not trap the decoders") {
            [progress = progress as String] in
            JSONFuzzer.runTruncations(progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse truncations", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    @Test func wrongTypesForEveryFieldAreDecodingErrors() async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success, "wrong-typed fields must not trap the decoders") {
            [progress = progress as String] in
            JSONFuzzer.runWrongTypes(progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse wrong types", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    @Test func hostileDocumentsAreRejectedOrReadWhole() async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success, "hostile documents must not trap the parser") {
            [progress = progress as String] in
            JSONFuzzer.runHostileDocuments(progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse hostile documents", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    // MARK: (b) GitHubClient over scripted answers

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

// MARK: - (a) The decoder fuzzer

fileprivate enum JSONFuzzer {
    static let fixtureNames = [
        "repo-full.json", "repo-simple-null-description.json", "user-repos.json", "user-repos-null-description.json",
        "user.json", "error-301-moved.json", "error-401.json", "error-403-rate-limit.json", "error-404.json",
        "error-422.json",
    ]
    static let maximumIssues = 20
    static let mutationsPerSeed = 2000

    static func fixtures() -> [(name: String, bytes: [UInt8])] {
        fixtureNames.map { ($0, Array(Fixtures.text($0).utf8)) }
    }

    /// Collects failures and records the first few as issues.
    final class Report {
        let label: String
        private var recorded = 0
        private var more = 0

        init(_ label: String) {
            self.label = label
        }

        func fail(_ message: String) {
            if recorded < JSONFuzzer.maximumIssues {
                recorded += 1
                Issue.record(Comment(rawValue: "\(label): \(message)"))
            } else {
                more += 1
            }
        }

        func finish() {
            if more > 0 { Issue.record(Comment(rawValue: "\(label): \(more) more failures not shown")) }
        }
    }

    /// Parses, decodes every way GitHubClient would, and checks that a parsed document writes
    /// back to the same value. Returns the parse result for further checks.
    @discardableResult
    static func exercise(_ bytes: [UInt8], _ describe: @autoclosure () -> String, report: Report,
                         roundTrip: Bool = true) -> Result<JSONValue, JSONError> {
        let parsed = Result { () throws(JSONError) in try JSONParser.parse(bytes) }
        if bytes.count <= 8192 {
            // How GitHubClient reads the message of an error answer.
            _ = GitHubClient.error(for: HTTPResponse(status: 422, body: bytes))
        }
        guard case .success(let value) = parsed else { return parsed }
        decodeEveryWay(value, describe(), report: report)
        guard roundTrip else { return parsed }
        let written = JSONWriter.write(value)
        switch Result(catching: { () throws(JSONError) in try JSONParser.parse(written) }) {
        case .success(let again):
            if again != value { report.fail("\(describe()): JSONWriter's output parses to another value") }
        case .failure(let error):
            report.fail("\(describe()): JSONWriter's output does not parse: \(error)")
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            let fromText = Result { () throws(JSONError) in try JSONParser.parse(text) }
            if case .success(let other) = fromText, other == value {} else {
                report.fail("\(describe()): parsing the text and its bytes disagree")
            }
        }
        return parsed
    }

    static func decodeEveryWay(_ value: JSONValue, _ description: String, report: Report) {
        var candidates = [value]
        if case .array(let elements) = value { candidates += elements }
        if let owner = value["owner"] { candidates.append(owner) }
        for candidate in candidates {
            do {
                let repository = try GitHubRepository(json: candidate)
                if repository.id <= 0 || repository.owner.isEmpty || repository.name.isEmpty {
                    report.fail("\(description): decoded a repository without a positive id, owner and name: \(repository)")
                }
            } catch {
                _ = error  // a JSONError, by the decoder's type
            }
            do {
                _ = try GitHubUser(json: candidate)
            } catch {
                _ = error
            }
        }
    }

    static let invalidUTF8: [[UInt8]] = [
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xFF],
        [0xFE], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xBF, 0xBF], [0xF8, 0x88, 0x80, 0x80, 0x80],
        [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0x80],
    ]
    static let interestingBytes: [UInt8] = Array("\"\\{}[],:-0123456789eE.+tfn /u".utf8) + [0x00, 0x01, 0x1F, 0x7F, 0x80, 0xC0, 0xFF]

    /// Byte flips, random insertions and invalid UTF-8 sequences in the fixtures.
    static func runMutations(seed: UInt64, progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse decoders seed \(FuzzText.hex(seed))")
        let fixtures = fixtures()
        var cases = 0

        // Byte flips, insertions of random and structural bytes, invalid UTF-8.
        for index in 0..<mutationsPerSeed {
            var random = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
            let (name, original) = fixtures[Int.random(in: 0..<fixtures.count, using: &random)]
            guard !original.isEmpty else { continue }
            var bytes = original
            var steps: [String] = []
            let kind = index % 3
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch kind {
                case 0:
                    let mask = UInt8.random(in: 1...255, using: &random)
                    bytes[position] ^= mask
                    steps.append("flip \(position) ^\(mask)")
                case 1:
                    let count = Int.random(in: 1...16, using: &random)
                    let inserted: [UInt8] = (0..<count).map { _ in
                        Bool.random(using: &random) ? interestingBytes.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                    }
                    bytes.insert(contentsOf: inserted, at: position)
                    steps.append("insert \(inserted) at \(position)")
                default:
                    let sequence = invalidUTF8.randomElement(using: &random)!
                    // Mostly inside a string, where a parser must carry it through.
                    let target = bytes[position...].firstIndex(of: UInt8(ascii: "\"")).map { $0 + 1 } ?? position
                    bytes.insert(contentsOf: sequence, at: min(target, bytes.count))
                    steps.append("insert \(sequence) at \(min(target, bytes.count))")
                }
            }
            cases += 1
            let description = "case \(index): \(name) \(steps.joined(separator: ", "))"
            progress.note("FuzzResponse decoders seed \(FuzzText.hex(seed)) \(description)")
            exercise(bytes, description, report: report)
        }
        progress.note("FuzzResponse decoders seed \(FuzzText.hex(seed)): \(cases) cases done")
        report.finish()
    }

    /// Truncations at every N bytes of every fixture (every byte near both ends): a proper prefix
    /// of an object or array document is never a document, and the whole one parses.
    static func runTruncations(progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse truncations")
        var cases = 0
        for (name, bytes) in fixtures() where !bytes.isEmpty {
            let full = try? JSONParser.parse(bytes)
            let lastSignificant = bytes.lastIndex { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } ?? 0
            let stride = max(1, bytes.count / 400)
            var cuts = Set(Swift.stride(from: 0, through: bytes.count, by: stride))
            cuts.formUnion(0...min(48, bytes.count))
            cuts.formUnion(max(0, bytes.count - 48)...bytes.count)
            for cut in cuts.sorted() {
                cases += 1
                let description = "\(name) cut at byte \(cut) of \(bytes.count)"
                progress.note("FuzzResponse truncations: \(description)")
                let result = exercise(Array(bytes[..<cut]), description, report: report)
                switch result {
                case .success(let value) where cut <= lastSignificant:
                    report.fail("\(description): a truncated document parsed as \(FuzzText.describe(JSONWriter.write(value)))")
                case .success(let value) where value != full:
                    report.fail("\(description): the whole document parsed differently")
                case .failure where cut > lastSignificant:
                    report.fail("\(description): the whole document (and trailing whitespace) did not parse")
                default:
                    break
                }
            }
        }
        progress.note("FuzzResponse truncations: \(cases) cases done")
        report.finish()
    }

    /// The fields each decoder reads, and which values of them it must accept.
    static func repositoryFieldAccepts(_ field: String, _ value: JSONValue?) -> Bool? {
        switch field {
        case "id":
            guard case .number(let text)? = value, let id = Int64(text) else { return false }
            return id > 0
        case "name":
            guard case .string(let text)? = value else { return false }
            return !text.isEmpty
        case "full_name", "html_url":
            if case .string? = value { return true }
            return false
        case "private":
            if case .bool? = value { return true }
            return false
        case "archived":
            switch value {
            case nil, .null?, .bool?: return true
            default: return false
            }
        case "description", "pushed_at", "updated_at", "default_branch":
            switch value {
            case nil, .null?, .string?: return true
            default: return false
            }
        case "owner":
            // Null or left out (some of GitHub's schemas allow it): the full name names the owner.
            guard let value, value != .null else { return true }
            guard case .object = value, case .string(let login)? = value["login"] else { return false }
            return !login.isEmpty
        default:
            return nil  // not read: anything goes
        }
    }

    static let wrongValues: [JSONValue] = [
        .null, .bool(true), .bool(false), .number("0"), .number("-1"), .number("1.5"), .number("1e400"),
        .number("99999999999999999999"), .number("9223372036854775808"), .number("-9223372036854775809"),
        .number("9223372036854775807"), .string(""), .string("x"), .string("1"), .string("\u{1B}[31m\u{202E}"),
        .array([]), .array([.number("1")]), .object([]), .object([JSONMember("login", .string("x"))]),
        .object([JSONMember("login", .string(""))]),
    ]

    /// Each wrong value, then nil: the field removed.
    static let wrongValuesOrRemoved: [JSONValue?] = wrongValues.map { $0 } + [nil]

    /// Every field of a repository, of its owner and of a user, replaced by each wrong type or removed.
    static func runWrongTypes(progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse wrong types")
        let repository = Fixtures.json("repo-full.json")
        let user = Fixtures.json("user.json")
        guard case .object(let members) = repository, case .object(let userMembers) = user,
              case .object(let ownerMembers)? = repository["owner"] else {
            report.fail("the fixtures repo-full.json and user.json are not objects")
            return
        }
        let baseline = try? GitHubRepository(json: repository)
        if baseline == nil { report.fail("repo-full.json does not decode") }
        // The documents below are built as values; each wrong value also goes through the parser,
        // alone and in a whole repository.
        for value in wrongValues {
            let text = JSONWriter.write(value)
            progress.note("FuzzResponse wrong types: parsing \(FuzzText.describe(text))")
            exercise(Array(text.utf8), "the value \(FuzzText.describe(text))", report: report)
            exercise(Array(JSONWriter.write(repository.replacing(["id": value, "description": value])).utf8),
                     "a repository with id and description \(FuzzText.describe(text))", report: report, roundTrip: false)
        }

        func check(_ document: JSONValue, expectSuccess: Bool, equalTo expected: GitHubRepository?, _ description: String) {
            progress.note("FuzzResponse wrong types: \(description)")
            switch Result(catching: { () throws(JSONError) in try GitHubRepository(json: document) }) {
            case .success(let decoded):
                if !expectSuccess { report.fail("\(description): decoded although it must not: \(decoded)") }
                if expectSuccess, let expected, decoded != expected {
                    report.fail("\(description): decoded to \(decoded), expected \(expected)")
                }
            case .failure(let error):
                if expectSuccess { report.fail("\(description): refused with \(error)") }
            }
        }

        for member in members {
            for value in wrongValuesOrRemoved {
                let document: JSONValue
                if let value {
                    document = repository.replacing([member.key: value])
                } else {
                    document = .object(members.filter { $0.key != member.key })
                }
                let accepts = repositoryFieldAccepts(member.key, value)
                var expected = baseline
                if accepts == true {
                    expected = nil  // accepted with another value: not compared
                }
                check(document, expectSuccess: accepts ?? true, equalTo: expected,
                      "repository field '\(member.key)' = \(value.map { FuzzText.describe(JSONWriter.write($0)) } ?? "(removed)")")
            }
        }
        for member in ownerMembers {
            for value in wrongValuesOrRemoved {
                let owner: JSONValue = value.map { JSONValue.object(ownerMembers).replacing([member.key: $0]) }
                    ?? .object(ownerMembers.filter { $0.key != member.key })
                let accepts = repositoryFieldAccepts("owner", owner)
                check(repository.replacing(["owner": owner]), expectSuccess: accepts ?? true,
                      equalTo: member.key == "login" ? nil : baseline,
                      "owner field '\(member.key)' = \(value.map { FuzzText.describe(JSONWriter.write($0)) } ?? "(removed)")")
            }
        }
        for member in userMembers {
            for value in wrongValuesOrRemoved {
                let document = value.map { user.replacing([member.key: $0]) } ?? .object(userMembers.filter { $0.key != member.key })
                let description = "user field '\(member.key)' = \(value.map { FuzzText.describe(JSONWriter.write($0)) } ?? "(removed)")"
                progress.note("FuzzResponse wrong types: \(description)")
                var accepts = true
                switch member.key {
                case "login":
                    if case .string? = value {} else { accepts = false }
                case "id":
                    if case .number(let text)? = value, Int64(text) != nil {} else { accepts = false }
                default:
                    break
                }
                switch Result(catching: { () throws(JSONError) in try GitHubUser(json: document) }) {
                case .success(let decoded):
                    if !accepts { report.fail("\(description): decoded although it must not: \(decoded)") }
                case .failure(let error):
                    if accepts { report.fail("\(description): refused with \(error)") }
                }
            }
        }
        report.finish()
    }

    /// Deep nesting, huge strings, numbers beyond Int64, odd escapes.
    static func runHostileDocuments(progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse hostile documents")
        let levels = 100_000
        let deep: [(String, [UInt8], Bool)] = [
            ("100,000 '['", Array(repeating: UInt8(ascii: "["), count: levels), false),
            ("100,000 nested arrays, closed", Array(repeating: UInt8(ascii: "["), count: levels) + Array(repeating: UInt8(ascii: "]"), count: levels), false),
            ("100,000 '{\"a\":'", Array(String(repeating: "{\"a\":", count: levels).utf8), false),
            ("100,000 nested objects, closed", Array((String(repeating: "{\"a\":", count: levels) + "1" + String(repeating: "}", count: levels)).utf8), false),
            ("100,000 alternating '[{\"a\":'", Array(String(repeating: "[{\"a\":", count: levels / 2).utf8), false),
            ("a repository whose owner is nested 100,000 deep",
             Array(("{\"id\":1,\"name\":\"x\",\"full_name\":\"a/x\",\"html_url\":\"u\",\"private\":false,\"owner\":"
                    + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}").utf8), false),
            ("100 nested arrays", Array(repeating: UInt8(ascii: "["), count: 100) + Array(repeating: UInt8(ascii: "]"), count: 100), true),
        ]
        for (description, bytes, valid) in deep {
            progress.note("FuzzResponse hostile documents: \(description)")
            let result = exercise(bytes, description, report: report, roundTrip: bytes.count < 200_000)
            switch result {
            case .success where !valid: report.fail("\(description): parsed")
            case .failure(let error) where valid: report.fail("\(description): refused with \(error)")
            case .failure(let error) where !valid && error != .tooDeep:
                report.fail("\(description): refused with \(error), expected .tooDeep")
            default: break
            }
        }

        let repository = Fixtures.json("repo-full.json")
        let huge = String(repeating: "é漢👍🏽x", count: 1 << 16)  // about 800 kB of UTF-8
        let hugeCases: [(String, JSONValue, Bool)] = [
            ("an 800 kB description", repository.replacing(["description": .string(huge)]), true),
            ("an 800 kB name", repository.replacing(["name": .string(huge)]), true),
            ("an 800 kB member name", repository.replacing([huge: .string("x")]), true),
            ("an id of 100,000 digits", repository.replacing(["id": .number(String(repeating: "9", count: 100_000))]), false),
            ("an id of Int64.max", repository.replacing(["id": .number(String(Int64.max))]), true),
            ("an id of Int64.max + 1", repository.replacing(["id": .number("9223372036854775808")]), false),
            ("an id with an exponent of 100,000 digits", repository.replacing(["id": .number("1e" + String(repeating: "9", count: 100_000))]), false),
        ]
        for (description, document, decodes) in hugeCases {
            progress.note("FuzzResponse hostile documents: \(description)")
            let bytes = Array(JSONWriter.write(document).utf8)
            guard case .success(let value) = exercise(bytes, description, report: report, roundTrip: false) else {
                report.fail("\(description): did not parse")
                continue
            }
            let decoded = try? GitHubRepository(json: value)
            if (decoded != nil) != decodes { report.fail("\(description): decoded \(decoded != nil), expected \(decodes)") }
        }

        // Whether each must parse: true, false, or nil for either (a byte order mark may be skipped).
        let documents: [(String, String, Bool?)] = [
            ("a string of 100,000 escapes", "\"" + String(repeating: "\\u0000", count: 100_000) + "\"", true),
            ("100,000 lone surrogates", "\"" + String(repeating: "\\uD800", count: 100_000) + "\"", true),
            ("50,000 reversed surrogate pairs", "\"" + String(repeating: "\\uDC00\\uD800", count: 50_000) + "\"", true),
            ("a high surrogate then a bad escape", "\"\\uD800\\uZZZZ\"", false),
            ("a high surrogate at the end", "\"\\uD800", false),
            ("a high surrogate and a backslash at the end", "\"\\uD800\\", false),
            ("a high surrogate and \\u at the end", "\"\\uD800\\u", false),
            ("a number of 100,000 digits", String(repeating: "7", count: 100_000), true),
            ("a negative number of 100,000 digits", "-" + String(repeating: "7", count: 100_000), true),
            ("a fraction of 100,000 digits", "0." + String(repeating: "7", count: 100_000), true),
            ("100,000 elements", "[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]", true),
            ("20,000 members with one name", "{" + Array(repeating: "\"a\":1", count: 20_000).joined(separator: ",") + "}", true),
            ("whitespace only", String(repeating: " \n\t\r", count: 25_000), false),
            ("a lone minus", "-", false), ("a minus and a dot", "-.", false), ("a leading zero", "01", false),
            ("an exponent without digits", "1e", false), ("an exponent sign only", "1e+", false), ("NaN", "NaN", false),
            ("Infinity", "-Infinity", false), ("a BOM", "\u{FEFF}{}", nil), ("two documents", "{}{}", false),
            ("a NUL after the document", "{}\u{0}", false), ("a trailing comma", "[1,]", false),
            ("a member without value", "{\"a\":}", false), ("single quotes", "{'a':1}", false),
            ("an unquoted name", "{a:1}", false),
        ]
        for (description, text, valid) in documents {
            progress.note("FuzzResponse hostile documents: \(description)")
            let result = exercise(Array(text.utf8), description, report: report, roundTrip: text.utf8.count < 200_000)
            switch (result, valid) {
            case (.success, false?): report.fail("\(description): parsed")
            case (.failure(let error), true?): report.fail("\(description): refused with \(error)")
            default: break
            }
        }
        progress.note("FuzzResponse hostile documents: done")
        report.finish()
    }
}

// MARK: - (b) The client fuzzer

/// An HTTPTransport whose answers are drawn from a seeded generator: random statuses, headers
/// (garbage included) and bodies, or transport errors. It records every request.
fileprivate final class ScriptedTransport: HTTPTransport {
    private var random: SplitMix64
    private let origin: String
    private let apiPrefix: String
    /// After this many requests the server stops answering, so every call ends quickly.
    let budget = 30
    private(set) var requests: [HTTPRequest] = []

    init(random: SplitMix64, origin: String, apiPrefix: String) {
        self.random = random
        self.origin = origin
        self.apiPrefix = apiPrefix
    }

    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        requests.append(request)
        guard requests.count <= budget else { throw .connection("the scripted server stopped answering") }
        if chance(0.08) {
            throw [TransportError.connection("refused"), .timeout, .tooLarge(limit: 1 << 20), .protocolError("garbled"),
                   .connection("\u{1B}[31mred\u{1B}[0m"), .unavailable("no libcurl")][int(0...5)]
        }
        let status: Int
        switch int(0...99) {
        case 0...41: status = 200
        case 42...45: status = 304
        case 46...57: status = pick([301, 302, 303, 307, 308])
        case 58...75: status = pick([401, 403, 404, 410, 422, 429, 451, 500, 502, 503, 504])
        case 76...80: status = pick([300, 305, 306, 399, 201, 204, 206, 299])
        default: status = int(100...599)
        }
        var headers: [(name: String, value: String)] = []
        if chance(0.25) { headers.append(("retry-after", pick(Self.numbers))) }
        if chance(0.3) { headers.append(("x-ratelimit-remaining", pick(Self.numbers))) }
        if chance(0.3) { headers.append(("x-ratelimit-reset", pick(Self.numbers + Self.resets))) }
        if chance((300..<400).contains(status) ? 0.85 : 0.1) { headers.append(("location", location())) }
        if chance(status == 200 ? 0.4 : 0.1) { headers.append(("link", link())) }
        if chance(0.3) { headers.append(("etag", pick(Self.etags))) }
        if chance(0.2) { headers.append(("x-oauth-scopes", pick(Self.scopes))) }
        if chance(0.05) { headers.append(("x-github-sso", pick(["required; url=https://github.com/orgs/x/sso", "partial-results", ""]))) }
        if chance(0.05) { headers.append(("x-accepted-oauth-scopes", pick(["repo", "", "\u{7}"]))) }
        if chance(0.05) { headers.append((pick(["retry-after", "x-ratelimit-remaining", "location"]), "")) }
        return HTTPResponse(status: status, headers: headers, body: body(status: status, url: request.url))
    }

    private func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    private func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    static let numbers = [
        "0", "0", "1", "2", "5", "59", "60", "3600", "-1", "-60", "", " ", "abc", "1.5", "1e3", "+5", "0x10", " 7", "7 ",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999",
        "4611686018427387904", "9223372036854775", "9223372036854776", "-9223372036854776", "Wed, 21 Oct 2015 07:28:00 GMT",
        "\u{0}", "7\r\nx-injected: 1", String(repeating: "9", count: 1000), "٣", "１",
    ]
    static let scopes = ["repo, read:org", "", ",,,", " repo ", "\u{1B}[2J", String(repeating: "s,", count: 5000)]
    static let longText = String(repeating: "m", count: 20_000)
    static let longLocation = "https://evil.example/" + String(repeating: "x", count: 10_000)
    static let manyLinks = String(repeating: "<a>; rel=x, ", count: 2000)
    static let fixtureTexts = JSONFuzzer.fixtureNames.map { Fixtures.text($0) }
    static let resets = ["9223372036854775", "-9223372036854775", "1700000000", "4102444800", "1", "-1", "253402300800", "32503680000", "-62135596800"]
    static let etags = ["\"abc\"", "W/\"abc\"", "", "\u{1B}[2J", "x\r\nx-injected: 1", String(repeating: "e", count: 10_000), "\"\u{FFFD}\""]

    private func location() -> String {
        if chance(0.5) {
            return pick(["/repositories/42", "/repos/octocat/Hello-World", apiPrefix + "/repositories/43", apiPrefix + "/user",
                         apiPrefix + "/user/repos?page=3"])
        }
        return pick([
            "/repositories/42", "/repos/octocat/Hello-World", apiPrefix + "/repositories/43", origin, origin + "/",
            origin + ":443/repositories/44", origin.uppercased() + "/repositories/45", origin + "/repositories/46?x=1#frag",
            "https://evil.example/steal", "https://evil.example:443/x", "http://evil.example/x", "http://127.0.0.1:1/x",
            "http://localhost/x", "http://[::1]/x", "https://api.github.com.evil.example/x", "https://api.github.com@evil.example/x",
            "https://evil.example@api.github.com/x", "//evil.example/x", "evil", "", " ", "::::", "javascript:alert(1)",
            "https://", "https:///x", "https://[::1]/x", "https://api.github.com:99999/x", "https://api.github.com:0/x",
            "https://ghe.example.com/api/v3/repositories/1", "https://evil.example/\u{1B}[31m", "ftp://api.github.com/x",
            Self.longLocation, "http://127.0.0.1:8080/repositories/47",
            "https://[::1]:8443/api/repositories/48", "HTTPS://EVIL.EXAMPLE/X", "https://api.github.com\u{0}.evil.example/",
            "https://api.github.com./x", "/\u{202E}x", "https://api.github.com:443@evil.example/",
        ])
    }

    private func link() -> String {
        let page = int(2...5)
        let url = pick([
            apiPrefix + "/user/repos?page=\(page)", apiPrefix + "/user/repos?per_page=100&page=\(page)",
            "https://evil.example/user/repos?page=2", "http://127.0.0.1:1/x", "/user/repos?page=2", "garbage", "",
            origin.uppercased() + "/user/repos?page=\(page)", "https://api.github.com@evil.example/p",
        ])
        return pick([
            "<\(url)>; rel=\"next\"", "<\(url)>; rel=\"next\", <\(apiPrefix)/user/repos?page=9>; rel=\"last\"",
            "<\(url)>; rel=next", "<\(url)>; rel=\"prev next\"", "<\(url)>;rel=next;", "<", "<x", "rel=\"next\"",
            "<>; rel=\"next\"", "<\(url)>; rel=\"last\"", "<\(url)>; rel=\"next", ";;;,,,<<>>", Self.manyLinks,
        ])
    }

    private func body(status: Int, url: String) -> [UInt8] {
        if status == 200 && chance(0.8) {
            if url.contains("/user/repos") { return Array(repositoryList().utf8) }
            if url.hasSuffix("/user") { return Array(user().utf8) }
            return Array(repository().utf8)
        }
        if status >= 400 && chance(0.4) {
            let message = pick(["Not Found", "API rate limit exceeded for 1.2.3.4.", "Bad credentials", "",
                                "\u{1B}]0;owned\u{7}", Self.longText, "Validation Failed"])
            let errors = chance(0.3) ? ",\"errors\":[{\"field\":\"title\",\"code\":\"missing_field\"},{\"message\":1},7,null]" : ""
            return Array("{\"message\":\(JSONWriter.write(.string(message)).dropLast())\(errors)}".utf8)
        }
        switch int(0...12) {
        case 0: return []
        case 1: return Array(pick(["null", "[]", "{}", "0", "\"x\"", "true"]).utf8)
        case 2: return Array("<html><body>502 Bad Gateway</body></html>".utf8)
        case 3: return Array(repository().utf8)
        case 4: return Array(user().utf8)
        case 5: return Array(repositoryList().utf8)
        case 6:
            var bytes = Array(pick(Self.fixtureTexts).utf8)
            for _ in 0..<int(1...4) where !bytes.isEmpty { bytes[int(0...(bytes.count - 1))] ^= UInt8.random(in: 1...255, using: &random) }
            return bytes
        case 7: return Self.deep
        case 8: return (0..<int(0...64)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 9: return [0xFF, 0xFE] + Array("{\"id\":1}".utf8)
        case 10: return Self.longMessage
        default: return Array(pick(Self.fixtureTexts).utf8)
        }
    }

    static let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
    static let longMessage = Array(("{\"message\":\"" + String(repeating: "x", count: 1 << 16) + "\"}").utf8)

    private func repository() -> String {
        if chance(0.6) {
            let id = int(1...1_000_000)
            return "{\"id\":\(id),\"name\":\"r\(id)\",\"full_name\":\"octocat/r\(id)\",\"owner\":{\"login\":\"octocat\"},"
                + "\"html_url\":\"https://github.com/octocat/r\(id)\",\"private\":false,\"description\":null}"
        }
        let id = pick(["1296269", "1", "0", "-5", "9223372036854775807", "9223372036854775808", "1.5", "\"7\"", "null"])
        let owner = pick(["octocat", "", "\u{1B}[31mred", "a/b", "👍🏽"])
        let name = pick(["Hello-World", "", "x\u{202E}y", String(repeating: "n", count: 1000)])
        let description = pick(["null", "\"a description\"", "\"\\u001b[2J\"", "7", "\"\\uD800\""])
        let archived = pick(["true", "false", "null", "\"yes\""])
        return "{\"id\":\(id),\"name\":\(JSONWriter.write(.string(name)).dropLast()),\"full_name\":\"\(owner)/x\","
            + "\"owner\":{\"login\":\(JSONWriter.write(.string(owner)).dropLast())},\"html_url\":\"https://github.com/x\","
            + "\"private\":false,\"archived\":\(archived),\"description\":\(description)}"
    }

    private func user() -> String {
        if chance(0.6) { return "{\"login\":\"octocat\",\"id\":1}" }
        return pick(["{\"login\":\"octocat\",\"id\":1}", "{\"login\":\"\",\"id\":-1}", "{\"login\":7,\"id\":1}", "{\"id\":1}",
              "{\"login\":\"x\",\"id\":99999999999999999999}", Self.fixtureTexts[4]])
    }

    private func repositoryList() -> String {
        "[" + (0..<int(0...3)).map { _ in repository() }.joined(separator: ",") + "]"
    }
}

fileprivate enum ClientFuzzer {
    static let token = "ghp_FuzzSecretToken0123456789abcdefABCDEF"
    static let maximumIssues = 20

    /// The API endpoints tried, each with the spellings of its origin on which the token may go.
    static let endpoints: [(url: String, origins: [String], apiPrefix: String)] = [
        ("https://api.github.com", ["https://api.github.com", "https://api.github.com:443"], "https://api.github.com"),
        ("https://ghe.example.com/api/v3", ["https://ghe.example.com", "https://ghe.example.com:443"], "https://ghe.example.com/api/v3"),
        ("http://127.0.0.1:8080", ["http://127.0.0.1:8080"], "http://127.0.0.1:8080"),
        ("https://[::1]:8443/api", ["https://[::1]:8443"], "https://[::1]:8443/api"),
    ]

    static let retry = RetryPolicy(maximumAttempts: 2, baseDelayMilliseconds: 1, maximumDelayMilliseconds: 2,
                                   longestWaitMilliseconds: 5, deadlineMilliseconds: 2000)

    /// Whether `url` is on one of the origins, by plain text: the origin, then the end of the
    /// URL or a `/`, `?` or `#` (so `api.github.com.evil` and `api.github.com@evil` are not).
    static func isOnOrigin(_ url: String, _ origins: [String]) -> Bool {
        let lowered = url.lowercased()
        return origins.contains { origin in
            lowered == origin || ["/", "?", "#"].contains { lowered.hasPrefix(origin + $0) }
        }
    }

    /// https, or plain http to a loopback host only.
    static func isSecureOrLoopback(_ url: String) -> Bool {
        let lowered = url.lowercased()
        if lowered.hasPrefix("https://") { return true }
        guard lowered.hasPrefix("http://") else { return false }
        let authority = lowered.dropFirst("http://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host: String
        if authority.hasPrefix("[") {
            host = String(authority.prefix { $0 != "]" }) + "]"
        } else {
            host = String(authority.prefix { $0 != ":" })
        }
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    static func runBatch(seed: UInt64, cases: Int, progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        var recorded = 0
        var more = 0
        var outcomes: [String: Int] = [:]
        var totalRequests = 0
        var offOriginRequests = 0
        var authorizedRequests = 0
        for index in 0..<cases {
            var random = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
            let endpoint = endpoints[Int.random(in: 0..<endpoints.count, using: &random)]
            let token: String? = Int.random(in: 0..<10, using: &random) == 0 ? nil : Self.token
            let transport = ScriptedTransport(random: SplitMix64(seed: random.next()), origin: endpoint.origins[0],
                                              apiPrefix: endpoint.apiPrefix)
            guard let apiEndpoint = try? APIEndpoint(endpoint.url) else {
                Issue.record(Comment(rawValue: "the endpoint \(endpoint.url) does not parse"))
                return
            }
            let client = GitHubClient(
                configuration: .init(endpoint: apiEndpoint, token: token, userAgent: "doogit-fuzz", retry: retry,
                                     timeouts: HTTPTimeouts(connectMilliseconds: 50, totalMilliseconds: 50, stallMilliseconds: 50)),
                transport: transport)
            let call = Int.random(in: 0...6, using: &random)
            let owner = ["octocat", "a", "x/../../user", "%2F", "@evil.example", "a b", "\u{1B}", ""][Int.random(in: 0...7, using: &random)]
            let name = ["Hello-World", "x", "..", "?x=1", "#", "\u{202E}", ""][Int.random(in: 0...6, using: &random)]
            let id = [Int64(1_296_269), 1, 0, -1, Int64.max, Int64.min][Int.random(in: 0...5, using: &random)]
            let etags: [String?] = [nil, "\"abc\"", "W/\"x\"", "", "x\r\ny: 1"]
            let etag = etags[Int.random(in: 0..<etags.count, using: &random)]
            let wanted = (0..<Int.random(in: 0...6, using: &random)).map { position in
                (id: Int64(position + 1) * 7, etag: etags[Int.random(in: 0..<etags.count, using: &random)])
            }
            let pageURL = [endpoint.apiPrefix + "/user/repos?page=2", "https://evil.example/user/repos", "garbage"][Int.random(in: 0...2, using: &random)]
            let description: String
            switch call {
            case 0: description = "repository(owner: \(owner.debugDescription), name: \(name.debugDescription))"
            case 1: description = "repository(id: \(id), ifNoneMatch: \(String(describing: etag).debugDescription))"
            case 2: description = "currentUser()"
            case 3: description = "userRepositories()"
            case 4: description = "repositories(\(wanted.map { "(\($0.id), \(String(describing: $0.etag)))" }))"
            case 5: description = "repository(id: \(id))"
            default: description = "repositoryPage(\(pageURL.debugDescription), ifNoneMatch: \(String(describing: etag).debugDescription))"
            }
            let label = "FuzzResponse client seed \(FuzzText.hex(seed)) case \(index): \(description) against \(endpoint.url), token \(token == nil ? "none" : "set")"
            progress.note(label)

            var problems: [String] = []
            let outcome: String
            switch call {
            case 0:
                outcome = summarize(Result { () throws(GitHubError) in try client.repository(owner: owner, name: name) })
            case 1:
                outcome = summarize(Result { () throws(GitHubError) in try client.repository(id: id, ifNoneMatch: etag) })
            case 2:
                outcome = summarize(Result { () throws(GitHubError) in try client.currentUser() })
            case 3:
                outcome = summarize(Result { () throws(GitHubError) in try client.userRepositories() })
            case 4:
                let results = client.repositories(wanted)
                if results.count != wanted.count { problems.append("\(results.count) results for \(wanted.count) repositories") }
                outcome = "batch"
            case 5:
                outcome = summarize(Result { () throws(GitHubError) in try client.repository(id: id) })
            default:
                outcome = summarize(Result { () throws(GitHubError) in try client.repositoryPage(pageURL, ifNoneMatch: etag) })
            }
            outcomes[outcome, default: 0] += 1

            totalRequests += transport.requests.count
            if client.requestCount != transport.requests.count {
                problems.append("requestCount is \(client.requestCount) but \(transport.requests.count) requests were sent")
            }
            for request in transport.requests {
                let authorization = request.headers.filter { $0.name.lowercased() == "authorization" }
                if !isOnOrigin(request.url, endpoint.origins) {
                    offOriginRequests += 1
                    problems.append("a request to \(FuzzText.describe(request.url)), off the API origin")
                }
                if !authorization.isEmpty {
                    authorizedRequests += 1
                    if token == nil { problems.append("an Authorization header without a token, to \(FuzzText.describe(request.url))") }
                    if !isOnOrigin(request.url, endpoint.origins) {
                        problems.append("the token went to \(FuzzText.describe(request.url)), off the API origin")
                    }
                    if authorization.count > 1 || authorization.first?.value != "Bearer \(Self.token)" {
                        problems.append("a malformed Authorization header")
                    }
                }
                if request.url.contains(Self.token) { problems.append("the token is in the URL \(FuzzText.describe(request.url))") }
                if !isSecureOrLoopback(request.url) {
                    problems.append("a request to \(FuzzText.describe(request.url)), neither https nor loopback http")
                }
            }
            if !problems.isEmpty {
                if recorded < maximumIssues {
                    recorded += 1
                    Issue.record(Comment(rawValue: "\(label): \(problems.joined(separator: "; "))\n  requests: "
                        + transport.requests.map { FuzzText.describe($0.url) }.joined(separator: ", ")))
                } else {
                    more += 1
                }
            }
        }
        if more > 0 { Issue.record(Comment(rawValue: "FuzzResponse client seed \(FuzzText.hex(seed)): \(more) more failures not shown")) }
        // Without requests that carry the token, the check of where it goes would prove nothing.
        if authorizedRequests == 0 {
            Issue.record(Comment(rawValue: "FuzzResponse client seed \(FuzzText.hex(seed)): no request with a token; the batch must have some"))
        }
        progress.note("FuzzResponse client seed \(FuzzText.hex(seed)): \(cases) cases done; \(totalRequests) requests, \(offOriginRequests) off the API origin, \(authorizedRequests) with the token; outcomes \(outcomes.sorted { $0.key < $1.key })")
    }

    static func summarize<T>(_ result: Result<T, GitHubError>) -> String {
        switch result {
        case .success: return "success"
        case .failure(let error):
            let text = "\(error)"
            return String(text.prefix { $0 != "(" })
        }
    }
}

/// A GitHubClient whose server gives the same answer to every request.
fileprivate enum FixedAnswer {
    final class Transport: HTTPTransport {
        let response: HTTPResponse
        private(set) var requests: [HTTPRequest] = []

        init(_ response: HTTPResponse) {
            self.response = response
        }

        func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
            requests.append(request)
            return response
        }
    }

    static func client(status: Int, headers: [(name: String, value: String)],
                       body: String = #"{"message":"API rate limit exceeded"}"#) -> GitHubClient {
        GitHubClient(configuration: .init(token: ClientFuzzer.token, userAgent: "doogit-fuzz", retry: ClientFuzzer.retry),
                     transport: Transport(HTTPResponse(status: status, headers: headers, body: Array(body.utf8))))
    }

    /// `currentUser()` must throw an error that `matches`.
    static func expectError(_ client: GitHubClient, _ what: String, matches: (GitHubError) -> Bool) {
        do {
            let user = try client.currentUser()
            Issue.record(Comment(rawValue: "\(what): currentUser() returned \(user) instead of failing"))
        } catch {
            if !matches(error) { Issue.record(Comment(rawValue: "\(what): currentUser() threw \(error)")) }
        }
    }
}

// MARK: - Fuzzing helpers (the shared ones are in TestSupport/Fuzzing.swift)

extension FuzzText {

    /// A printable, bounded rendering of a string: escapes shown, long ones cut in the middle.
    static func describe(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 160 else { return text.debugDescription }
        let head = String(String.UnicodeScalarView(scalars.prefix(80)))
        let tail = String(String.UnicodeScalarView(scalars.suffix(20)))
        return head.debugDescription + " … (\(scalars.count) scalars) … " + tail.debugDescription
    }
}

/// After an exit test: when the child process did not end normally, an issue naming the case
/// it had started last (or the watchdog's note).
fileprivate func recordUnfinished(_ finished: ExitTest.Result?, _ label: String, progressPath: String) {
    guard finished == nil else { return }
    Issue.record(Comment(rawValue: "\(label): the child process trapped or hung; the last case it started: \(FuzzProgressLog.lastLine(of: progressPath))"))
}
