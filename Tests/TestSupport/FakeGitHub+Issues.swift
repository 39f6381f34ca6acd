import DoogitSupport
import Foundation

/// Issues, pull requests, branches and commits of the fake GitHub's repositories, with the
/// endpoints doogit uses: create, get, update and list issues (filters, pagination, ETags);
/// a repository's labels and an issue's (FakeGitHub+Labels.swift); get a branch (ETag), compare
/// two commits, list a branch's commits. Tests change them between requests: open, close,
/// retitle, label and assign issues, push and force-push commits, merge branches, and make the
/// next matching request fail, or get lost after it was carried out.
public final class FakeActivity: @unchecked Sendable {
    public struct Issue: Equatable, Sendable {
        public var number: Int64
        public var title: String
        public var body: String
        public var state = "open"
        public var stateReason: String?
        /// The names of its labels, as the repository's labels spell them (a name given in
        /// another case is the existing label's; see FakeGitHub+Labels.swift).
        public var labels: [String] = []
        public var assignees: [String] = []
        public var author: String
        public var isPullRequest = false
        public var createdAt: Int64
        public var updatedAt: Int64
        public var closedAt: Int64?
        /// Its conversation locked: no comments but from those with push access. Its owner still
        /// edits its body, as GitHub lets them.
        public var locked = false
    }

    struct Commit {
        var sha: String
        var message: String
        var parents: [String]
        var sequence: Int
        /// When it was committed (the fake's clock at the push), in seconds.
        var time: Int64
    }

    /// What happens to the next request that matches.
    public enum Fault: Sendable {
        /// Answer this status without doing anything.
        case status(Int)
        /// Do what was asked, then close the connection without answering: the answer is lost.
        case dropAfterProcessing
        /// Do what was asked, then hold the answer until the test releases `hold`: a request
        /// still on the wire, for as long as the test needs.
        case holdAfterProcessing(AnswerHold)
        /// Close the connection without doing anything: the request never reaches GitHub's data.
        case dropBeforeProcessing
        /// Hold the request, before doing anything, until the test releases `hold`; then close
        /// the connection without doing it (a program stopped while its request was on the wire).
        case holdBeforeProcessing(AnswerHold)

        /// Whether it meets the request before anything is done (outside the fake's lock).
        var isBeforeProcessing: Bool {
            switch self {
            case .dropBeforeProcessing, .holdBeforeProcessing: return true
            default: return false
            }
        }

        /// The answer, once the request was carried out, as this fault leaves it.
        func applied(to response: ServerResponse) -> ServerResponse {
            var response = response
            switch self {
            case .dropAfterProcessing: response = response.hangingUp()
            case .holdAfterProcessing(let hold): response.hold = hold
            default: break
            }
            return response
        }
    }

    private struct PendingFault {
        var method: String
        var pathSuffix: String
        var remaining: Int
        var fault: Fault
    }

    private let lock = NSLock()
    var issues: [Int64: [Int64: Issue]] = [:]
    private var commits: [Int64: [String: Commit]] = [:]
    private var branches: [Int64: [String: String]] = [:]
    private var deletedBranches: [Int64: Set<String>] = [:]
    /// The last issue number given in each repository.
    private var lastNumbers: [Int64: Int64] = [:]
    private var sequence = 0
    private var pushTimes: [Int64: Int64] = [:]
    private var faults: [PendingFault] = []
    /// Requests that changed something (POST, PATCH) and were carried out, per repository.
    private var writes: [(repository: Int64, method: String, number: Int64)] = []
    /// The labels of each repository, in the order they were made (FakeGitHub+Labels.swift).
    var repositoryLabels: [Int64: [Label]] = [:]
    var lastLabelID: Int64 = 208_045_945
    /// Changes of an issue's labels through the labels endpoints, per repository.
    var labelWrites: [(repository: Int64, method: String, number: Int64)] = []
    /// Labels another user changes right after doogit's next read of an issue or of its listing.
    var pendingRelabels: [PendingRelabel] = []
    /// The fake's clock for `updated_at`, in seconds; tests may set it.
    private var clock: Int64?
    public static let defaultBranch = "master"

    public init() {}

    func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func now() -> Int64 { clock ?? Int64(Date().timeIntervalSince1970) }

    // MARK: Issues, as tests change them

