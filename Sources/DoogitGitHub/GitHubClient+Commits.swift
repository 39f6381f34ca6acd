import DoogitSupport

/// A commit: its sha, message, and when it was committed (nil when GitHub did not say).
public struct GitHubCommit: Equatable, Sendable {
    public var sha: String
    public var message: String
    public var committedAt: Timestamp?

    public init(sha: String, message: String, committedAt: Timestamp? = nil) {
        self.sha = sha
        self.message = message
        self.committedAt = committedAt
    }

    public init(json: JSONValue) throws(JSONError) {
        let commit = try json.field("commit")
        var committedAt: Timestamp?
        if let committer = commit["committer"], committer != .null {
            committedAt = try committer.optionalString("date").flatMap { Timestamp(rfc3339: $0) }
        }
        self.init(sha: try json.string("sha"), message: try commit.string("message"), committedAt: committedAt)
    }
}

/// A branch as read: its head commit (unless unchanged since the ETag given), and GitHub's
/// time of the answer.
public struct BranchRead: Equatable, Sendable {
    public var head: Conditional<String>
    public var date: Timestamp?
}

/// What lies between two commits: GitHub's `status` (`ahead`, `identical`, `behind`,
/// `diverged`) and the commits reachable from the head but not from the base, oldest first.
public struct CommitComparison: Equatable, Sendable {
    public var status: String
    public var commits: [GitHubCommit]
}

extension GitHubClient {
    /// The URL of a branch (its name may hold slashes and any other character).
    public func branchURL(owner: String, name: String, branch: String) -> String {
        configuration.endpoint.url(URLPath.repository(owner: owner, name: name) + "/branches/" + URLPath.encodedSegments(branch))
    }

    /// The head commit of several branches at once (in parallel where the transport can), each
    /// conditional on its ETag: an unchanged branch is a 304 and costs no rate limit. Each answer
    /// comes with GitHub's time of it (its `Date`). A branch with no commit yet is GitHub's 404
    /// "Branch not found" (see `isMissingBranch`).
    public func branchHeads(_ wanted: [(url: String, etag: String?, resource: GitHubResource)])
        -> [Result<BranchRead, GitHubError>]
    {
        conditionalAll(wanted) { response throws(GitHubError) in
            let date = response.header("date").flatMap(HTTPDate.parse)
            if response.status == 304 { return BranchRead(head: .notModified, date: date) }
            let sha = try self.decode(response) { json throws(JSONError) in try json.field("commit").string("sha") }
            return BranchRead(head: .modified(sha, etag: response.header("etag")), date: date)
        }
    }

    /// Whether the branch exists (false: GitHub answers "Branch not found").
    public func branchExists(owner: String, name: String, branch: String) throws(GitHubError) -> Bool {
        do {
            _ = try get(branchURL(owner: owner, name: name, branch: branch), about: .repository("\(owner)/\(name)"))
            return true
        } catch where Self.isMissingBranch(error) {
            return false
        }
    }

    /// Whether GitHub's 404 says the branch does not exist (a repository with no commit yet has
    /// no default branch), rather than that the repository does not.
    public static func isMissingBranch(_ error: GitHubError) -> Bool {
        if case .notFound(_, let message) = error { return message.lowercased().contains("branch not found") }
        return false
    }

    /// The commits from `base` (excluded) to `head`, every page up to `maximumPages` of 100.
    /// GitHub answers 404 when `base` no longer exists (a force-push removed it).
    public func compare(owner: String, name: String, base: String, head: String, maximumPages: Int = 20)
        throws(GitHubError) -> CommitComparison
    {
        let resource = GitHubResource.other("the commits between \(base.prefix(7)) and \(head.prefix(7)) of \(owner)/\(name)")
        var next: String? = configuration.endpoint.url(
            URLPath.repository(owner: owner, name: name) + "/compare/" + URLPath.encoded(base) + "..." + URLPath.encoded(head)
                + "?per_page=100")
        var status = "identical"
        var commits: [GitHubCommit] = []
        var pages = 0
        while let url = next, pages < maximumPages {
            pages += 1
            guard configuration.endpoint.isSameOrigin(url) else { throw .unexpectedResponse("a page outside the API") }
            let response = try get(url, about: resource)
            let page = try decode(response) { json throws(JSONError) -> (String, [GitHubCommit]) in
                var found: [GitHubCommit] = []
                for commit in try json.array("commits") { found.append(try GitHubCommit(json: commit)) }
                return (try json.string("status"), found)
            }
            status = page.0
            commits += page.1
            next = response.header("link").flatMap { LinkHeader.url(for: "next", in: $0) }
        }
        return CommitComparison(status: status, commits: commits)
    }

    /// The latest commits reachable from `sha`, newest first, at most `limit` (up to 100).
    public func recentCommits(owner: String, name: String, from sha: String, limit: Int = 100)
        throws(GitHubError) -> [GitHubCommit]
    {
        try commits(in: get(recentCommitsURL(owner: owner, name: name, from: sha, limit: limit),
                                 about: .repository("\(owner)/\(name)")))
    }

    /// The latest commits of several branches at once (in parallel where the transport can), in
    /// the order asked; as `recentCommits(owner:name:from:limit:)` for each.
    public func recentCommits(of wanted: [(owner: String, name: String, sha: String)], limit: Int = 100)
        -> [Result<[GitHubCommit], GitHubError>]
    {
        conditionalAll(wanted.map { (url: recentCommitsURL(owner: $0.owner, name: $0.name, from: $0.sha, limit: limit),
                                     etag: nil, resource: .repository("\($0.owner)/\($0.name)")) },
                       read: commits(in:))
    }

    private func recentCommitsURL(owner: String, name: String, from sha: String, limit: Int) -> String {
        configuration.endpoint.url(URLPath.repository(owner: owner, name: name) + "/commits?sha=" + URLPath.encoded(sha)
            + "&per_page=\(max(1, min(100, limit)))")
    }

    private func commits(in response: HTTPResponse) throws(GitHubError) -> [GitHubCommit] {
        try decode(response) { json throws(JSONError) -> [GitHubCommit] in
            guard case .array(let elements) = json else { throw .wrongType(field: "commits", expected: "a list") }
            var commits: [GitHubCommit] = []
            for element in elements { commits.append(try GitHubCommit(json: element)) }
            return commits
        }
    }
}
