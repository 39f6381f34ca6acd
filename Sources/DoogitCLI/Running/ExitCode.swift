/// The exit codes of the command-line contract; decided only in ErrorReporter.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// The command failed: unknown repository or todo, a refused change, GitHub said 404/422.
    case failure = 1
    case usage = 2
    /// Authentication needed: no token, or GitHub answered 401.
    case authentication = 4
    /// Worth retrying later: network, timeout, rate limit, GitHub down (EX_TEMPFAIL).
    case temporaryFailure = 75
}
