import DoogitSupport

/// The answer to a conditional request.
public enum Conditional<Value: Sendable>: Sendable {
    /// GitHub answered 304: the stored copy is current (and the request cost no rate limit).
    case notModified
    case modified(Value, etag: String?)
}

extension Conditional: Equatable where Value: Equatable {}

/// The rate-limit budget GitHub last reported.
public struct RateLimitStatus: Equatable, Sendable {
    public var remaining: Int
    public var resetAt: Timestamp?
}

/// GitHub's REST API, as doogit uses it: the request core. Adds the headers GitHub wants, sends
/// the token only to the configured API origin, follows redirects within that origin (and
/// refuses any other), retries transient failures within a deadline by the rule of each request,
/// and turns every answer that is not a success into a GitHubError. The endpoints are in the
/// extensions (`GitHubClient+Repositories.swift`, `+Users`, `+Writes`, `+Contents`, `+GitData`,
/// `+GitWrites`).
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
    let transport: HTTPTransport
    let log: (String) -> Void
    /// When retries must stop: the retry budget after the last answer GitHub gave, so a stalled
    /// or unreachable server fails the command in time however long a healthy sync runs.
    var deadline: Int64
    var random = SystemRandomNumberGenerator()
    /// Whether the API answers a route that always exists; asked once, when a 404 is ambiguous.
    private var apiHasRoutes: Bool?

    /// Requests sent, retries and redirects included.
    public internal(set) var requestCount = 0
    public internal(set) var rateLimit: RateLimitStatus?
    /// GitHub's `Date` on the latest answer, as sent and as read, and the monotonic time it
    /// arrived (see `GitHubClient+Time.swift`).
    var lastDate: (text: String, time: Timestamp, receivedAt: Int64)?
    /// Keeps the requests within GitHub's secondary rate limits (`GitHubClient+Pacing.swift`).
    let pacer: RequestPacer
    /// How long requests waited for the pacer, in all.
    public internal(set) var pacedMilliseconds = 0
    /// A rate limit GitHub asked to wait out, and until when (monotonic): no request is sent before.
    var limitHold: (until: Int64, limit: GitHubError)?

    public init(configuration: Configuration, transport: HTTPTransport, log: @escaping (String) -> Void = { _ in },
                pacer: RequestPacer = RequestPacer()) {
        self.configuration = configuration
        self.transport = transport
        self.log = log
        self.pacer = pacer
        self.deadline = Monotonic.milliseconds() + Int64(configuration.retry.deadlineMilliseconds)
    }

    // MARK: Requests

    static let redirectStatuses = [301, 302, 303, 307, 308]

    /// GETs an API path (or an absolute URL on the API origin); 2xx and 304 are returned, any
    /// other answer is thrown as a GitHubError about `resource`.
    /// `accept` replaces GitHub's JSON media type (a file's raw content: `application/vnd.github.raw+json`).
    public func get(_ pathOrURL: String, ifNoneMatch etag: String? = nil,
                    about resource: GitHubResource = .other("the resource"), accept: String? = nil) throws(GitHubError) -> HTTPResponse {
        try request(.get, pathOrURL, body: nil, ifNoneMatch: etag, about: resource, accept: accept)
    }

    /// Sends one request with its retries and follows redirects within the API's origin. A
    /// write follows only 307 and 308, which repeat it as it was.
    func request(_ kind: RequestKind, _ pathOrURL: String, body: [UInt8]?, ifNoneMatch etag: String? = nil,
                 about resource: GitHubResource, accept: String? = nil) throws(GitHubError) -> HTTPResponse {
        let (response, error) = try answer(kind, pathOrURL, body: body, ifNoneMatch: etag, about: resource, accept: accept)
        if let error { throw error }
        return response
    }

    /// The same, with the answer also when it stands for an error (and the error): for a caller
    /// that needs an error answer's headers, its `Date`.
    func answer(_ kind: RequestKind, _ pathOrURL: String, body: [UInt8]?, ifNoneMatch etag: String? = nil,
                about resource: GitHubResource, accept: String? = nil) throws(GitHubError)
        -> (response: HTTPResponse, error: GitHubError?)
    {
        var url = pathOrURL.hasPrefix("/") ? configuration.endpoint.url(pathOrURL) : pathOrURL
        guard configuration.endpoint.isSameOrigin(url) else { throw .unexpectedResponse("a URL outside the API") }
        for redirects in 0...Self.maximumRedirects {
            var response = try sendWithRetries(kind, url: url, body: body, etag: etag, accept: accept)
            guard Self.redirectStatuses.contains(response.status) else {
                response.redirected = redirects > 0
                return (response, error(for: response, about: resource))
            }
            url = try redirectTarget(of: response, from: url)
            if kind.method != .get && response.status != 307 && response.status != 308 {
                throw .unexpectedResponse("GitHub redirected the \(kind.method.rawValue) with HTTP \(response.status)")
            }
        }
        throw .tooManyRedirects
    }

    /// Where a redirect points: only within the API's scheme, host and port. An answer from
    /// elsewhere would be stored as if GitHub had given it.
    func redirectTarget(of response: HTTPResponse, from url: String) throws(GitHubError) -> String {
        guard let location = response.header("location"), let next = resolve(location, against: url),
              let target = ParsedURL(next) else {
            throw .unexpectedResponse("redirect without a usable Location")
        }
        guard configuration.endpoint.isSameOrigin(next) else {
            throw .redirectRefused(host: target.host + (target.port.map { ":\($0)" } ?? ""))
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

    func headers(for url: String, etag: String?, hasBody: Bool = false, accept: String? = nil) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("Accept", accept ?? "application/vnd.github+json"),
            ("X-GitHub-Api-Version", Self.apiVersion),
            ("User-Agent", configuration.userAgent),
        ]
        // The token goes only to the API's own origin.
        if let token = configuration.token, configuration.endpoint.isSameOrigin(url) {
            headers.append(("Authorization", "Bearer \(token)"))
        }
        if let etag { headers.append(("If-None-Match", etag)) }
        if hasBody { headers.append(("Content-Type", "application/json")) }
        return headers
    }

    /// The error a response stands for. GitHub links an endpoint's documentation in a 404 about
    /// a resource, but some endpoints answer a missing resource with the bare documentation root
    /// too: such a 404 means "no such route" only when the API also lacks `/rate_limit`, a route
    /// every GitHub has (and free of rate limit), asked once.
    func error(for response: HTTPResponse, about resource: GitHubResource) -> GitHubError? {
        let error = Self.error(for: response, about: resource)
        guard error == .unknownRoute, Self.isGitHubError(response), apiAnswersKnownRoute() else { return error }
        return .notFound(resource, message: "Not Found")
    }

    private func apiAnswersKnownRoute() -> Bool {
        if let apiHasRoutes { return apiHasRoutes }
        guard let answer = try? sendWithRetries(.get, url: configuration.endpoint.url("/rate_limit"), body: nil, etag: nil)
        else { return false }
        let answers = (200..<300).contains(answer.status)
        // Only a definite answer is kept: a failing GitHub may answer later.
        if answers || answer.status == 404 { apiHasRoutes = answers }
        return answers
    }

    // MARK: Decoding

    /// The body as JSON; with `keeping`, only members of those names (see `JSONParser.parse`).
    func parse(_ response: HTTPResponse, keeping: Set<String>? = nil) throws(GitHubError) -> JSONValue {
        do { return try JSONParser.parse(response.body, keeping: keeping) } catch { throw Self.decodingError(error) }
    }

    func decode<T>(_ response: HTTPResponse, keeping: Set<String>? = nil, as decodeValue: (JSONValue) throws(JSONError) -> T)
        throws(GitHubError) -> T
    {
        let json = try parse(response, keeping: keeping)
        do { return try decodeValue(json) } catch { throw Self.decodingError(error) }
    }
}
