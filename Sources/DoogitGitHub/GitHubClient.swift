import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The answer to a conditional request.
public enum Conditional<Value: Sendable>: Sendable {
    /// GitHub answered 304: the stored copy is current (and the request cost no rate limit).
    case notModified
    case modified(Value, etag: String?)
}

/// One page of a repository listing and the URL of the next one.
public struct RepositoryPage: Equatable, Sendable {
    public var repositories: [GitHubRepository]
    public var nextURL: String?
}

/// The rate-limit budget GitHub last reported.
public struct RateLimitStatus: Equatable, Sendable {
    public var remaining: Int
    public var resetAt: Timestamp?
}

/// GitHub's REST API, as doogit uses it. Adds the headers GitHub wants, sends the token only to
/// the configured API origin, follows redirects of renamed repositories, retries transient
/// failures within a deadline, and turns every answer that is not a success into a GitHubError.
public final class GitHubClient {
    public struct Configuration: Sendable {
        public var endpoint: APIEndpoint
        public var token: String?
        public var userAgent: String
        public var retry: RetryPolicy
        public var timeouts: HTTPTimeouts

        public init(endpoint: APIEndpoint = .github, token: String?, userAgent: String = "doogit",
                    retry: RetryPolicy = RetryPolicy(), timeouts: HTTPTimeouts = HTTPTimeouts()) {
            self.endpoint = endpoint
            self.token = token
            self.userAgent = userAgent
            self.retry = retry
            self.timeouts = timeouts
        }
    }

    public static let apiVersion = "2022-11-28"
    static let maximumRedirects = 5
    static let maximumPages = 2000

    public let configuration: Configuration
    private let transport: HTTPTransport
    private let log: (String) -> Void
    /// When retries must stop: the retry budget after the last answer GitHub gave, so a stalled
    /// or unreachable server fails the command in time however long a healthy sync runs.
    private var deadline: Int64
    private var random = SystemRandomNumberGenerator()

    /// Requests sent, retries and redirects included.
    public private(set) var requestCount = 0
    public private(set) var rateLimit: RateLimitStatus?

    public init(configuration: Configuration, transport: HTTPTransport, log: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.transport = transport
        self.log = log
        self.deadline = Monotonic.milliseconds() + Int64(configuration.retry.deadlineMilliseconds)
    }

    // MARK: Endpoints

    public func repository(owner: String, name: String) throws(GitHubError) -> GitHubRepository {
        try repositoryWithETag(owner: owner, name: name).repository
    }

    /// The repository and the ETag of its representation, for later conditional requests.
    public func repositoryWithETag(owner: String, name: String) throws(GitHubError)
        -> (repository: GitHubRepository, etag: String?)
    {
        let response = try get("/repos/\(owner)/\(name)")
        return (try decode(response, as: GitHubRepository.init(json:)), response.header("etag"))
    }

    public func repository(id: Int64) throws(GitHubError) -> GitHubRepository {
        try decode(try get("/repositories/\(id)"), as: GitHubRepository.init(json:))
    }

    /// The repository by id, unless it is unchanged since `etag` (then 304, at no rate-limit cost).
    public func repository(id: Int64, ifNoneMatch etag: String?) throws(GitHubError) -> Conditional<GitHubRepository> {
        let response = try get("/repositories/\(id)", ifNoneMatch: etag)
        if response.status == 304 { return .notModified }
        return .modified(try decode(response, as: GitHubRepository.init(json:)), etag: response.header("etag"))
    }

    /// The signed-in user, with the token's scopes when GitHub reports them (classic tokens).
    public func currentUser() throws(GitHubError) -> GitHubUser {
        let response = try get("/user")
        var user = try decode(response, as: GitHubUser.init(json:))
        user.scopes = response.header("x-oauth-scopes").map { header in
            header.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        }
        return user
    }

    static let userRepositoriesPath = "/user/repos?per_page=100&affiliation=owner,collaborator,organization_member&sort=full_name"