    /// Sets the time that changes from now on are stamped with (nil: the real clock); answers
    /// outside the Contents API are dated by it too.
    public func setClock(_ seconds: Int64?) { locked { clock = seconds } }

    /// The time set with `setClock`, if any.
    public var clockSeconds: Int64? { locked { clock } }

    @discardableResult
    public func addIssue(repository: Int64, title: String, body: String = "", state: String = "open",
                         assignees: [String] = [], author: String = "someone", isPullRequest: Bool = false,
                         labels: [String] = []) -> Int64 {
        locked {
            let number = nextNumber(repository)
            let time = now()
            issues[repository, default: [:]][number] = Issue(
                number: number, title: title, body: body, state: state, stateReason: state == "closed" ? "completed" : nil,
                labels: resolvedLabels(labels, repository: repository), assignees: assignees, author: author,
                isPullRequest: isPullRequest, createdAt: time, updatedAt: time, closedAt: state == "closed" ? time : nil)
            return number
        }
    }

    /// Changes an issue as someone on GitHub would, stamping it with the fake's clock. Labels
    /// are the repository's: one named in another case is the existing one, a new one is made.
    public func updateIssue(repository: Int64, number: Int64, _ change: (inout Issue) -> Void) {
        locked { unlockedUpdateIssue(repository: repository, number: number, change) }
    }

    func unlockedUpdateIssue(repository: Int64, number: Int64, _ change: (inout Issue) -> Void) {
        guard var issue = issues[repository]?[number] else { return }
        let before = issue
        change(&issue)
        issue.labels = resolvedLabels(issue.labels, repository: repository)
        if issue.state != before.state {
            issue.closedAt = issue.state == "closed" ? now() : nil
            issue.stateReason = issue.state == "closed" ? (issue.stateReason ?? "completed") : "reopened"
        }
        issue.updatedAt = max(now(), before.updatedAt)
        issues[repository]?[number] = issue
    }

    /// Deletes an issue, as its repository's admin can on GitHub: gone from every listing.
    public func deleteIssue(repository: Int64, number: Int64) { locked { _ = issues[repository]?.removeValue(forKey: number) } }
    public func close(repository: Int64, number: Int64) { updateIssue(repository: repository, number: number) { $0.state = "closed" } }
    public func reopen(repository: Int64, number: Int64) { updateIssue(repository: repository, number: number) { $0.state = "open" } }
    public func retitle(repository: Int64, number: Int64, to title: String) {
        updateIssue(repository: repository, number: number) { $0.title = title }
    }

    public func issue(repository: Int64, number: Int64) -> Issue? { locked { issues[repository]?[number] } }
    public func issues(repository: Int64) -> [Issue] {
        locked { (issues[repository] ?? [:]).values.sorted { $0.number < $1.number } }
    }

    /// Writes carried out (`POST` creations, `PATCH` updates) of a repository: the issue numbers.
    public func writes(repository: Int64, method: String) -> [Int64] {
        locked { writes.filter { $0.repository == repository && $0.method == method }.map(\.number) }
    }

    /// The next `count` requests with this method whose path ends with `pathSuffix` meet `fault`.
    public func failNext(_ method: String, pathSuffix: String, count: Int = 1, with fault: Fault) {
        locked { faults.append(PendingFault(method: method, pathSuffix: pathSuffix, remaining: count, fault: fault)) }
    }

    /// Forgets the faults not met yet; returns how many requests they were waiting for.
    @discardableResult
    public func clearFaults() -> Int {
        locked {
            let left = faults.reduce(0) { $0 + $1.remaining }
            faults = []
            return left
        }
    }

    /// The next fault for the request that meets it before it is carried out (`before`), or
    /// after; it is used up.
    func takeFault(_ request: ReceivedRequest, before: Bool) -> Fault? {
        locked { unlockedTakeFault(request, before: before) }
    }

    private func unlockedTakeFault(_ request: ReceivedRequest, before: Bool = false) -> Fault? {
        guard let index = faults.firstIndex(where: {
            $0.method == request.method && request.path.hasSuffix($0.pathSuffix) && $0.remaining > 0
                && $0.fault.isBeforeProcessing == before
        }) else { return nil }
        faults[index].remaining -= 1
        let fault = faults[index].fault
        if faults[index].remaining == 0 { faults.remove(at: index) }
        return fault
    }

