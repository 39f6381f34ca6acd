import DoogitSupport

/// A file of a repository as the Contents API gives it: its bytes and its blob's sha, which a
/// write must name (a compare-and-swap: GitHub refuses it once the file has changed).
public struct RepositoryFile: Equatable, Sendable {
    public var content: [UInt8]
    public var sha: String

    public init(content: [UInt8], sha: String) {
        self.content = content
        self.sha = sha
    }
}

/// What reading a file found, and GitHub's time when it answered (its `Date` header).
public struct FileRead: Equatable, Sendable {
    public enum Answer: Equatable, Sendable {
        /// Unchanged since the ETag given (a 304, free of rate limit).
        case notModified
        case file(RepositoryFile, etag: String?)
        /// No such file (yet).
        case missing
    }

    public var answer: Answer
    public var date: Timestamp?
}

/// A repository as `remote init` checks it.
public struct RepositoryAccess: Equatable, Sendable {
    public var id: Int64
    public var fullName: String
    public var isPrivate: Bool
    public var defaultBranch: String
    public var description: String?

    public init(json: JSONValue) throws(JSONError) {
        id = try json.int64("id")
        fullName = try json.string("full_name")
        isPrivate = try json.bool("private")
        defaultBranch = try json.optionalString("default_branch") ?? "main"
        description = try json.optionalString("description")
    }
}

extension GitHubClient {
    /// The media type that asks for a file's or blob's bytes as they are.
    public static let rawMediaType = "application/vnd.github.raw+json"

    /// Reads a file on `branch` (nil: the default branch), conditional on `etag`. A file over
    /// 1 MB, whose content the JSON answer leaves out, is read raw by its blob's sha, so the
    /// bytes are those of the sha read.
    public func readFile(repository: String, path: String, branch: String?, ifNoneMatch etag: String?)
        throws(GitHubError) -> FileRead
    {
        let resource = GitHubResource.file(repository: repository, path: path)
        var target = URLPath.repository(repository) + "/contents/" + URLPath.encodedSegments(path)
        if let branch { target += "?ref=" + URLPath.encoded(branch) }
        let response: HTTPResponse
        do {
            response = try get(target, ifNoneMatch: etag, about: resource)
        } catch .notFound(.file, _) {
            return FileRead(answer: .missing, date: nil)
        }
        let date = response.header("date").flatMap(HTTPDate.parse)
        if response.status == 304 { return FileRead(answer: .notModified, date: date) }
        let (sha, encoding, content) = try decode(response) { json throws(JSONError) in
            guard try json.optionalString("type") ?? "file" == "file" else {
                throw JSONError.wrongType(field: "type", expected: "a file")
            }
            return (try json.string("sha"), try json.optionalString("encoding"), try json.optionalString("content"))
        }
        var bytes: [UInt8]
        if encoding == "base64", let content, let decoded = Base64.decode(content) {
            bytes = decoded
        } else if encoding == "base64" {
            throw .unexpectedResponse("the content of \(path) is not base64")
        } else {
            // Over 1 MB the JSON answer has no content ("encoding": "none"): the blob, raw.
            bytes = try get(URLPath.repository(repository) + "/git/blobs/" + URLPath.encoded(sha), about: resource, accept: Self.rawMediaType).body
        }
        return FileRead(answer: .file(RepositoryFile(content: bytes, sha: sha), etag: response.header("etag")), date: date)
    }

    /// The same file on several branches at once (in parallel where the transport can), raw, in
    /// the order asked: nil where a branch has no such file.
    public func file(repository: String, path: String, onBranches branches: [String]) -> [Result<[UInt8]?, GitHubError>] {
        let urls = branches.map { fileURL(repository: repository, path: path, branch: $0) }
        return getAll(urls.map { (url: $0, etag: nil) }, accept: Self.rawMediaType).map { answer in
            fileRead(answer, repository: repository, path: path)
        }
    }

    /// The Contents API's URL of a file on a branch.
    func fileURL(repository: String, path: String, branch: String) -> String {
        configuration.endpoint.url(URLPath.repository(repository) + "/contents/" + URLPath.encodedSegments(path) + "?ref="
                                   + URLPath.encoded(branch))
    }

    /// A file as a raw answer of the Contents API gives it: its bytes, nil for a 404.
    func fileRead(_ answer: Result<HTTPResponse, GitHubError>, repository: String, path: String) -> Result<[UInt8]?, GitHubError> {
        answer.flatMap { response in
            switch error(for: response, about: .file(repository: repository, path: path)) {
            case nil: return .success(response.body)
            case .notFound?: return .success(nil)
            case let error?: return .failure(error)
            }
        }
    }

    /// Writes a file on `branch` in one commit: over the blob `sha` that was read, or creating
    /// it (nil). GitHub refuses a write over a file that changed since it was read with 409, and
    /// one without a sha over a file that exists with 422. Returns the new blob's sha: the
    /// answer's `content.sha`, or, where the answer's `content` is null (GitHub's description
    /// allows it), git's name of the bytes written, once its `commit` shows the write was made.
    public func writeFile(repository: String, path: String, branch: String, content: [UInt8], sha: String?,
                          message: String) throws(GitHubError) -> String
    {
        var body: [JSONMember] = [JSONMember("message", .string(message)), JSONMember("content", .string(Base64.encode(content))),
                                  JSONMember("branch", .string(branch))]
        if let sha { body.append(JSONMember("sha", .string(sha))) }
        let answer = try put(URLPath.repository(repository) + "/contents/" + URLPath.encodedSegments(path), .object(body),
                             about: .file(repository: repository, path: path))
        if case .string(let written)? = answer["content"]?["sha"] { return written }
        guard answer["content"] == .null, case .string(let commit)? = answer["commit"]?["sha"], GitHash.bytes(ofHex: commit) != nil
        else {
            throw .unexpectedResponse("the answer to writing \(path) has neither content.sha nor commit.sha")
        }
        return GitHash.blob(content)
    }

    /// Whether a failed write lost a race with another writer (the file changed since it was
    /// read, or was created meanwhile), so that reading and merging again will do.
    public static func isLostRace(_ error: GitHubError) -> Bool {
        switch error {
        case .conflict: return true
        case .validationFailed(let message): return message.contains("sha")
        default: return false
        }
    }

    /// A repository's id, visibility and default branch.
    public func repositoryAccess(_ fullName: String) throws(GitHubError) -> RepositoryAccess {
        try decode(try get(URLPath.repository(fullName), about: .repository(fullName)), as: RepositoryAccess.init(json:))
    }

    /// Creates a private repository of the signed-in user (`owner` nil) or of an organization,
    /// with a first commit so that its default branch exists. Never repeated once it may have
    /// reached GitHub.
    public func createPrivateRepository(owner: String?, name: String, description: String) throws(GitHubError)
        -> RepositoryAccess
    {
        let path = owner.map { "/orgs/" + URLPath.encoded($0) + "/repos" } ?? "/user/repos"
        let answer = try post(path, .object([
            JSONMember("name", .string(name)), JSONMember("description", .string(description)),
            JSONMember("private", .bool(true)), JSONMember("auto_init", .bool(true)),
        ]), about: .repository((owner.map { "\($0)/" } ?? "") + name))
        do { return try RepositoryAccess(json: answer) } catch { throw Self.decodingError(error) }
    }
}