    /// Every repository the signed-in user owns, collaborates on or reaches through an
    /// organization: all pages.
    public func userRepositories() throws(GitHubError) -> [GitHubRepository] {
        var repositories: [GitHubRepository] = []
        var next: String? = userRepositoriesURL
        var visited: Set<String> = []
        while let url = next {
            guard visited.count < Self.maximumPages, visited.insert(url).inserted else {
                throw .unexpectedResponse("pagination did not end")
            }
            guard case .modified(let page, _) = try repositoryPage(url, ifNoneMatch: nil) else {
                throw .unexpectedResponse("304 without a conditional request")
            }
            repositories += page.repositories
            next = page.nextURL
        }
        return repositories
    }

    /// The URL of the first page of the signed-in user's repositories.
    public var userRepositoriesURL: String { configuration.endpoint.url(Self.userRepositoriesPath) }

    /// One page of a repository listing, unless unchanged since `etag`.
    public func repositoryPage(_ url: String, ifNoneMatch etag: String?) throws(GitHubError)
        -> Conditional<RepositoryPage>
    {
        guard configuration.endpoint.isSameOrigin(url) else { throw .unexpectedResponse("a page outside the API") }
        let response = try get(url, ifNoneMatch: etag)
        if response.status == 304 { return .notModified }
        guard case .array(let elements) = try parse(response) else { throw .unexpectedResponse("expected a list") }
        var repositories: [GitHubRepository] = []
        for element in elements {
            do { repositories.append(try GitHubRepository(json: element)) } catch { throw Self.decodingError(error) }
        }
        let next = response.header("link").flatMap { LinkHeader.url(for: "next", in: $0) }
        if let next, !configuration.endpoint.isSameOrigin(next) { throw .unexpectedResponse("a next page outside the API") }
        return .modified(RepositoryPage(repositories: repositories, nextURL: next), etag: response.header("etag"))
    }

    /// Fetches many repositories by id at once (in parallel where the transport can), each
    /// conditional on its ETag. Answers are retried and waited for by the same rules as single
    /// requests (`disposition`), as a group, within the deadline; results come back in the order
    /// asked.
    public func repositories(_ wanted: [(id: Int64, etag: String?)])
        -> [Result<Conditional<GitHubRepository>, GitHubError>]
    {
        var results = [Result<Conditional<GitHubRepository>, GitHubError>?](repeating: nil, count: wanted.count)
        let urls = wanted.map { configuration.endpoint.url("/repositories/\($0.id)") }
        var pending = Array(wanted.indices)
        var attempt = 0
        while !pending.isEmpty {
            attempt += 1
            guard let timeouts = attemptTimeouts() else {
                for index in pending { results[index] = .failure(.network(.timeout)) }
                break
            }
            let requests = pending.map { index in
                HTTPRequest(url: urls[index], headers: headers(for: urls[index], etag: wanted[index].etag), timeouts: timeouts)
            }
            requestCount += requests.count
            let started = Monotonic.milliseconds()
            let responses = transport.sendAll(requests)
            log("GET \(requests.count) repositories in parallel (\(Monotonic.milliseconds() - started) ms)")
            var retry: [Int] = []
            var wait = 0
            for (index, outcome) in zip(pending, responses) {
                switch disposition(of: outcome, attempt: attempt) {
                case .retry(let milliseconds):
                    retry.append(index)
                    wait = max(wait, milliseconds)
                case .failed(let error):
                    results[index] = .failure(error)
                case .answered(let response):
                    results[index] = Result { () throws(GitHubError) in try conditionalRepository(response, url: urls[index]) }
                }
            }
            if !retry.isEmpty && !pause(wait) {
                for index in retry { results[index] = .failure(.network(.timeout)) }
                retry = []
            }
            pending = retry
        }
        return results.map { $0 ?? .failure(.network(.timeout)) }
    }

