import Foundation

/// GitHub's secondary rate limits, as its REST documentation states them ("Rate limits for the
/// REST API", About secondary rate limits):
///
/// - no more than 100 concurrent requests (shared by every client of the token);
/// - no more than 900 points a minute on a single endpoint (most GET, HEAD and OPTIONS requests
///   are 1 point, most POST, PATCH, PUT and DELETE requests 5);
/// - no more than 80 content-generating requests a minute and 500 an hour.
///
/// Over one, GitHub answers 403 (or 429) with a message that says a secondary rate limit was
/// exceeded, `retry-after` (60 in the recorded answers) and none of the `x-ratelimit-*` headers
/// (`error-403-secondary-rate-limit.json`); over the content limit, the message says content
/// creation is blocked. Its docs say not to retry before `retry-after` has passed, and that
/// continuing while limited may get an integration banned: here every request that arrives
/// before then is refused again and counted (`requestsWhileLimited`), so that a test can hold a
/// client to it. Every request counts for the points, refused ones and 304s included (only the
/// primary limit spares a 304); only content made counts for the creations.
///
/// Not modelled: the 90 seconds of CPU time per minute (this GitHub spends none worth counting)
/// and endpoints with a lower or undisclosed cost. An endpoint is a route of the API: the
/// method and the path with its parameters left out (`GET /repositories/{}`), as the docs'
/// endpoints are named.
///
/// On by default, at GitHub's numbers, on the real clock: a client that paces its requests as
/// GitHub asks passes. A test may switch them off, lower them, or drive the time itself
/// (`useManualClock`, `advance`): no test sleeps for them.
public final class FakeSecondaryLimits: @unchecked Sendable {
    private let lock = NSLock()
    private var on = true
    private var concurrent = 100
    private var points = 900
    private var creationsPerMinute = 80
    private var creationsPerHour = 500
    private var wait: Int? = 60
    private var answerStatus = 403
    private var manualNow: Int64?
    /// Points of each endpoint, with when they were spent, oldest first.
    private var spent: [String: [(at: Int64, points: Int)]] = [:]
    private var creations: [Int64] = []
    private var limitedUntil: Int64?
    private var creationBlockedUntil: Int64?
    private var refusalCount = 0
    private var whileLimited = 0
    private var mostAtOnce = 0

    public init() {}

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: Settings

    public var enabled: Bool {
        get { locked { on } }
        set { locked { on = newValue } }
    }

    /// Requests at once.
    public var concurrentRequests: Int {
        get { locked { concurrent } }
        set { locked { concurrent = newValue } }
    }

    /// Points a minute on one endpoint.
    public var pointsPerMinute: Int {
        get { locked { points } }
        set { locked { points = newValue } }
    }

    /// Content-generating requests a minute, and an hour.
    public var contentPerMinute: Int {
        get { locked { creationsPerMinute } }
        set { locked { creationsPerMinute = newValue } }
    }

    public var contentPerHour: Int {
        get { locked { creationsPerHour } }
        set { locked { creationsPerHour = newValue } }
    }

    /// The `retry-after` a refusal carries, in seconds; nil: none (the docs then say to wait at
    /// least a minute, and so does this GitHub).
    public var retryAfterSeconds: Int? {
        get { locked { wait } }
        set { locked { wait = newValue } }
    }

    /// 403, as recorded, or 429, which the docs allow too.
    public var status: Int {
        get { locked { answerStatus } }
        set { locked { answerStatus = newValue } }
    }

    // MARK: The clock

    /// From now on, time moves only by `advance`: starting where the real clock is.
    public func useManualClock() { locked { manualNow = manualNow ?? Self.realNow() } }

    public func advance(seconds: Double) { advance(milliseconds: Int64(seconds * 1000)) }

    public func advance(milliseconds: Int64) {
        locked { manualNow = (manualNow ?? Self.realNow()) + milliseconds }
    }

    /// The limits' time, in milliseconds.
    public var now: Int64 { locked { currentTime() } }

    private func currentTime() -> Int64 { manualNow ?? Self.realNow() }

    private static func realNow() -> Int64 { Int64(ProcessInfo.processInfo.systemUptime * 1000) }

    // MARK: What clients did

    /// Answers that said a limit was exceeded.
    public var refusals: Int { locked { refusalCount } }
    /// Requests that arrived while GitHub had asked to wait: each is a reason for GitHub to ban.
    public var requestsWhileLimited: Int { locked { whileLimited } }
    /// The most requests in flight at once that this GitHub saw.
    public var mostInFlight: Int { locked { mostAtOnce } }
    /// Points spent on the endpoint (`GET /repositories/{}`) in the minute up to now.
    public func pointsInLastMinute(_ endpoint: String) -> Int {
        locked { (spent[endpoint] ?? []).filter { $0.at > currentTime() - 60_000 }.reduce(0) { $0 + $1.points } }
    }

