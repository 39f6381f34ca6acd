import DoogitSupport

/// GitHub's clock, as its answers date them: what a time this machine took by its own clock
/// (which may run minutes apart from GitHub's) is on GitHub's, for a `since` GitHub compares
/// with its own times.
extension GitHubClient {
    /// GitHub's time now: the `Date` of its latest answer, plus what has passed since it arrived
    /// (whole seconds, as `Date` has them). Nil before any answer with a `Date`.
    public var gitHubNow: Timestamp? {
        guard let lastDate else { return nil }
        return Timestamp(millisecondsSinceEpoch: lastDate.time.millisecondsSinceEpoch + Monotonic.milliseconds() - lastDate.receivedAt)
    }

    /// `time`, read by this machine's clock (`now` is that clock now), on GitHub's clock: moved
    /// by how far apart the two clocks are now. Unmoved while no answer has told GitHub's time.
    public func onGitHubsClock(_ time: Timestamp, now: Timestamp) -> Timestamp {
        guard let gitHubNow else { return time }
        return Timestamp(millisecondsSinceEpoch: time.millisecondsSinceEpoch + gitHubNow.millisecondsSinceEpoch
                             - now.millisecondsSinceEpoch)
    }

    /// Keeps the answer's `Date` (parsed only when it differs from the last one's text).
    func recordDate(_ response: HTTPResponse) {
        // Within one of GitHub's seconds, the first answer tells best when that second began.
        guard let text = response.header("date"), text != lastDate?.text, let time = HTTPDate.parse(text) else { return }
        lastDate = (text, time, Monotonic.milliseconds())
    }
}