    /// A repository answer as a Conditional; a redirect (a moved repository, rare) is followed.
    private func conditionalRepository(_ response: HTTPResponse, url: String) throws(GitHubError)
        -> Conditional<GitHubRepository>
    {
        var response = response
        if Self.redirectStatuses.contains(response.status) {
            response = try get(try redirectTarget(of: response, from: url))
        }
        if response.status == 304 { return .notModified }
        if let error = Self.error(for: response) { throw error }
        return .modified(try decode(response, as: GitHubRepository.init(json:)), etag: response.header("etag"))
    }

    // MARK: Requests

    static let redirectStatuses = [301, 302, 303, 307, 308]

    /// GETs an API path (or an absolute URL on the API origin); 2xx and 304 are returned, any
    /// other answer is thrown as a GitHubError.
    public func get(_ pathOrURL: String, ifNoneMatch etag: String? = nil) throws(GitHubError) -> HTTPResponse {
        var url = pathOrURL.hasPrefix("/") ? configuration.endpoint.url(pathOrURL) : pathOrURL
        for _ in 0...Self.maximumRedirects {
            let response = try sendWithRetries(url: url, etag: etag)
            guard Self.redirectStatuses.contains(response.status) else {
                if let error = Self.error(for: response) { throw error }
                return response
            }
            url = try redirectTarget(of: response, from: url)
        }
        throw .tooManyRedirects
    }

    /// Where a redirect points; never to plain http off loopback.
    private func redirectTarget(of response: HTTPResponse, from url: String) throws(GitHubError) -> String {
        guard let location = response.header("location"), let next = resolve(location, against: url) else {
            throw .unexpectedResponse("redirect without a usable Location")
        }
        if let parsed = ParsedURL(next), parsed.scheme == "http", !APIEndpoint.isLoopback(parsed.host) {
            throw .unexpectedResponse("redirect to an insecure http URL was refused")
        }
        return next
    }

    private func resolve(_ location: String, against base: String) -> String? {
        if location.hasPrefix("http://") || location.hasPrefix("https://") {
            return ParsedURL(location) == nil ? nil : location
        }
        guard location.hasPrefix("/"), let parsed = ParsedURL(base) else { return nil }
        return "\(parsed.scheme)://\(parsed.host)" + (parsed.port.map { ":\($0)" } ?? "") + location
    }

