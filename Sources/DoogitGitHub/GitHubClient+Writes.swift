import DoogitSupport

extension GitHubClient {
    /// Sends a request that changes something, with a JSON body, and returns GitHub's answer
    /// parsed (`.null` when it has no body, as a 204 has). A repeatable request (GET, PUT, PATCH,
    /// DELETE, a content-addressed POST) is retried like any GET; a creation only when it
    /// certainly never reached GitHub, otherwise it fails with `outcomeUnknown` (see
    /// `RequestKind`). A 404 names `resource`.
    public func send(_ kind: RequestKind, _ path: String, body: JSONValue?, about resource: GitHubResource)
        throws(GitHubError) -> JSONValue
    {
        guard path.hasPrefix("/") else { throw .unexpectedResponse("'\(path)' is not an API path") }
        let bytes = body.map { Array(JSONWriter.write($0).utf8) }
        let response = try request(kind, path, body: bytes, about: resource)
        guard !response.body.isEmpty else { return .null }
        return try parse(response)
    }

    /// Creates something (an issue, a repository). Never repeated once it may have reached GitHub.
    public func post(_ path: String, _ body: JSONValue, about resource: GitHubResource) throws(GitHubError) -> JSONValue {
        try send(.create, path, body: body, about: resource)
    }

    /// Changes fields of something (an issue's title or state).
    public func patch(_ path: String, _ body: JSONValue, about resource: GitHubResource) throws(GitHubError) -> JSONValue {
        try send(.patch, path, body: body, about: resource)
    }

    /// Replaces something (a file through the Contents API).
    public func put(_ path: String, _ body: JSONValue, about resource: GitHubResource) throws(GitHubError) -> JSONValue {
        try send(.put, path, body: body, about: resource)
    }

    public func delete(_ path: String, _ body: JSONValue? = nil, about resource: GitHubResource) throws(GitHubError)
        -> JSONValue
    {
        try send(.delete, path, body: body, about: resource)
    }
}
