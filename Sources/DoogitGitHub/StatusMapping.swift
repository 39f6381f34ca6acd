import DoogitSupport

extension GitHubClient {
    /// The error a response stands for, or nil for 2xx, 304 and redirects. `resource` is what
    /// the request was about, for a 404 to name.
    public static func error(for response: HTTPResponse, about resource: GitHubResource = .other("the resource"))
        -> GitHubError?
    {
        let status = response.status
        if (200..<300).contains(status) || status == 304 || (300..<400).contains(status) { return nil }
        let body = try? JSONParser.parse(response.body)
        let message = (try? body?.optionalString("message")) ?? nil
        let text = message ?? "HTTP \(status)"
        switch status {
        case 401:
            return .unauthorized(message: text)
        case 403, 429:
            return rateLimit(response, message: message) ?? .forbidden(message: text, hint: forbiddenHint(response))
        case 404:
            // Only GitHub's own answer about the resource says it is absent: a 404 for an unknown
            // route (a wrong API URL) or from a proxy must not flag a repository gone.
            let documentation = (try? body?.optionalString("documentation_url")) ?? nil
            guard let message, namesAnEndpoint(documentation) else { return .unknownRoute }
            return .notFound(resource, message: message)
        case 410, 451:
            guard let message else {
                return .unexpectedStatus(status, message: "not an answer of the GitHub API; check DOOGIT_API_URL or GH_HOST")
            }
            return .unavailable(status: status, message: message)
        case 409:
            return .conflict(message: text)
        case 422:
            let details = ((try? body?.array("errors")) ?? []).compactMap { error -> String? in
                if let message = (try? error.optionalString("message")) ?? nil { return message }
                guard let code = (try? error.optionalString("code")) ?? nil else { return nil }
                let field = (try? error.optionalString("field")) ?? nil
                return field.map { "\($0) \(code)" } ?? code
            }
            return .validationFailed(message: ([text] + details).joined(separator: ": "))
        case 500...599:
            return .serverError(status: status)
        default:
            return .unexpectedStatus(status, message: text)
        }
    }

    /// The error an answer to a request to `url` stands for. The token goes only to the API's
    /// origin (`headers(for:)`), so a 401 from any other was not about the token: it is that
    /// origin refusing a request sent without it.
    func error(for response: HTTPResponse, from url: String, about resource: GitHubResource) -> GitHubError? {
        let error = error(for: response, about: resource)
        guard case .unauthorized(let message)? = error, !configuration.endpoint.isSameOrigin(url) else { return error }
        return .refusedWithoutToken(origin: APIEndpoint.origin(of: url), message: message)
    }

    /// The rate limit a 403 or 429 stands for, by GitHub's rules ("Rate limits for the REST API",
    /// Exceeding the rate limit), or nil for a refusal. `x-ratelimit-remaining: 0` is the primary
    /// limit, unless the message says a secondary one was exceeded. A secondary limit says so in
    /// its message (formerly: an abuse detection mechanism), or answers with `Retry-After`, or
    /// 429 without the primary limit's mark; GitHub asks to wait `Retry-After`, else until
    /// `x-ratelimit-reset` when none remain, else at least a minute.
    static func rateLimit(_ response: HTTPResponse, message: String?) -> GitHubError? {
        let text = message?.lowercased() ?? ""
        let saysSecondary = text.contains("secondary rate limit") || text.contains("abuse detection")
        let noneRemain = response.header("x-ratelimit-remaining") == "0"
        let reset = response.header("x-ratelimit-reset").flatMap { Int64($0) }.map { Timestamp(secondsSinceEpoch: $0) }
        if noneRemain && !saysSecondary { return .rateLimited(resetAt: reset) }
        let retryAfter = retryAfterSeconds(response)
        guard saysSecondary || retryAfter != nil || response.status == 429 else {
            return text.contains("rate limit") ? .rateLimited(resetAt: nil) : nil
        }
        let now = Timestamp.now().millisecondsSinceEpoch
        if let retryAfter { return .secondaryRateLimited(retryAt: Timestamp(millisecondsSinceEpoch: now + retryAfter * 1000)) }
        if noneRemain, let reset { return .secondaryRateLimited(retryAt: reset) }
        return .secondaryRateLimited(retryAt: Timestamp(millisecondsSinceEpoch: now + secondaryLimitWait))
    }

    /// How long to wait after a secondary rate limit that did not say: GitHub's "at least one minute".
    static let secondaryLimitWait: Int64 = 60_000

    /// Whether a 404's `documentation_url` is the page of an endpoint (GitHub's answer about a
    /// resource, `https://docs.github.com/rest/repos/repos#get-a-repository`) rather than the
    /// bare documentation root GitHub gives for a route it does not have
    /// (`https://docs.github.com/rest`, `.../enterprise-server@3.9/rest`, formerly `.../v3`).
    static func namesAnEndpoint(_ documentationURL: String?) -> Bool {
        guard let documentationURL, let url = ParsedURL(documentationURL) else { return false }
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        return !(path.isEmpty || path.hasSuffix("/rest") || path == "/v3")
    }

    /// Whether the body is an error of GitHub's (JSON with a message), whatever its status.
    static func isGitHubError(_ response: HTTPResponse) -> Bool {
        guard let body = try? JSONParser.parse(response.body) else { return false }
        return ((try? body.optionalString("message")) ?? nil) != nil
    }

    static func forbiddenHint(_ response: HTTPResponse) -> String? {
        if let sso = response.header("x-github-sso"), sso.hasPrefix("required") {
            return "authorize the token for your organization's single sign-on"
        }
        if let needed = response.header("x-accepted-oauth-scopes"), !needed.isEmpty {
            return "the token needs the scope(s): \(needed)"
        }
        return nil
    }

    /// `Retry-After` in seconds, when it is a number; capped at a day, so no arithmetic on it
    /// can overflow whatever a server sends.
    static func retryAfterSeconds(_ response: HTTPResponse) -> Int64? {
        guard let value = response.header("retry-after"), let seconds = Int64(value), seconds >= 0 else { return nil }
        return min(seconds, 86_400)
    }

    static func decodingError(_ error: JSONError) -> GitHubError {
        switch error {
        case .syntax(let offset, let reason): return .unexpectedResponse("invalid JSON at byte \(offset): \(reason)")
        case .tooDeep: return .unexpectedResponse("JSON nested too deeply")
        case .missing(let field): return .unexpectedResponse("field '\(field)' is missing")
        case .wrongType(let field, let expected): return .unexpectedResponse("field '\(field)' is not \(expected)")
        }
    }
}
