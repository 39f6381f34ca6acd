import DoogitGitHub

extension RepositoryPhase {
    /// Why a repository could not be read, in words (never the error's debug form).
    static func describe(_ error: GitHubError) -> String {
        switch error {
        case .forbidden(let message, let hint): return message + (hint.map { " (\($0))" } ?? "")
        case .unexpectedResponse(let detail): return "unexpected response (\(detail))"
        case .unexpectedStatus(let status, let message), .unavailable(let status, let message):
            return "HTTP \(status): \(message)"
        case .validationFailed(let message), .conflict(let message): return message
        case .network(let transport): return transport.summary
        case .serverError(let status): return "GitHub is having trouble (HTTP \(status))"
        case .notFound: return "not found"
        case .unknownRoute: return "no such API route (HTTP 404)"
        case .rateLimited: return "rate limit used up"
        case .secondaryRateLimited: return "secondary rate limit met"
        case .missingToken: return "no token"
        case .unauthorized(let message): return "the token was rejected (\(message))"
        case .refusedWithoutToken(let origin, let message): return "\(origin), not the API's origin, refused a request sent without the token (\(message))"
        case .outcomeUnknown(let request, let reason): return "\(request) may have reached GitHub (\(reason))"
        case .tooManyRedirects: return "too many redirects"
        case .redirectRefused(let host): return "redirected to another host (\(host))"
        case .invalidAPIURL(let url, let reason): return "cannot use the API URL \(url): \(reason)"
        }
    }
}
