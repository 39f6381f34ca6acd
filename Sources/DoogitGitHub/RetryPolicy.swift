/// How hard GitHubClient tries before it gives up. The whole command, retries and waits
/// included, stays within `deadlineMilliseconds`, so a stalled or unreachable server fails the
/// command in well under a minute (cron's next run will try again).
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per request, the first included.
    public var maximumAttempts: Int
    /// The first backoff; each further one doubles, with jitter, up to `maximumDelayMilliseconds`.
    public var baseDelayMilliseconds: Int
    public var maximumDelayMilliseconds: Int
    /// A rate limit that lifts within this long is waited out rather than failing.
    public var longestWaitMilliseconds: Int
    /// The budget of all requests of one command.
    public var deadlineMilliseconds: Int

    public init(maximumAttempts: Int = 3, baseDelayMilliseconds: Int = 1000, maximumDelayMilliseconds: Int = 8000,
                longestWaitMilliseconds: Int = 10_000, deadlineMilliseconds: Int = 50_000) {
        self.maximumAttempts = maximumAttempts
        self.baseDelayMilliseconds = baseDelayMilliseconds
        self.maximumDelayMilliseconds = maximumDelayMilliseconds
        self.longestWaitMilliseconds = longestWaitMilliseconds
        self.deadlineMilliseconds = deadlineMilliseconds
    }

    /// The pause before attempt `attempt + 1`: exponential, with "equal jitter" (half fixed,
    /// half random) so that many clients do not retry in step.
    public func delay(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Int {
        let exponential = min(maximumDelayMilliseconds, baseDelayMilliseconds << min(attempt - 1, 16))
        let half = exponential / 2
        return half + (half > 0 ? Int.random(in: 0...half, using: &generator) : 0)
    }
}
