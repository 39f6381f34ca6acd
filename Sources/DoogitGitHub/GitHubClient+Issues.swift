import DoogitSupport

/// An issue (or a pull request: GitHub lists both as issues) with the fields doogit reads.
public struct GitHubIssue: Equatable, Sendable {
    public enum State: String, Sendable {
        case open, closed
    }

    public var number: Int64
    public var title: String
    public var body: String?
    public var state: State
    public var htmlURL: String
    /// As GitHub sent it (`2011-04-22T13:33:48Z`).
    public var updatedAt: String
    /// When it was closed, as GitHub sent it (nil while open).
    public var closedAt: String?
    /// Items whose `pull_request` member names one are pull requests (issues of 2012 and 2013
    /// carry a `pull_request` whose `html_url` is null: they are issues).
    public var isPullRequest: Bool
    public var assignees: [String]
    /// Who opened it.
    public var author: String?
    /// The names of its labels.
    public var labels: [String]

    public init(number: Int64, title: String, body: String? = nil, state: State, htmlURL: String, updatedAt: String,
                closedAt: String? = nil, isPullRequest: Bool = false, assignees: [String] = [], author: String? = nil,
                labels: [String] = []) {
        self.labels = labels
        self.number = number
        self.title = title
        self.body = body
        self.state = state
        self.htmlURL = htmlURL
        self.updatedAt = updatedAt
        self.closedAt = closedAt
        self.isPullRequest = isPullRequest
        self.assignees = assignees
        self.author = author
    }

    public init(json: JSONValue) throws(JSONError) {
        let stateText = try json.string("state")
        guard let state = State(rawValue: stateText) else { throw .wrongType(field: "state", expected: "open or closed") }
        var assignees: [String] = []
        if case .array(let people)? = json["assignees"] {
            for person in people { assignees.append(try person.string("login")) }
        } else if let assignee = json["assignee"], assignee != .null {
            assignees.append(try assignee.string("login"))
        }
        var labels: [String] = []
        if case .array(let items)? = json["labels"] { labels = Self.labelNames(items) }
        let author: String?
        if let user = json["user"], user != .null { author = try user.optionalString("login") } else { author = nil }
        var isPullRequest = false
        switch json["pull_request"] {
        case nil, .null?: break
        case .object?: isPullRequest = (json["pull_request"]?["html_url"] ?? .null) != .null
        default: isPullRequest = true
        }
        self.init(number: try json.int64("number"), title: try json.string("title"), body: try json.optionalString("body"),
                  state: state, htmlURL: try json.string("html_url"), updatedAt: try json.string("updated_at"),
                  closedAt: try json.optionalString("closed_at"), isPullRequest: isPullRequest, assignees: assignees,
                  author: author, labels: labels)
        guard number > 0, Timestamp(rfc3339: updatedAt) != nil else {
            throw .wrongType(field: "number", expected: "an issue with a number and an updated_at time")
        }
    }

    /// The names of labels as GitHub lists them: objects with a name (strings in some older
    /// answers). A label without a name (GitHub's description lets it leave the name out), or
    /// with control characters in it, is left out, as no tag can hold it: the rest stand.
    static func labelNames(_ items: [JSONValue]) -> [String] {
        var names: [String] = []
        for item in items {
            let name: String
            if case .string(let text) = item {
                name = text
            } else if case .string(let text)? = item["name"] {
                name = text
            } else {
                continue
            }
            if !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { names.append(name) }
        }
        return names
    }
}

/// One page of an issue listing and the URL of the next one.
public struct IssuePage: Equatable, Sendable {
    public var issues: [GitHubIssue]
    public var nextURL: String?
}

extension GitHubClient {
    static func issueResource(_ owner: String, _ name: String, _ number: Int64) -> GitHubResource {
        .issue(repository: "\(owner)/\(name)", number: Int(truncatingIfNeeded: number))
    }

    public func issue(owner: String, name: String, number: Int64) throws(GitHubError) -> GitHubIssue {
        let response = try get(URLPath.repository(owner: owner, name: name) + "/issues/\(number)", about: Self.issueResource(owner, name, number))
        return try decode(response, as: GitHubIssue.init(json:))
    }

