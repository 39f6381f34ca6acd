import DoogitSupport

/// Retries and the deadline: how long each attempt may take, which failures are tried again, and the
/// rate limit each answer reports.
extension GitHubClient {
    private var remainingMilliseconds: Int { Int(deadline - Monotonic.milliseconds()) }

    /// This attempt's limits, clipped to what is left of the deadline; nil when nothing is.
    func attemptTimeouts() -> HTTPTimeouts? {
        let remaining = remainingMilliseconds
        guard remaining > 0 else { return nil }
        var timeouts = configuration.timeouts
        timeouts.totalMilliseconds = min(timeouts.totalMilliseconds, remaining)
        timeouts.connectMilliseconds = min(timeouts.connectMilliseconds, remaining)
        return timeouts
    }

    /// What to do with the outcome of one attempt.
    enum Disposition {
        case answered(HTTPResponse)
        case retry(afterMilliseconds: Int)
        case failed(GitHubError)
    }

    static let retriedStatuses = [500, 502, 503, 504]

    /// Whether an outcome is a sign of a failing GitHub: no answer, or 500/502/503/504.
    static func isTransientFailure(_ outcome: Result<HTTPResponse, TransportError>) -> Bool {
        switch outcome {
        case .failure: return true
        case .success(let response): return retriedStatuses.contains(response.status)
        }
    }

    /// The error a transient failure stands for once it is no longer retried.
    static func failure(of outcome: Result<HTTPResponse, TransportError>) -> GitHubError {
        switch outcome {
        case .failure(let error): return .network(error)
        case .success(let response): return error(for: response) ?? .serverError(status: response.status)
        }
    }

    /// The one place that decides about an attempt: transient failures (no connection, timeout,
    /// 500/502/503/504) are retried with backoff, a rate limit (primary or secondary) that lifts
    /// within `longestWaitMilliseconds` is waited out, everything else is the answer; and no
    /// request is sent while a limit lasts (`hold`). A request that is not repeatable (a
    /// creation, see `RequestKind`) is retried only when no connection was made; after any other
    /// failure GitHub may have carried it out, and it fails with `outcomeUnknown`. Only a definite
    /// answer extends the deadline, so neither a stalled server nor one that keeps refusing can
    /// hold a command beyond it.
    func disposition(of outcome: Result<HTTPResponse, TransportError>, attempt: Int, kind: RequestKind = .get,
                     url: String = "") -> Disposition {
        let policy = configuration.retry
        let response: HTTPResponse
        switch outcome {
        case .failure(.unavailable(let detail)):
            return .failed(.network(.unavailable(detail)))
        case .failure(.optionRefused(let option)):
            return .failed(.network(.optionRefused(option)))
        case .failure(.tooLarge):
            return .failed(.unexpectedResponse("the response was too large"))
        case .failure(.untrusted(let detail)):
            // Nothing was sent (TLS comes first), and another try meets the same certificate.
            return .failed(.network(.untrusted(detail)))
        case .failure(let error):
            if case .cannotConnect = error {} else if !kind.isRepeatable {
                return .failed(.outcomeUnknown(request: Self.describe(kind.method, url), reason: Self.describe(error)))
            }
            guard attempt < policy.maximumAttempts else { return .failed(.network(error)) }
            return .retry(afterMilliseconds: policy.delay(afterAttempt: attempt, using: &random))
        case .success(let answer):
            response = answer
        }
        recordRateLimit(response)
        recordDate(response)
        let limit = Self.error(for: response)
        let limited: Timestamp??
        switch limit {
        case .rateLimited(let resetAt)?: limited = .some(resetAt)
        case .secondaryRateLimited(let retryAt)?: limited = .some(retryAt)
        default: limited = nil
        }
        let limitWait = limited.flatMap { resetAt in
            retryAfterMilliseconds(response) ?? resetAt.map { reset in
                let now = Timestamp.now().millisecondsSinceEpoch
                // reset > now >= 0 cannot overflow; a day is as long as doogit would ever wait.
                return Int(reset.millisecondsSinceEpoch > now ? min(reset.millisecondsSinceEpoch - now, 86_400_000) : 0) + 1000
            }
        }
        if let limit, let limitWait { hold(for: limitWait, limit) }
        if limited == nil && !Self.retriedStatuses.contains(response.status) {
            deadline = Monotonic.milliseconds() + Int64(policy.deadlineMilliseconds)
        }
        if Self.retriedStatuses.contains(response.status) && !kind.isRepeatable {
            return .failed(.outcomeUnknown(request: Self.describe(kind.method, url), reason: "GitHub answered HTTP \(response.status)"))
        }
        guard attempt < policy.maximumAttempts else { return .answered(response) }
        if Self.retriedStatuses.contains(response.status) {
            let wait = retryAfterMilliseconds(response) ?? policy.delay(afterAttempt: attempt, using: &random)
            return wait <= policy.longestWaitMilliseconds ? .retry(afterMilliseconds: wait) : .answered(response)
        }
        if let wait = limitWait, wait <= policy.longestWaitMilliseconds { return .retry(afterMilliseconds: max(0, wait)) }
        return .answered(response)
    }