    /// The next issue number: as on GitHub, a number is never given twice, a deleted issue's included.
    private func nextNumber(_ repository: Int64) -> Int64 {
        let number = max(issues[repository]?.keys.max() ?? 0, lastNumbers[repository] ?? 0) + 1
        lastNumbers[repository] = number
        return number
    }

    // MARK: Commits, as tests change them

    private func makeCommit(_ repository: Int64, message: String, parents: [String]) -> String {
        sequence += 1
        let sha = String(format: "%040x", 0xC0FFEE_0000 + sequence)
        commits[repository, default: [:]][sha] = Commit(sha: sha, message: message, parents: parents, sequence: sequence,
                                                        time: now())
        return sha
    }

    /// Deletes a branch (`git push --delete`); its commits stay.
    public func deleteBranch(repository: Int64, branch: String) {
        locked {
            ensureHistory(repository)
            branches[repository]?[branch] = nil
            deletedBranches[repository, default: []].insert(branch)
        }
    }

    /// A branch a test deleted, made again (`POST git/refs`).
    func restoreBranch(repository: Int64, branch: String) {
        locked { _ = deletedBranches[repository]?.remove(branch) }
    }

    /// Whether a test deleted the branch (whatever the repository's files hold).
    public func branchDeleted(repository: Int64, branch: String) -> Bool {
        locked { deletedBranches[repository]?.contains(branch) == true }
    }

    /// Whether the branch exists (a repository's default branch does until it is deleted).
    public func branchExists(repository: Int64, branch: String) -> Bool {
        locked {
            ensureHistory(repository)
            return branches[repository]?[branch] != nil || (branches[repository]?.isEmpty == true && branch == Self.defaultBranch)
        }
    }

    /// Makes the repository one with no commit yet: its default branch does not exist (GitHub
    /// answers it with 404 "Branch not found") until the first push.
    public func makeEmpty(repository: Int64) {
        locked { branches[repository] = [:] }
    }

    /// The repository's branches, with a first commit on the default branch.
    private func ensureHistory(_ repository: Int64) {
        guard branches[repository] == nil else { return }
        let root = makeCommit(repository, message: "Initial commit", parents: [])
        branches[repository] = [Self.defaultBranch: root]
    }

    /// Adds commits with these messages on top of `branch` (a new branch starts at the default
    /// branch's head); returns their shas.
    @discardableResult
    func push(repository: Int64, branch: String = FakeActivity.defaultBranch, messages: [String]) -> [String] {
        locked {
            ensureHistory(repository)
            var head = branches[repository]?[branch] ?? branches[repository]?[Self.defaultBranch]
            var shas: [String] = []
            for message in messages {
                let sha = makeCommit(repository, message: message, parents: head.map { [$0] } ?? [])
                shas.append(sha)
                head = sha
            }
            branches[repository]?[branch] = head
            return shas
        }
    }

    /// Merges `branch` into the default branch with a merge commit.
    @discardableResult
    func merge(repository: Int64, branch: String) -> String? {
        locked {
            ensureHistory(repository)
            guard let theirs = branches[repository]?[branch], let ours = branches[repository]?[Self.defaultBranch] else {
                return nil
            }
            let sha = makeCommit(repository, message: "Merge branch '\(branch)'", parents: [ours, theirs])
            branches[repository]?[Self.defaultBranch] = sha
            return sha
        }
    }

    /// Rewrites `branch`: drops its last `dropping` commits and adds these instead. With
    /// `forget`, the dropped commits no longer exist (as after GitHub collects them).
    @discardableResult
    func forcePush(repository: Int64, branch: String = FakeActivity.defaultBranch, dropping: Int,
                          messages: [String], forget: Bool = false) -> [String] {
        locked {
            ensureHistory(repository)
            var head = branches[repository]?[branch]
            var dropped: [String] = []
            for _ in 0..<dropping {
                guard let sha = head, let commit = commits[repository]?[sha] else { break }
                dropped.append(sha)
                head = commit.parents.first
            }
            branches[repository]?[branch] = head
            if forget { for sha in dropped { commits[repository]?[sha] = nil } }
        }
        return push(repository: repository, branch: branch, messages: messages)
    }

    /// A push time for the repository's `pushed_at`: now (GitHub's whole second, so two pushes
    /// in one second leave it as it was), never before the one before.
    func nextPushTime(repository: Int64) -> Int64 {
        locked {
            let time = max(now(), pushTimes[repository] ?? 0)
            pushTimes[repository] = time
            return time
        }
    }