    private func headers(for url: String, etag: String?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("Accept", "application/vnd.github+json"),
            ("X-GitHub-Api-Version", Self.apiVersion),
            ("User-Agent", configuration.userAgent),
        ]
        // The token goes only to the API's own origin, never to a redirect target elsewhere.
        if let token = configuration.token, configuration.endpoint.isSameOrigin(url) {
            headers.append(("Authorization", "Bearer \(token)"))
        }
        if let etag { headers.append(("If-None-Match", etag)) }
        return headers
    }

    private var remainingMilliseconds: Int { Int(deadline - Monotonic.milliseconds()) }

    /// This attempt's limits, clipped to what is left of the deadline; nil when nothing is.
    private func attemptTimeouts() -> HTTPTimeouts? {
        let remaining = remainingMilliseconds
        guard remaining > 0 else { return nil }
        var timeouts = configuration.timeouts
        timeouts.totalMilliseconds = min(timeouts.totalMilliseconds, remaining)
        timeouts.connectMilliseconds = min(timeouts.connectMilliseconds, remaining)
        return timeouts
    }

    /// What to do with the outcome of one attempt.
    private enum Disposition {
        case answered(HTTPResponse)
        case retry(afterMilliseconds: Int)
        case failed(GitHubError)
    }

    static let retriedStatuses = [500, 502, 503, 504]

    /// The one place that decides about an attempt: transient failures (no connection, timeout,
    /// 500/502/503/504) are retried with backoff, a rate limit that lifts within
    /// `longestWaitMilliseconds` is waited out, everything else is the answer. Only a definite
    /// answer extends the deadline, so neither a stalled server nor one that keeps refusing can
    /// hold a command beyond it.
    private func disposition(of outcome: Result<HTTPResponse, TransportError>, attempt: Int) -> Disposition {
        let policy = configuration.retry
        let response: HTTPResponse
        switch outcome {
        case .failure(.unavailable(let detail)):
            return .failed(.network(.unavailable(detail)))
        case .failure(.tooLarge):
            return .failed(.unexpectedResponse("the response was too large"))
        case .failure(let error):
            guard attempt < policy.maximumAttempts else { return .failed(.network(error)) }
            return .retry(afterMilliseconds: policy.delay(afterAttempt: attempt, using: &random))
        case .success(let answer):
            response = answer
        }
        recordRateLimit(response)
        let limited: Timestamp??
        if case .rateLimited(let resetAt)? = Self.error(for: response) { limited = .some(resetAt) } else { limited = nil }
        if limited == nil && !Self.retriedStatuses.contains(response.status) {
            deadline = Monotonic.milliseconds() + Int64(policy.deadlineMilliseconds)
        }
        guard attempt < policy.maximumAttempts else { return .answered(response) }
        if Self.retriedStatuses.contains(response.status) {
            let wait = retryAfterMilliseconds(response) ?? policy.delay(afterAttempt: attempt, using: &random)
            return wait <= policy.longestWaitMilliseconds ? .retry(afterMilliseconds: wait) : .answered(response)
        }
        if let resetAt = limited {
            let wait = retryAfterMilliseconds(response) ?? resetAt.map { reset in
                let now = Timestamp.now().millisecondsSinceEpoch
                // reset > now >= 0 cannot overflow; a day is as long as doogit would ever wait.
                return Int(reset.millisecondsSinceEpoch > now ? min(reset.millisecondsSinceEpoch - now, 86_400_000) : 0) + 1000
            }
            if let wait, wait <= policy.longestWaitMilliseconds { return .retry(afterMilliseconds: max(0, wait)) }
        }
        return .answered(response)
    }

    private func sendWithRetries(url: String, etag: String?) throws(GitHubError) -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            guard let timeouts = attemptTimeouts() else { throw .network(.timeout) }
            requestCount += 1
            let started = Monotonic.milliseconds()
            let outcome = Result { () throws(TransportError) in
                try transport.send(HTTPRequest(url: url, headers: headers(for: url, etag: etag), timeouts: timeouts))
            }
            let elapsed = Monotonic.milliseconds() - started
            switch outcome {
            case .success(let response): log("GET \(url) -> \(response.status) (\(elapsed) ms)")
            case .failure(let error): log("GET \(url) failed: \(error) (\(elapsed) ms)")
            }
            switch disposition(of: outcome, attempt: attempt) {
            case .answered(let response): return response
            case .failed(let error): throw error
            case .retry(let wait):
                guard pause(wait) else {
                    switch outcome {
                    case .success(let response): return response
                    case .failure(let error): throw .network(error)
                    }
                }
            }
        }
    }

    /// Sleeps unless that would pass the deadline; false when there is no time left for it.
    private func pause(_ milliseconds: Int) -> Bool {
        guard milliseconds < remainingMilliseconds - 100 else { return false }
        Monotonic.sleep(milliseconds: milliseconds)
        return true
    }

    private func retryAfterMilliseconds(_ response: HTTPResponse) -> Int? {
        Self.retryAfterSeconds(response).map { Int($0) * 1000 }
    }

    /// `Retry-After` in seconds, when it is a number; capped at a day, so no arithmetic on it
    /// can overflow whatever a server sends.
    static func retryAfterSeconds(_ response: HTTPResponse) -> Int64? {
        guard let value = response.header("retry-after"), let seconds = Int64(value), seconds >= 0 else { return nil }
        return min(seconds, 86_400)
    }

    private func recordRateLimit(_ response: HTTPResponse) {
        guard let remaining = response.header("x-ratelimit-remaining").flatMap({ Int($0) }) else { return }
        let reset = response.header("x-ratelimit-reset").flatMap { Int64($0) }.map { Timestamp(secondsSinceEpoch: $0) }
        // Parallel answers arrive in any order: within one window the lowest count is the latest.
        if let current = rateLimit, current.resetAt == reset, current.remaining < remaining { return }
        rateLimit = RateLimitStatus(remaining: remaining, resetAt: reset)
    }

    private func parse(_ response: HTTPResponse) throws(GitHubError) -> JSONValue {
        do { return try JSONParser.parse(response.body) } catch { throw Self.decodingError(error) }
    }

    private func decode<T>(_ response: HTTPResponse, as decodeValue: (JSONValue) throws(JSONError) -> T)
        throws(GitHubError) -> T
    {
        let json = try parse(response)
        do { return try decodeValue(json) } catch { throw Self.decodingError(error) }
    }

    static func decodingError(_ error: JSONError) -> GitHubError {
        switch error {
        case .syntax(let offset, let reason): return .unexpectedResponse("invalid JSON at byte \(offset): \(reason)")
        case .tooDeep: return .unexpectedResponse("JSON nested too deeply")
        case .missing(let field): return .unexpectedResponse("field '\(field)' is missing")
        case .wrongType(let field, let expected): return .unexpectedResponse("field '\(field)' is not \(expected)")
        }
    }

    // MARK: Status mapping

    /// The error a response stands for, or nil for 2xx, 304 and redirects.
    public static func error(for response: HTTPResponse) -> GitHubError? {
        let status = response.status
        if (200..<300).contains(status) || status == 304 || (300..<400).contains(status) { return nil }
        let body = try? JSONParser.parse(response.body)
        let message = (try? body?.optionalString("message")) ?? nil
        let text = message ?? "HTTP \(status)"
        switch status {
        case 401:
            return .unauthorized(message: text)
        case 403, 429:
            if response.header("x-ratelimit-remaining") == "0" {
                let reset = response.header("x-ratelimit-reset").flatMap { Int64($0) }
                return .rateLimited(resetAt: reset.map { Timestamp(secondsSinceEpoch: $0) })
            }
            if let seconds = retryAfterSeconds(response) {
                return .rateLimited(resetAt: Timestamp(millisecondsSinceEpoch:
                    Timestamp.now().millisecondsSinceEpoch + seconds * 1000))
            }
            if status == 429 || text.lowercased().contains("rate limit") { return .rateLimited(resetAt: nil) }
            return .forbidden(message: text, hint: forbiddenHint(response))
        case 404, 410, 451:
            // Only GitHub's own JSON error says the resource is absent: an HTML 404 from a wrong
            // API URL or a proxy must not flag every repository gone.
            guard let message else {
                return .unexpectedStatus(status, message: "not an answer of the GitHub API; check DOOGIT_API_URL or GH_HOST")
            }
            return status == 404 ? .notFound(message: message) : .unavailable(status: status, message: message)
        case 422:
            let details = ((try? body?.array("errors")) ?? []).compactMap { error -> String? in
                if let message = (try? error.optionalString("message")) ?? nil { return message }
                guard let code = (try? error.optionalString("code")) ?? nil else { return nil }
                let field = (try? error.optionalString("field")) ?? nil
                return field.map { "\($0) \(code)" } ?? code
            }
            return .validationFailed(message: ([text] + details).joined(separator: ": "))
        case 500...599:
            return .serverError(status: status)
        default:
            return .unexpectedStatus(status, message: text)
        }
    }

    private static func forbiddenHint(_ response: HTTPResponse) -> String? {
        if let sso = response.header("x-github-sso"), sso.hasPrefix("required") {
            return "authorize the token for your organization's single sign-on"
        }
        if let needed = response.header("x-accepted-oauth-scopes"), !needed.isEmpty {
            return "the token needs the scope(s): \(needed)"
        }
        return nil
    }
}

/// Elapsed time that no change of the wall clock can move, for deadlines and backoff.
enum Monotonic {
    static func milliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    static func sleep(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
