/// The methods GitHubClient sends, and what each allows after a failure.
public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case patch = "PATCH"
    case put = "PUT"
    case delete = "DELETE"

    /// Whether sending it twice does no more than sending it once. GET, PUT and DELETE are, and
    /// GitHub's PATCH sets fields to given values: these are retried after any transient failure.
    /// A POST creates something, so it is repeated only when it certainly never reached GitHub
    /// (no connection was made): a duplicate issue is worse than an error.
    public var isIdempotent: Bool { self != .post }
}
