@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The client fuzzer: GitHubClient against a ScriptedTransport, case after case of a seed, each
/// checked for where its requests went and what they carried.
enum ClientFuzzer {
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