    /// `POST /repos/o/r/issues`: the method and the path, without the origin.
    private static func describe(_ method: HTTPMethod, _ url: String) -> String {
        "\(method.rawValue) \(ParsedURL(url)?.path ?? url)"
    }

    private static func describe(_ error: TransportError) -> String {
        switch error {
        case .timeout: return "it timed out"
        case .connection(let detail), .cannotConnect(let detail): return "the connection failed: \(detail)"
        default: return error.summary
        }
    }

    /// One request, one attempt, counted and logged.
    func sendOnce(_ kind: RequestKind, url: String, body: [UInt8]?, etag: String?, timeouts: HTTPTimeouts,
                  accept: String? = nil) -> Result<HTTPResponse, TransportError>
    {
        paceOne(kind.method, url)
        requestCount += 1
        let started = Monotonic.milliseconds()
        let method = kind.method.rawValue
        let request = HTTPRequest(method: method, url: url,
                                  headers: headers(for: url, etag: etag, hasBody: body != nil, accept: accept), body: body,
                                  timeouts: timeouts, isRepeatable: kind.isRepeatable)
        let outcome = Result { () throws(TransportError) in try transport.send(request) }
        let elapsed = Monotonic.milliseconds() - started
        switch outcome {
        case .success(let response): log("\(method) \(url) -> \(response.status) (\(elapsed) ms)")
        case .failure(let error): log("\(method) \(url) failed: \(error.summary) (\(elapsed) ms)")
        }
        return outcome
    }

    /// One request with its retries, by `disposition`; `attemptsMade` are those it had already
    /// (in a parallel window), counted against `RetryPolicy.maximumAttempts`.
    func sendWithRetries(_ kind: RequestKind, url: String, body: [UInt8]?, etag: String?, accept: String? = nil,
                         attemptsMade: Int = 0) throws(GitHubError) -> HTTPResponse
    {
        var attempt = attemptsMade
        while true {
            attempt += 1
            if let limit = heldByLimit() { throw limit }
            guard let timeouts = attemptTimeouts() else { throw .network(.timeout) }
            let outcome = sendOnce(kind, url: url, body: body, etag: etag, timeouts: timeouts, accept: accept)
            switch disposition(of: outcome, attempt: attempt, kind: kind, url: url) {
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

    /// Waits as long as a retry after `attempt` failed attempts would (the policy's backoff, with
    /// jitter), unless that would pass the command's deadline; false then. For a caller that
    /// tries again on an answer that is no failure to GitHub (a replica that lags).
    public func waitBeforeRetry(after attempt: Int) -> Bool {
        pause(configuration.retry.delay(afterAttempt: attempt, using: &random))
    }

    /// Waits this long unless that would pass the command's deadline; false then.
    public func wait(milliseconds: Int) -> Bool { pause(milliseconds) }

    /// Sleeps unless that would pass the deadline; false when there is no time left for it.
    func pause(_ milliseconds: Int) -> Bool {
        guard milliseconds < remainingMilliseconds - 100 else { return false }
        Monotonic.sleep(milliseconds: milliseconds)
        return true
    }

    private func retryAfterMilliseconds(_ response: HTTPResponse) -> Int? {
        Self.retryAfterSeconds(response).map { Int($0) * 1000 }
    }

    private func recordRateLimit(_ response: HTTPResponse) {
        guard let remaining = response.header("x-ratelimit-remaining").flatMap({ Int($0) }) else { return }
        let reset = response.header("x-ratelimit-reset").flatMap { Int64($0) }.map { Timestamp(secondsSinceEpoch: $0) }
        // Parallel answers arrive in any order: within one window the lowest count is the latest.
        if let current = rateLimit, current.resetAt == reset, current.remaining < remaining { return }
        rateLimit = RateLimitStatus(remaining: remaining, resetAt: reset)
    }
}