    public func head(repository: Int64, branch: String = FakeActivity.defaultBranch) -> String? {
        locked {
            ensureHistory(repository)
            return branches[repository]?[branch]
        }
    }

    private func ancestors(_ repository: Int64, of sha: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = [sha]
        while let next = queue.popLast() {
            guard seen.insert(next).inserted, let commit = commits[repository]?[next] else { continue }
            queue += commit.parents
        }
        return seen
    }

    // MARK: Answers

    static func time(_ seconds: Int64) -> String {
        let text = Timestamp(secondsSinceEpoch: seconds).rfc3339
        return String(text.prefix(19)) + "Z"
    }

    private static let issueTemplate = Fixtures.json("issue-created.json")
    private static let branchTemplate = Fixtures.json("branch.json")
    private static let comparisonTemplate = Fixtures.json("commit-comparison.json")
    private static let commitTemplate: JSONValue = {
        guard case .array(let items) = Fixtures.json("commits-list.json"), let first = items.first else { return .null }
        return first
    }()

    func json(_ issue: Issue, repository: Int64, fullName: String, apiURL: String) -> JSONValue {
        let kind = issue.isPullRequest ? "pull" : "issues"
        let person = { (login: String) -> JSONValue in
            (Self.issueTemplate["user"] ?? .null).replacing(["login": .string(login)])
        }
        var value = Self.issueTemplate.replacing([
            "id": .int(issue.number * 1000 + 7),
            "url": .string("\(apiURL)/repos/\(fullName)/issues/\(issue.number)"),
            "repository_url": .string("\(apiURL)/repos/\(fullName)"),
            "html_url": .string("https://github.com/\(fullName)/\(kind)/\(issue.number)"),
            "number": .int(issue.number),
            "state": .string(issue.state),
            "state_reason": .optional(issue.stateReason),
            "title": .string(issue.title),
            "body": .string(issue.body),
            "user": person(issue.author),
            "assignee": issue.assignees.first.map(person) ?? .null,
            "assignees": .array(issue.assignees.map(person)),
            "labels": .array(labelsJSON(issue.labels, repository: repository, fullName: fullName, apiURL: apiURL)),
            "locked": .bool(issue.locked),
            "milestone": .null,
            "closed_by": .null,
            "created_at": .string(Self.time(issue.createdAt)),
            "updated_at": .string(Self.time(issue.updatedAt)),
            "closed_at": issue.closedAt.map { .string(Self.time($0)) } ?? .null,
        ])
        if issue.isPullRequest {
            value = value.replacing(["pull_request": .object([
                JSONMember("url", .string("\(apiURL)/repos/\(fullName)/pulls/\(issue.number)")),
                JSONMember("html_url", .string("https://github.com/\(fullName)/pull/\(issue.number)")),
            ])])
        } else {
            value = value.removing("pull_request")
        }
        return value
    }

