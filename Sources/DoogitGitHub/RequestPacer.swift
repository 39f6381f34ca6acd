/// How doogit keeps within GitHub's secondary rate limits ("Rate limits for the REST API"): no
/// more than 900 points a minute on a single endpoint (a GET is 1 point; a POST, PATCH, PUT or
/// DELETE 5), and no more than 80 content-generating requests a minute. doogit keeps below
/// both, leaving room for the token's other clients, and counts over a minute and a second, so
/// that the time a request spends on the wire cannot put two of its minutes into one of GitHub's.
/// (At most 100 requests at once is kept by the transport; the 500 creations an hour no command
/// of doogit's comes near.)
public struct PacingPolicy: Sendable, Equatable {
    /// Points on one endpoint within any window.
    public var pointsPerEndpoint: Int
    /// Content-creating requests within any window.
    public var creations: Int
    public var windowMilliseconds: Int64

    public init(pointsPerEndpoint: Int = 800, creations: Int = 60, windowMilliseconds: Int64 = 61_000) {
        self.pointsPerEndpoint = pointsPerEndpoint
        self.creations = creations
        self.windowMilliseconds = windowMilliseconds
    }
}

/// The requests a command sent in the last window, by endpoint, and how long the next must wait
/// to keep within the `PacingPolicy`. A burst up to the limit goes at once; what follows waits
/// for the oldest requests to leave the window. The clock is the caller's (monotonic time; a
/// test's, which its sleeps move on).
public final class RequestPacer {
    public let policy: PacingPolicy
    private let now: () -> Int64
    private let sleeper: (Int) -> Void
    private var spent: [String: Window] = [:]
    private var created = Window()

    public convenience init(policy: PacingPolicy = PacingPolicy()) {
        self.init(policy: policy, now: Monotonic.milliseconds, sleep: { Monotonic.sleep(milliseconds: $0) })
    }

    /// With a clock of the caller's: `now` in milliseconds, and a `sleep` that moves it on.
    public init(policy: PacingPolicy, now: @escaping () -> Int64, sleep: @escaping (Int) -> Void) {
        self.policy = policy
        self.now = now
        self.sleeper = sleep
    }

    /// A request as the pacer counts it.
    struct Request {
        var endpoint: String
        var points: Int
        var creates: Bool

        init(_ method: HTTPMethod, _ url: String) {
            endpoint = RequestPacer.endpoint(method, url)
            points = method == .get ? 1 : 5
            creates = method == .post || (method == .put && endpoint.contains("/contents/"))
        }
    }

    /// How many of the requests, in order, may start now.
    func room(for requests: some Sequence<Request>) -> Int {
        forget(before: now())
        var taken: [String: Int] = [:]
        var creations = 0
        var count = 0
        for request in requests {
            let used = (spent[request.endpoint]?.total ?? 0) + taken[request.endpoint, default: 0]
            // A request that alone is over a limit still goes, when nothing else is in the window.
            guard used == 0 || used + request.points <= policy.pointsPerEndpoint else { break }
            if request.creates {
                let made = created.total + creations
                guard made == 0 || made < policy.creations else { break }
                creations += 1
            }
            taken[request.endpoint, default: 0] += request.points
            count += 1
        }
        return count
    }

    /// Milliseconds until the request may start.
    func wait(before request: Request) -> Int {
        let time = now()
        forget(before: time)
        var until = time
        if let room = spent[request.endpoint]?.roomAt(request.points, limit: policy.pointsPerEndpoint,
                                                      window: policy.windowMilliseconds) {
            until = max(until, room)
        }
        if request.creates, let room = created.roomAt(1, limit: policy.creations, window: policy.windowMilliseconds) {
            until = max(until, room)
        }
        return Int(until - time)
    }

    /// Counts requests sent now.
    func record(_ requests: [Request]) {
        let time = now()
        for request in requests {
            spent[request.endpoint, default: Window()].add(request.points, at: time)
            if request.creates { created.add(1, at: time) }
        }
    }

    func sleep(_ milliseconds: Int) { sleeper(milliseconds) }

    private func forget(before time: Int64) {
        let cutoff = time - policy.windowMilliseconds
        for endpoint in Array(spent.keys) {
            spent[endpoint]?.drop(through: cutoff)
            if spent[endpoint]?.total == 0 { spent[endpoint] = nil }
        }
        created.drop(through: cutoff)
    }

    /// Points spent within the window, oldest first.
    private struct Window {
        private var entries: [(at: Int64, points: Int)] = []
        private var head = 0
        private(set) var total = 0

        mutating func add(_ points: Int, at time: Int64) {
            entries.append((time, points))
            total += points
        }

        mutating func drop(through cutoff: Int64) {
            while head < entries.count && entries[head].at <= cutoff {
                total -= entries[head].points
                head += 1
            }
            if head > 256 && head * 2 > entries.count {
                entries.removeFirst(head)
                head = 0
            }
        }

        /// When `points` more fit under `limit`, once enough of the oldest have left; nil: now.
        func roomAt(_ points: Int, limit: Int, window: Int64) -> Int64? {
            var over = total + points - limit
            var index = head
            var time: Int64?
            while over > 0 && index < entries.count {
                over -= entries[index].points
                time = entries[index].at + window
                index += 1
            }
            return time
        }
    }

    /// The endpoint a request is to, as GitHub counts its points: the method and the path with
    /// its parameters left out (`GET /repos/*/*/git/trees/*`). After the owner and repository, a
    /// path alternates between a resource and its parameter, except that a branch, a ref, a
    /// comparison or a file takes the rest of the path.
    static func endpoint(_ method: HTTPMethod, _ url: String) -> String {
        var parts = (ParsedURL(url)?.path ?? url).split(separator: "/").map(String.init)
        var index = parts.firstIndex { ["repos", "repositories", "users", "user", "orgs", "organizations"].contains($0) } ?? parts.count
        let named = index < parts.count ? (parts[index] == "repos" ? 2 : (parts[index] == "user" && parts.count - index < 3 ? 0 : 1)) : 0
        index += 1
        for _ in 0..<named where index < parts.count {
            parts[index] = "*"
            index += 1
        }
        var expectsParameter = false
        while index < parts.count {
            if expectsParameter {
                if ["branches", "compare", "contents", "ref", "refs"].contains(parts[index - 1]) {
                    parts.replaceSubrange(index..., with: ["*"])
                    break
                }
                parts[index] = "*"
                expectsParameter = false
            } else {
                expectsParameter = parts[index] != "git"
            }
            index += 1
        }
        return method.rawValue + " /" + parts.joined(separator: "/")
    }
}
