import DoogitSupport

/// What went wrong talking to GitHub, with what a message needs. Never holds the token.
public enum GitHubError: Error, Equatable, Sendable {
    /// No token from any source (GH_TOKEN, GITHUB_TOKEN, the saved token, `gh auth token`).
    case missingToken
    /// GitHub answered 401: the token is wrong, expired or revoked.
    case unauthorized(message: String)
    /// 403 that is not a rate limit: a missing scope, SSO enforcement, a blocked resource.
    case forbidden(message: String, hint: String?)
    /// The primary or secondary rate limit; `resetAt` is when to try again, when known.
    case rateLimited(resetAt: Timestamp?)
    case notFound(message: String)
    /// 410 or 451: the resource existed and is no longer available.
    case unavailable(status: Int, message: String)
    /// 422: GitHub refused the request's content.
    case validationFailed(message: String)
    /// 5xx after the retries, or a connection, timeout or protocol failure after the retries.
    case serverError(status: Int)
    case network(TransportError)
    /// Any other status.
    case unexpectedStatus(Int, message: String)
    /// The body was not the JSON expected: malformed, truncated, wrong-typed or too large.
    case unexpectedResponse(String)
    case tooManyRedirects
    /// The API URL is not usable: malformed, or plain http to a host that is not loopback.
    case invalidAPIURL(String, reason: String)
}
