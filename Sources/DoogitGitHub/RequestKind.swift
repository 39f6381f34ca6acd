/// The methods GitHubClient sends.
public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case patch = "PATCH"
    case put = "PUT"
    case delete = "DELETE"
}

/// A request as the retry rule (`GitHubClient.disposition`) and the transport see it: its method,
/// and whether sending it twice does no more than sending it once. The request says it, not its
/// method alone: most POSTs create something, but some make what GitHub names by its content.
public struct RequestKind: Sendable, Equatable {
    public let method: HTTPMethod
    /// Whether it is repeated after any transient failure, like a GET, on a connection already
    /// open. When not, it is sent again only when it certainly never reached GitHub (no
    /// connection was made), and always on a connection of its own: libcurl sends a request
    /// again, unasked, when a reused connection closes before any answer. A duplicate issue is
    /// worse than an error.
    public let isRepeatable: Bool

    public init(_ method: HTTPMethod, isRepeatable: Bool) {
        self.method = method
        self.isRepeatable = isRepeatable
    }

    public static let get = RequestKind(.get, isRepeatable: true)
    /// GitHub's PATCH sets fields to the values given: sent twice, the same values.
    public static let patch = RequestKind(.patch, isRepeatable: true)
    public static let put = RequestKind(.put, isRepeatable: true)
    public static let delete = RequestKind(.delete, isRepeatable: true)
    /// A POST that creates something (an issue, a repository): each one carried out is one more.
    public static let create = RequestKind(.post, isRepeatable: false)
    /// A POST that does no more the second time: a git blob, tree or commit (GitHub names each by
    /// its content, so made twice it is the same object; a commit made twice gets two timestamps
    /// and two names, and the one never referenced is harmless), or labels added to an issue.
    public static let repeatablePost = RequestKind(.post, isRepeatable: true)
}