    /// Creates an issue. A POST is never repeated once it may have reached GitHub: then this
    /// throws `outcomeUnknown`, and the caller looks for the issue before posting again.
    public func createIssue(owner: String, name: String, title: String, body: String, labels: [String])
        throws(GitHubError) -> GitHubIssue
    {
        var members = [JSONMember("title", .string(title)), JSONMember("body", .string(body))]
        if !labels.isEmpty { members.append(JSONMember("labels", .array(labels.map(JSONValue.string)))) }
        let answer = try post(URLPath.repository(owner: owner, name: name) + "/issues", .object(members), about: .repository("\(owner)/\(name)"))
        do { return try GitHubIssue(json: answer) } catch { throw Self.decodingError(error) }
    }

    /// Changes an issue's title and/or state: closing says it was completed. PATCH sets fields
    /// to the values given, so sending it twice does no more than once.
    public func updateIssue(owner: String, name: String, number: Int64, title: String?, state: GitHubIssue.State?,
                            labels: [String]? = nil, body: String? = nil) throws(GitHubError) -> GitHubIssue
    {
        var members: [JSONMember] = []
        if let title { members.append(JSONMember("title", .string(title))) }
        if let body { members.append(JSONMember("body", .string(body))) }
        // The whole set: GitHub replaces the issue's labels with these.
        if let labels { members.append(JSONMember("labels", .array(labels.map(JSONValue.string)))) }
        switch state {
        case .closed?:
            members.append(JSONMember("state", .string("closed")))
            members.append(JSONMember("state_reason", .string("completed")))
        case .open?:
            members.append(JSONMember("state", .string("open")))
        case nil:
            break
        }
        let answer = try patch(URLPath.repository(owner: owner, name: name) + "/issues/\(number)", .object(members),
                               about: Self.issueResource(owner, name, number))
        do { return try GitHubIssue(json: answer) } catch { throw Self.decodingError(error) }
    }

    /// Adds labels to an issue, keeping those it has (GitHub makes the ones new to the
    /// repository), and returns the names of all its labels after. Adding a label the issue
    /// already has changes nothing, so the POST is repeated after a failure like a GET. An empty
    /// `labels` sends nothing and returns nil: GitHub takes an empty list as "remove them all".
    public func addLabels(owner: String, name: String, number: Int64, labels: [String]) throws(GitHubError) -> [String]? {
        guard !labels.isEmpty else { return nil }
        let answer = try send(.repeatablePost, URLPath.repository(owner: owner, name: name) + "/issues/\(number)/labels",
                              body: .object([JSONMember("labels", .array(labels.map(JSONValue.string)))]),
                              about: Self.issueResource(owner, name, number))
        guard case .array(let items) = answer else { throw .unexpectedResponse("expected a list of labels") }
        return GitHubIssue.labelNames(items)
    }

    /// Takes a label off an issue (DELETE .../labels/NAME, the name percent-encoded) and returns
    /// the names of the labels it keeps; nil when the issue does not have it (GitHub's 404
    /// "Label does not exist"): it is off already.
    public func removeLabel(owner: String, name: String, number: Int64, label: String) throws(GitHubError) -> [String]? {
        let answer: JSONValue
        do {
            answer = try delete(URLPath.repository(owner: owner, name: name) + "/issues/\(number)/labels/" + URLPath.encoded(label),
                                about: .other("the label \(label) of \(owner)/\(name)#\(number)"))
        } catch .notFound(_, let message) {
            // The issue is there and the label is not on it; any other 404 is about the issue.
            if message.lowercased().contains("label does not exist") { return nil }
            throw .notFound(Self.issueResource(owner, name, number), message: message)
        } catch {
            throw error  // spelled out: Swift 6.3 crashes compiling this typed do-catch without it
        }
        guard case .array(let items) = answer else { throw .unexpectedResponse("expected a list of labels") }
        return GitHubIssue.labelNames(items)
    }

