import DoogitSupport

/// What went wrong talking to GitHub, with what a message needs. Never holds the token.
public enum GitHubError: Error, Equatable, Sendable {
    /// No token from any source (GH_TOKEN, GITHUB_TOKEN, the saved token, `gh auth token`).
    case missingToken
    /// GitHub answered 401 to a request that carried the token: the token is wrong, expired or revoked.
    case unauthorized(message: String)
    /// A 401 to a request sent without the token: its URL is on another origin than the API's
    /// (`origin`, its scheme, host and port), where the token never goes. Not the token's fault.
    case refusedWithoutToken(origin: String, message: String)
    /// 403 that is not a rate limit: a missing scope, SSO enforcement, a blocked resource.
    case forbidden(message: String, hint: String?)
    /// The primary rate limit (the hour's requests) is used up; `resetAt` is when it resets, when known.
    case rateLimited(resetAt: Timestamp?)
    /// A secondary rate limit: too many requests at once, or in a minute on one endpoint, or
    /// too much content created. `retryAt` is when GitHub allows the next request (its
    /// `Retry-After`; without one, a minute on).
    case secondaryRateLimited(retryAt: Timestamp)
    /// GitHub's own 404 for the resource the request was about.
    case notFound(GitHubResource, message: String)
    /// A 404 that is not about a resource: the API has no such route, so the API URL is wrong
    /// (or the answer is not GitHub's at all).
    case unknownRoute
    /// 410 or 451: the resource existed and is no longer available.
    case unavailable(status: Int, message: String)
    /// 409: the resource changed meanwhile (a file's sha no longer matches, for example).
    case conflict(message: String)
    /// 422: GitHub refused the request's content.
    case validationFailed(message: String)
    /// 5xx after the retries, or a connection, timeout or protocol failure after the retries.
    case serverError(status: Int)
    case network(TransportError)
    /// A request that changes something (a POST) failed in a way that leaves open whether GitHub
    /// carried it out; it is not repeated, since doing it twice is worse than an error.
    /// `request` is the method and path, `reason` what happened.
    case outcomeUnknown(request: String, reason: String)
    /// Any other status.
    case unexpectedStatus(Int, message: String)
    /// The body was not the JSON expected: malformed, truncated, wrong-typed or too large.
    case unexpectedResponse(String)
    case tooManyRedirects
    /// A redirect to another scheme, host or port than the API's; `host` is where it pointed.
    case redirectRefused(host: String)
    /// The API URL is not usable: malformed, or plain http to a host that is not loopback.
    case invalidAPIURL(String, reason: String)
}

/// What a request is about, so that a 404 can say what was not found.
public enum GitHubResource: Equatable, Sendable {
    /// A repository, by OWNER/NAME or, when asked for by id, `id N`.
    case repository(String)
    case issue(repository: String, number: Int)
    /// A file of a repository (the Contents API).
    case file(repository: String, path: String)
    /// A git object (a tree, blob or commit) of a repository, by its name.
    case gitObject(repository: String, sha: String)
    /// The signed-in user.
    case user
    /// Anything else, described in a few words.
    case other(String)
}