    /// Answers `/repos/OWNER/NAME/...` (more than three path parts) for `repository`, or nil
    /// when the route is not one of these.
    func answer(_ request: ReceivedRequest, parts: [String], repository: Int64, fullName: String, login: String,
                apiURL: String) -> ServerResponse? {
        locked {
            let route = Array(parts.dropFirst(3))
            let fault = unlockedTakeFault(request)
            if case .status(let status)? = fault {
                return .json(status, #"{"message":"Server Error","documentation_url":"https://docs.github.com/rest"}"#)
            }
            var response: ServerResponse
            switch (request.method, route.count) {
            case ("POST", 1) where route[0] == "issues":
                response = createIssue(request, repository: repository, fullName: fullName, login: login, apiURL: apiURL)
            case ("GET", 1) where route[0] == "issues":
                response = listIssues(request, repository: repository, fullName: fullName, apiURL: apiURL)
                relabelAfterRead(repository: repository, number: nil)
            case ("GET", 2) where route[0] == "issues":
                guard let number = Int64(route[1]), let issue = issues[repository]?[number] else { return Self.notFound }
                response = tagged(JSONWriter.write(json(issue, repository: repository, fullName: fullName, apiURL: apiURL)), request)
                relabelAfterRead(repository: repository, number: number)
            case (_, 1) where route[0] == "labels", (_, 3...) where route[0] == "issues" && route[2] == "labels":
                guard let labelResponse = labelAnswer(request, route: route, repository: repository, fullName: fullName,
                                                      apiURL: apiURL) else { return nil }
                response = labelResponse
            case ("PATCH", 2) where route[0] == "issues":
                guard let number = Int64(route[1]) else { return Self.notFound }
                response = updateIssue(request, repository: repository, number: number, fullName: fullName, apiURL: apiURL)
            case ("GET", 2...) where route[0] == "branches":
                ensureHistory(repository)
                let name = route.dropFirst().joined(separator: "/").removingPercentEncoding ?? ""
                guard let sha = branches[repository]?[name], let commit = commits[repository]?[sha] else {
                    return .json(404, #"{"message":"Branch not found","documentation_url":"https://docs.github.com/rest/branches/branches#get-a-branch","status":"404"}"#)
                }
                let body = Self.branchTemplate.replacing([
                    "name": .string(name), "commit": commitJSON(commit, fullName: fullName, apiURL: apiURL)])
                response = tagged(JSONWriter.write(body), request)
            case ("GET", 2) where route[0] == "compare":
                response = compare(request, spec: route[1], repository: repository, fullName: fullName, apiURL: apiURL)
            case ("GET", 1) where route[0] == "commits":
                ensureHistory(repository)
                let start = request.query["sha"].flatMap { branches[repository]?[$0] ?? ($0.removingPercentEncoding) }
                    ?? branches[repository]?[Self.defaultBranch] ?? ""
                guard commits[repository]?[start] != nil else { return Self.notFound }
                let perPage = min(100, max(1, Int(request.query["per_page"] ?? "30") ?? 30))
                let found = ancestors(repository, of: start).compactMap { commits[repository]?[$0] }
                    .sorted { $0.sequence > $1.sequence }.prefix(perPage)
                response = tagged(JSONWriter.write(.array(found.map { commitJSON($0, fullName: fullName, apiURL: apiURL) })),
                                  request)
            default:
                return nil
            }
            return fault?.applied(to: response) ?? response
        }
    }

    static let notFound = ServerResponse.json(404, Fixtures.text("error-404.json"))

    func tagged(_ body: String, _ request: ReceivedRequest, links: [String] = []) -> ServerResponse {
        let tag = "W/" + FakeGitHub.etag(body + links.joined())
        if request.headers["if-none-match"] == tag { return ServerResponse(status: 304, headers: [("ETag", tag)]) }
        return .json(200, body, headers: [("ETag", tag)] + (links.isEmpty ? [] : [("Link", links.joined(separator: ", "))]))
    }

    private func createIssue(_ request: ReceivedRequest, repository: Int64, fullName: String, login: String,
                             apiURL: String) -> ServerResponse {
        guard let body = try? JSONParser.parse(request.body), let title = try? body.string("title"),
              !title.trimmingSpaces.isEmpty else {
            return .json(422, Fixtures.text("error-422.json"))
        }
        if let tooLong = Self.bodyTooLong(body) { return tooLong }
        let number = nextNumber(repository)
        let time = now()
        // As GitHub: the labels given are the repository's, made there when new.
        var labels: [String] = []
        if let given = body["labels"] {
            guard let names = Self.labelNames(in: given) else { return .json(422, Fixtures.text("error-422.json")) }
            labels = resolvedLabels(names, repository: repository)
        }
        let issue = Issue(number: number, title: title, body: ((try? body.optionalString("body")) ?? nil) ?? "",
                          labels: labels, author: login, createdAt: time, updatedAt: time)
        issues[repository, default: [:]][number] = issue
        writes.append((repository, "POST", number))
        return .json(201, JSONWriter.write(json(issue, repository: repository, fullName: fullName, apiURL: apiURL)),
                     headers: [("Location", "\(apiURL)/repos/\(fullName)/issues/\(number)")])
    }

    private func updateIssue(_ request: ReceivedRequest, repository: Int64, number: Int64, fullName: String,
                             apiURL: String) -> ServerResponse {
        guard var issue = issues[repository]?[number] else { return Self.notFound }
        guard let body = try? JSONParser.parse(request.body) else { return .json(422, Fixtures.text("error-422.json")) }
        if let tooLong = Self.bodyTooLong(body) { return tooLong }
        if case .string(let title)? = body["title"] { issue.title = title }
        if case .string(let text)? = body["body"] { issue.body = text }
        if case .string(let state)? = body["state"], state != issue.state {
            issue.state = state
            issue.closedAt = state == "closed" ? now() : nil
            issue.stateReason = state == "closed" ? "completed" : "reopened"
        }
        if case .string(let reason)? = body["state_reason"] { issue.stateReason = reason }
        // As GitHub: the labels given replace the issue's (made in the repository when new).
        if let given = body["labels"] {
            guard let names = Self.labelNames(in: given) else { return .json(422, Fixtures.text("error-422.json")) }
            issue.labels = resolvedLabels(names, repository: repository)
        }
        issue.updatedAt = max(now(), issue.updatedAt)
        issues[repository]?[number] = issue
        writes.append((repository, "PATCH", number))
        return .json(200, JSONWriter.write(json(issue, repository: repository, fullName: fullName, apiURL: apiURL)))
    }

    /// GitHub's answer to an issue's body of more than 65,536 characters; nil for another.
    static func bodyTooLong(_ request: JSONValue) -> ServerResponse? {
        guard case .string(let text)? = request["body"], text.unicodeScalars.count > 65_536 else { return nil }
        return .json(422, JSONWriter.write(.object([
            JSONMember("message", .string("Validation Failed")),
            JSONMember("errors", .array([.object([
                JSONMember("resource", .string("Issue")), JSONMember("code", .string("custom")), JSONMember("field", .string("body")),
                JSONMember("message", .string("body is too long (maximum is 65536 characters)")),
            ])])),
            JSONMember("documentation_url", .string("https://docs.github.com/rest/issues/issues#update-an-issue")),
            JSONMember("status", .string("422")),
        ])))
    }

    private func listIssues(_ request: ReceivedRequest, repository: Int64, fullName: String, apiURL: String)
        -> ServerResponse {
        let query = request.query.mapValues { $0.removingPercentEncoding ?? $0 }
        let state = query["state"] ?? "open"
        let since = query["since"].flatMap { Timestamp(rfc3339: $0) }.map { $0.millisecondsSinceEpoch / 1000 }
        var found = (issues[repository] ?? [:]).values.filter { issue in
            (state == "all" || issue.state == state)
                && (since.map { issue.updatedAt >= $0 } ?? true)
                && (query["creator"].map { issue.author.lowercased() == $0.lowercased() } ?? true)
                && (query["assignee"].map { wanted in
                    switch wanted {
                    case "none": return issue.assignees.isEmpty
                    case "*": return !issue.assignees.isEmpty
                    default: return issue.assignees.contains { $0.lowercased() == wanted.lowercased() }
                    }
                } ?? true)
        }
        let byUpdated = query["sort"] == "updated"
        let ascending = query["direction"] == "asc"
        found.sort { lhs, rhs in
            let left = byUpdated ? lhs.updatedAt : lhs.createdAt, right = byUpdated ? rhs.updatedAt : rhs.createdAt
            if left != right { return ascending ? left < right : left > right }
            return ascending ? lhs.number < rhs.number : lhs.number > rhs.number
        }
        let perPage = min(100, max(1, Int(query["per_page"] ?? "30") ?? 30))
        let page = max(1, Int(query["page"] ?? "1") ?? 1)
        let pages = max(1, (found.count + perPage - 1) / perPage)
        let slice = found.dropFirst((page - 1) * perPage).prefix(perPage)
        let body = JSONWriter.write(.array(slice.map { json($0, repository: repository, fullName: fullName, apiURL: apiURL) }))
        let base = "\(apiURL)\(request.path)?" + request.target.split(separator: "?", maxSplits: 1).dropFirst().joined()
            .split(separator: "&").filter { !$0.hasPrefix("page=") }.joined(separator: "&")
        var links: [String] = []
        if page < pages { links.append("<\(base)&page=\(page + 1)>; rel=\"next\"") }
        if page < pages { links.append("<\(base)&page=\(pages)>; rel=\"last\"") }
        return tagged(body, request, links: links)
    }

    private func commitJSON(_ commit: Commit, fullName: String, apiURL: String) -> JSONValue {
        let template = Self.commitTemplate["commit"] ?? .null
        let date = JSONValue.string(Self.time(commit.time))
        let inner = template.replacing([
            "message": .string(commit.message),
            "author": (template["author"] ?? .null).replacing(["date": date]),
            "committer": (template["committer"] ?? .null).replacing(["date": date]),
        ])
        return Self.commitTemplate.replacing([
            "sha": .string(commit.sha),
            "url": .string("\(apiURL)/repos/\(fullName)/commits/\(commit.sha)"),
            "html_url": .string("https://github.com/\(fullName)/commit/\(commit.sha)"),
            "commit": inner,
            "parents": .array(commit.parents.map { .object([JSONMember("sha", .string($0))]) }),
        ])
    }

    private func compare(_ request: ReceivedRequest, spec: String, repository: Int64, fullName: String,
                         apiURL: String) -> ServerResponse {
        ensureHistory(repository)
        let decoded = spec.removingPercentEncoding ?? spec
        guard let range = decoded.range(of: "...") else { return Self.notFound }
        let resolve = { (ref: String) -> String? in
            if let sha = self.branches[repository]?[ref] { return sha }
            return self.commits[repository]?[ref] != nil ? ref : nil
        }
        guard let base = resolve(String(decoded[..<range.lowerBound])),
              let head = resolve(String(decoded[range.upperBound...])) else { return Self.notFound }
        let fromBase = ancestors(repository, of: base), fromHead = ancestors(repository, of: head)
        let status = base == head ? "identical" : fromHead.contains(base) ? "ahead" : fromBase.contains(head) ? "behind" : "diverged"
        let between = fromHead.subtracting(fromBase).compactMap { commits[repository]?[$0] }.sorted { $0.sequence < $1.sequence }
        let perPage = min(100, max(1, Int(request.query["per_page"] ?? "250") ?? 250))
        let page = max(1, Int(request.query["page"] ?? "1") ?? 1)
        let pages = max(1, (between.count + perPage - 1) / perPage)
        let slice = between.dropFirst((page - 1) * perPage).prefix(perPage)
        let body = Self.comparisonTemplate.replacing([
            "status": .string(status),
            "ahead_by": .int(between.count),
            "behind_by": .int(fromBase.subtracting(fromHead).count),
            "total_commits": .int(between.count),
            "commits": .array(slice.map { commitJSON($0, fullName: fullName, apiURL: apiURL) }),
            "files": .array([]),
        ])
        var links: [String] = []
        let pageBase = "\(apiURL)\(request.path)?per_page=\(perPage)"
        if page < pages { links.append("<\(pageBase)&page=\(page + 1)>; rel=\"next\"") }
        return tagged(JSONWriter.write(body), request, links: links)
    }
}

extension JSONValue {
    /// A copy without the member named `key`.
    public func removing(_ key: String) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.key != key })
    }
}

