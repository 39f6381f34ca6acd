import DoogitSupport

/// GitHub's secondary rate limits, kept and obeyed: requests are paced (`RequestPacer`), and once
/// GitHub has answered that a limit is met, nothing more is sent before the time it gave
/// (continuing while limited may get a client banned, its docs say).
extension GitHubClient {
    /// The limit GitHub asked to wait out, while the wait lasts.
    func heldByLimit() -> GitHubError? {
        guard let hold = limitHold, Monotonic.milliseconds() < hold.until else { return nil }
        return hold.limit
    }

    /// Sends nothing more for `milliseconds`: GitHub answered `limit`.
    func hold(for milliseconds: Int, _ limit: GitHubError) {
        let until = Monotonic.milliseconds() + Int64(max(0, milliseconds))
        if let current = limitHold, current.until >= until { return }
        limitHold = (until, limit)
    }

    /// The limit GitHub asked to wait out and until when (the wall clock's time), while the wait
    /// lasts: what the next command must keep to as well (`hold(until:_:)`).
    public var limitHeldUntil: (until: Timestamp, limit: GitHubError)? {
        guard let hold = limitHold else { return nil }
        let left = hold.until - Monotonic.milliseconds()
        guard left > 0 else { return nil }
        return (Timestamp(millisecondsSinceEpoch: Timestamp.now().millisecondsSinceEpoch + left), hold.limit)
    }

    /// Sends nothing before `until`: an earlier command met `limit`, and GitHub named that time.
    public func hold(until: Timestamp, _ limit: GitHubError) {
        let left = until.millisecondsSinceEpoch - Timestamp.now().millisecondsSinceEpoch
        // A day is as long as doogit would ever wait (a clock set wrong cannot hold it longer).
        if left > 0 { hold(for: Int(min(left, 86_400_000)), limit) }
    }

    /// How many of these requests (in order) may start now, after waiting for room for the
    /// first when there is none.
    func pacedRoom(for requests: some Collection<RequestPacer.Request>) -> Int {
        guard let first = requests.first else { return 0 }
        let room = pacer.room(for: requests)
        if room > 0 { return room }
        pace(pacer.wait(before: first), first.endpoint)
        return max(1, pacer.room(for: requests))
    }

    /// Waits for the pacer before one request, and counts it as sent.
    func paceOne(_ method: HTTPMethod, _ url: String) {
        let request = RequestPacer.Request(method, url)
        pace(pacer.wait(before: request), request.endpoint)
        pacer.record([request])
    }

    /// Waits `milliseconds` for the pacer. The wait is doogit's, not GitHub's silence: the
    /// deadline moves along with it.
    private func pace(_ milliseconds: Int, _ endpoint: String) {
        guard milliseconds > 0 else { return }
        log("waiting \(milliseconds) ms to keep within GitHub's secondary rate limit on \(endpoint)")
        pacer.sleep(milliseconds)
        deadline += Int64(milliseconds)
        pacedMilliseconds += milliseconds
    }
}
