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
