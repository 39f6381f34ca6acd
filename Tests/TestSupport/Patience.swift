/// How long a test waits for what a passing run brings about. The suite runs on two cores shared
/// with other builds, where a sync of a hundred repositories can take many seconds: a bound that
/// a loaded machine could reach would decide the result by the machine's load. These are far
/// beyond that, so they only ever end a run that is broken (which then fails, slowly).
public enum Patience {
    /// The longest wait for an event: a request that arrives, requests that meet in the server, a
    /// child process that ends.
    public static let seconds: Double = 60

    /// The HTTP timeouts (connect, total, stall) of a test's client, when the test is not about
    /// timeouts: longer than any wait of the server above, so that an answer a test holds back
    /// never times out first.
    public static let requestMilliseconds = 150_000

    /// A client's deadline over all the attempts of one command, for the same tests: above the
    /// timeouts of one attempt, so that it never cuts an attempt short.
    public static let deadlineMilliseconds = 300_000
}