    public func reset() {
        locked {
            spent = [:]
            creations = []
            limitedUntil = nil
            creationBlockedUntil = nil
            refusalCount = 0
            whileLimited = 0
            mostAtOnce = 0
        }
    }

    // MARK: Answers

    /// GitHub's refusal of the request, or nil when it is within the limits (then it is counted).
    /// `inFlight`: requests received and not yet answered, this one included.
    func refusal(for request: ReceivedRequest, inFlight: Int) -> ServerResponse? {
        locked {
            guard on else { return nil }
            let now = currentTime()
            mostAtOnce = max(mostAtOnce, inFlight)
            let endpoint = Self.endpoint(of: request)
            let cost = Self.points(request.method)
            let creates = Self.createsContent(request)
            prune(before: now)
            let spentHere = spent[endpoint, default: []].reduce(0) { $0 + $1.points }
            spent[endpoint, default: []].append((now, cost))
            if let until = limitedUntil, now < until {
                whileLimited += 1
                return answer(creation: false)
            }
            if creates, let until = creationBlockedUntil, now < until {
                whileLimited += 1
                return answer(creation: true)
            }
            if inFlight > concurrent || spentHere + cost > points {
                limitedUntil = now + Int64(wait ?? 60) * 1000
                refusalCount += 1
                return answer(creation: false)
            }
            if creates {
                // Only what was made counts here: a refused creation made nothing.
                let lastMinute = creations.filter { $0 > now - 60_000 }.count
                if lastMinute >= creationsPerMinute || creations.count >= creationsPerHour {
                    creationBlockedUntil = now + Int64(wait ?? 60) * 1000
                    refusalCount += 1
                    return answer(creation: true)
                }
                creations.append(now)
            }
            return nil
        }
    }

    /// Forgets what left the windows (a minute for points, an hour for creations).
    private func prune(before now: Int64) {
        for (endpoint, entries) in spent {
            guard let first = entries.first, first.at <= now - 60_000 else { continue }
            let kept = entries.drop { $0.at <= now - 60_000 }
            spent[endpoint] = kept.isEmpty ? nil : Array(kept)
        }
        if let first = creations.first, first <= now - 3_600_000 { creations.removeAll { $0 <= now - 3_600_000 } }
    }

    private func answer(creation: Bool) -> ServerResponse {
        let body = Fixtures.text(creation ? "error-403-secondary-rate-limit-creation.json" : "error-403-secondary-rate-limit.json")
        return .json(answerStatus, body, headers: wait.map { [("Retry-After", String($0))] } ?? [])
    }

    /// The docs' points: 1 for GET, HEAD and OPTIONS, 5 for the others.
    static func points(_ method: String) -> Int { ["GET", "HEAD", "OPTIONS"].contains(method) ? 1 : 5 }

    /// Whether the request makes something on GitHub: a POST (an issue, a repository, a git
    /// object), or a PUT of a file (a commit).
    static func createsContent(_ request: ReceivedRequest) -> Bool {
        request.method == "POST" || (request.method == "PUT" && request.path.contains("/contents/"))
    }

    /// The route a request is to: its method and path with the parameters left out, as the
    /// docs name endpoints (`GET /repos/{}/{}/git/trees/{}`).
    public static func endpoint(of request: ReceivedRequest) -> String {
        var parts = request.path.split(separator: "/").map(String.init)
        // Named by owner and repository, by id, or by user; what follows alternates between a
        // resource and its parameter, except that some take the rest of the path as one.
        let named: Int
        switch parts.first {
        case "repos": named = 2
        case "users", "orgs", "repositories", "organizations": named = 1
        case "user" where parts.count > 2: named = 1  // `/user/{id}/repos`, GitHub's next pages of a user's listing
        default: named = 0
        }
        var index = 1
        for _ in 0..<named where index < parts.count {
            parts[index] = "{}"
            index += 1
        }
        var expectsParameter = false
        while index < parts.count {
            if expectsParameter {
                if ["branches", "compare", "contents", "ref", "refs"].contains(parts[index - 1]) {
                    parts.replaceSubrange(index..., with: ["{}"])
                    break
                }
                parts[index] = "{}"
                expectsParameter = false
            } else {
                expectsParameter = parts[index] != "git"
            }
            index += 1
        }
        return request.method + " /" + parts.joined(separator: "/")
    }
}