extension FakeGitHub {
    /// Pushes commits with these messages to `branch` (a new branch starts at the default
    /// branch's head), as `git push` does: the repository's `pushed_at` moves. Returns their shas.
    @discardableResult
    public func pushCommits(repository: Int64, branch: String = FakeActivity.defaultBranch, messages: [String]) -> [String] {
        defer { notePush(repository) }
        return activity.push(repository: repository, branch: branch, messages: messages)
    }

    /// Merges `branch` into the default branch with a merge commit, as a merged pull request does.
    @discardableResult
    public func mergeBranch(repository: Int64, branch: String) -> String? {
        defer { notePush(repository) }
        return activity.merge(repository: repository, branch: branch)
    }

    /// Rewrites `branch`: drops its last `dropping` commits and pushes these instead (`git push
    /// --force`). With `forget`, the dropped commits no longer exist.
    @discardableResult
    public func forcePushCommits(repository: Int64, branch: String = FakeActivity.defaultBranch, dropping: Int,
                                 messages: [String], forget: Bool = false) -> [String] {
        defer { notePush(repository) }
        return activity.forcePush(repository: repository, branch: branch, dropping: dropping, messages: messages,
                                  forget: forget)
    }

    func notePush(_ repository: Int64) {
        let time = activity.nextPushTime(repository: repository)
        update(repository) { $0.pushedAt = FakeActivity.time(time) }
    }

    /// `/repos/OWNER/NAME/...` beyond the repository itself: issues, branches, compare, commits;
    /// `login` is who asks (the author of an issue they open).
    func activityAnswer(_ request: ReceivedRequest, parts: [String], repository: Repository?, login: String) -> ServerResponse {
        guard let repository else { return .json(404, Fixtures.text("error-404.json")) }
        return activity.answer(request, parts: parts, repository: repository.id, fullName: repository.fullName,
                               login: login, apiURL: apiURL) ?? .json(404, Self.unknownRouteBody)
    }
}