    /// Closes an issue as a duplicate. A GitHub that does not know that reason (an older GitHub
    /// Enterprise answers 422) closes it as not planned.
    public func closeAsDuplicate(owner: String, name: String, number: Int64) throws(GitHubError) -> GitHubIssue {
        let path = URLPath.repository(owner: owner, name: name) + "/issues/\(number)"
        let resource = Self.issueResource(owner, name, number)
        func close(_ reason: String) throws(GitHubError) -> GitHubIssue {
            let answer = try patch(path, .object([JSONMember("state", .string("closed")), JSONMember("state_reason", .string(reason))]),
                                   about: resource)
            do { return try GitHubIssue(json: answer) } catch { throw Self.decodingError(error) }
        }
        do {
            return try close("duplicate")
        } catch .validationFailed {
            return try close("not_planned")
        }
    }

    /// The first page of a repository's issues (open and closed, pull requests included, as
    /// GitHub lists them) updated since `since`, most recently updated first: any change puts
    /// its issue on this page, so an unchanged first page (304) means nothing changed.
    public func issueListingURL(owner: String, name: String, since: String?) -> String {
        configuration.endpoint.url(URLPath.repository(owner: owner, name: name) + "/issues?state=all&sort=updated&direction=desc&per_page=100"
            + (since.map { "&since=" + URLPath.encoded($0) } ?? ""))
    }

    /// The first page of a repository's open issues, oldest first: where the board's issues are.
    /// Any change of one (a tick on the board) changes the page, so an unchanged board is a 304.
    public func openIssuesURL(owner: String, name: String) -> String {
        configuration.endpoint.url(URLPath.repository(owner: owner, name: name) + "/issues?state=open&sort=created&direction=asc&per_page=100")
    }

    /// One page of an issue listing, unless unchanged since `etag`.
    public func issuePage(_ url: String, ifNoneMatch etag: String?, about resource: GitHubResource)
        throws(GitHubError) -> Conditional<IssuePage>
    {
        guard configuration.endpoint.isSameOrigin(url) else { throw .unexpectedResponse("a page outside the API") }
        return try conditionalIssuePage(get(url, ifNoneMatch: etag, about: resource))
    }

    /// The first pages of several listings at once (in parallel where the transport can), each
    /// conditional on its ETag, by the rules of `getAll`; results in the order asked.
    public func issuePages(_ wanted: [(url: String, etag: String?, resource: GitHubResource)])
        -> [Result<Conditional<IssuePage>, GitHubError>]
    {
        conditionalAll(wanted) { response throws(GitHubError) in try self.conditionalIssuePage(response) }
    }

    private func conditionalIssuePage(_ response: HTTPResponse) throws(GitHubError) -> Conditional<IssuePage> {
        if response.status == 304 { return .notModified }
        guard case .array(let elements) = try parse(response) else { throw .unexpectedResponse("expected a list") }
        var issues: [GitHubIssue] = []
        for element in elements {
            do { issues.append(try GitHubIssue(json: element)) } catch { throw Self.decodingError(error) }
        }
        let next = response.header("link").flatMap { LinkHeader.url(for: "next", in: $0) }
        if let next, !configuration.endpoint.isSameOrigin(next) { throw .unexpectedResponse("a next page outside the API") }
        return .modified(IssuePage(issues: issues, nextURL: next), etag: response.header("etag"))
    }

    /// Issues `login` opened in the repository and that were updated since `since`, newest
    /// first, reading at most `maximumPages` pages: where a lost POST's issue would be.
    public func issuesOpened(owner: String, name: String, by login: String, since: String, maximumPages: Int = 5)
        throws(GitHubError) -> [GitHubIssue]
    {
        var next: String? = configuration.endpoint.url(
            URLPath.repository(owner: owner, name: name) + "/issues?state=all&creator=" + URLPath.encoded(login)
                + "&sort=created&direction=desc&per_page=100&since=" + URLPath.encoded(since))
        var issues: [GitHubIssue] = []
        var pages = 0
        while let url = next, pages < maximumPages {
            pages += 1
            guard case .modified(let page, _) = try issuePage(url, ifNoneMatch: nil, about: .repository("\(owner)/\(name)"))
            else { throw .unexpectedResponse("304 without a conditional request") }
            issues += page.issues
            next = page.nextURL
        }
        return issues
    }
}
