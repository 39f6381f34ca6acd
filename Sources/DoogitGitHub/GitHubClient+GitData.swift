import DoogitSupport

/// What reading a branch's ref found, with GitHub's time of the answer (its Date header).
public enum RefRead: Equatable, Sendable {
    /// 304 for the ETag given (no rate-limit cost).
    case notModified(date: Timestamp?)
    case head(commit: String, etag: String?, date: Timestamp?)
    /// The repository has no commit yet (GitHub's 409 "Git Repository is empty.").
    case empty(date: Timestamp?)
    /// No such branch (404). GitHub answers a repository that is gone the same way: tell them
    /// apart with `repositoryAccess`.
    case missing(date: Timestamp?)
}

/// The Git Data API: a branch's ref, trees, blobs and commits, for writing several files in one
/// commit and moving the branch to it only if nobody else moved it meanwhile (the writes are in
/// `GitHubClient+GitWrites.swift`). Blobs, trees and commits are named by their content, so
/// their POSTs are repeated after a 5xx, a timeout or a lost answer like any read
/// (`RequestKind.repeatablePost`); the ref update is the compare-and-swap. Every read, alone or
/// in a window, follows GitHub's redirects for a repository renamed or transferred since.
extension GitHubClient {
    /// GET /repos/{repo}/git/ref/heads/{branch}, conditional on `etag`.
    public func branchRef(repository: String, branch: String, ifNoneMatch etag: String?) throws(GitHubError) -> RefRead {
        let (response, failure) = try answer(.get, refPath(repository, branch), body: nil, ifNoneMatch: etag,
                                             about: .other("the branch \(branch) of \(repository)"))
        return try refRead(response, failure, branch: branch)
    }

    /// The branch's ref and the repository (by id, for its visibility and its name), each
    /// conditional on its ETag, asked for together: a remote that nobody changed is two free 304s
    /// in one round trip. A ref read that GitHub redirected names the repository as it was (it
    /// was renamed or transferred since): then the repository is read whole, whatever its ETag
    /// says, so that its name now is known.
    public func branchRefAndRepository(repository: String, branch: String, refETag: String?, id: Int64,
                                       repositoryETag: String?) throws(GitHubError)
        -> (ref: RefRead, repository: Result<Conditional<GitHubRepository>, GitHubError>)
    {
        let read = try readBranch(repository: repository, branch: branch, refETag: refETag, id: id,
                                  repositoryETag: repositoryETag, file: nil)
        return (read.ref, read.repository)
    }

    /// The same, with the file at `path` on the branch (raw; nil: there is none) asked in the
    /// same round trip: a machine that joins a remote checks that the branch's `remote.jsonl`
    /// names it while it reads the branch.
    public func branchRefRepositoryAndFile(repository: String, branch: String, refETag: String?, id: Int64,
                                           repositoryETag: String?, path: String) throws(GitHubError)
        -> (ref: RefRead, repository: Result<Conditional<GitHubRepository>, GitHubError>, file: Result<[UInt8]?, GitHubError>)
    {
        let read = try readBranch(repository: repository, branch: branch, refETag: refETag, id: id,
                                  repositoryETag: repositoryETag, file: path)
        return (read.ref, read.repository, read.file ?? .failure(.unexpectedResponse("no answer for \(path)")))
    }

    private func readBranch(repository: String, branch: String, refETag: String?, id: Int64, repositoryETag: String?,
                            file path: String?) throws(GitHubError)
        -> (ref: RefRead, repository: Result<Conditional<GitHubRepository>, GitHubError>, file: Result<[UInt8]?, GitHubError>?)
    {
        var wanted: [(url: String, etag: String?, accept: String?)] = [
            (configuration.endpoint.url(refPath(repository, branch)), refETag, nil),
            (configuration.endpoint.url("/repositories/\(id)"), repositoryETag, nil),
        ]
        if let path { wanted.append((fileURL(repository: repository, path: path, branch: branch), nil, Self.rawMediaType)) }
        let answers = Self.collect(wanted.count) { each in getAll(wanted, each: each) }
        guard answers.count == wanted.count else { throw .unexpectedResponse("no answer about the branch \(branch) of \(repository)") }
        let refResponse = try answers[0].get()
        let ref = try refRead(refResponse, error(for: refResponse, about: .other("the branch \(branch) of \(repository)")),
                              branch: branch)
        var visibility = answers[1].flatMap { response in
            Result { () throws(GitHubError) -> Conditional<GitHubRepository> in
                if let error = error(for: response, about: .repository("id \(id)")) { throw error }
                if response.status == 304 { return .notModified }
                return .modified(try decodeRepository(response), etag: response.header("etag"))
            }
        }
        if refResponse.redirected, case .success(.notModified) = visibility {
            visibility = Result { () throws(GitHubError) in try self.repository(id: id, ifNoneMatch: nil) }
        }
        return (ref, visibility, path.map { fileRead(answers[2], repository: repository, path: $0) })
    }

    /// Whether each repository has the branch, asked in one window as GET
    /// /repos/{repo}/git/matching-refs/heads/{branch}, each conditional on its ETag: a list (empty
    /// without it) has one, unlike a missing ref's 404, so the next look is a free 304 while no
    /// branch of that name comes or goes. A repository with no commit has none.
    public func branchLooks(_ looks: [(repository: String, etag: String?)], branch: String) -> [Result<Conditional<Bool>, GitHubError>] {
        let wanted = looks.map {
            (url: configuration.endpoint.url(URLPath.repository($0.repository) + "/git/matching-refs/heads/" + URLPath.encodedSegments(branch)),
             etag: $0.etag)
        }
        return getAll(wanted).enumerated().map { index, answer in
            answer.flatMap { response in
                Result { () throws(GitHubError) -> Conditional<Bool> in
                    if let failure = error(for: response, about: .repository(looks[index].repository)) {
                        if Self.isEmptyRepository(failure) { return .modified(false, etag: nil) }
                        throw failure
                    }
                    if response.status == 304 { return .notModified }
                    guard case .array(let refs) = try parse(response) else { throw .unexpectedResponse("expected a list of refs") }
                    var found = false
                    for ref in refs {
                        let name = try decodeValue(ref) { json throws(JSONError) in try json.string("ref") }
                        if name == "refs/heads/" + branch { found = true }
                    }
                    return .modified(found, etag: response.header("etag"))
                }
            }
        }
    }

    /// GET /repos/{repo}/git/matching-refs/heads (the ref `heads`, as GitHub documents it: every
    /// ref that starts with it): the names of the repository's branches (none for a repository
    /// with no commit).
    public func branchNames(repository: String) throws(GitHubError) -> [String] {
        let (response, failure) = try answer(.get, URLPath.repository(repository) + "/git/matching-refs/heads", body: nil,
                                             about: .repository(repository))
        if let failure {
            if Self.isEmptyRepository(failure) { return [] }
            throw failure
        }
        guard case .array(let refs) = try parse(response) else { throw .unexpectedResponse("expected a list of refs") }
        var names: [String] = []
        for ref in refs {
            let name = try decodeValue(ref) { json throws(JSONError) in try json.string("ref") }
            if name.hasPrefix("refs/heads/") { names.append(String(name.dropFirst("refs/heads/".count))) }
        }
        return names
    }

    private func refPath(_ repository: String, _ branch: String) -> String {
        URLPath.repository(repository) + "/git/ref/heads/" + URLPath.encodedSegments(branch)
    }

    private func refRead(_ response: HTTPResponse, _ failure: GitHubError?, branch: String) throws(GitHubError) -> RefRead {
        let date = response.header("date").flatMap(HTTPDate.parse)
        switch failure {
        case nil: break
        case .notFound?: return .missing(date: date)
        case let error? where Self.isEmptyRepository(error): return .empty(date: date)
        case let error?: throw error
        }
        if response.status == 304 { return .notModified(date: date) }
        let (type, sha) = try decode(response) { json throws(JSONError) in
            let object = try json.field("object")
            return (try object.string("type"), try object.string("sha"))
        }
        guard type == "commit" else { throw .unexpectedResponse("the branch \(branch) points to a \(type), not a commit") }
        return .head(commit: try Self.checkedSHA(sha, "object.sha"), etag: response.header("etag"), date: date)
    }

    /// GET /repos/{repo}/git/trees/{sha} (not recursive): the entries of a tree, asked for by a
    /// tree-ish (a tree's or a commit's sha). A 404 is about that object (see `gitObject`).
    public func treeEntries(repository: String, sha: String) throws(GitHubError) -> GitTreeListing {
        try treeListing(try get(URLPath.repository(repository) + "/git/trees/" + URLPath.encoded(sha),
                                about: .gitObject(repository: repository, sha: sha)))
    }

    /// Several trees at once (in parallel where the transport can), in the order asked.
    public func treeEntries(repository: String, shas: [String]) -> [Result<GitTreeListing, GitHubError>] {
        let urls = shas.map { configuration.endpoint.url(URLPath.repository(repository) + "/git/trees/" + URLPath.encoded($0)) }
        return zip(shas, getAll(urls.map { (url: $0, etag: nil) })).map { sha, answer in
            answer.flatMap { response in
                if let error = error(for: response, about: .gitObject(repository: repository, sha: sha)) { return .failure(error) }
                return Result { () throws(GitHubError) in try treeListing(response) }
            }
        }
    }

    /// The root tree of `commit`, named as git names it: the commit (GET git/commits, for its
    /// tree's name) and the tree listed by the commit (GET git/trees), asked for together.
    public func rootTree(repository: String, commit: String) throws(GitHubError) -> GitTreeListing {
        guard let listing = try rootTree(repository: repository, commit: commit, recursive: false) else {
            throw .unexpectedResponse("no listing of the commit \(commit)")
        }
        return listing
    }

    /// The same with every entry under the root, each named by its path from the root (GitHub's
    /// recursive listing, `?recursive=1`): nil when GitHub cut the listing short (beyond 100,000
    /// entries or 7 MB).
    public func wholeRootTree(repository: String, commit: String) throws(GitHubError) -> GitTreeListing? {
        try rootTree(repository: repository, commit: commit, recursive: true)
    }

    private func rootTree(repository: String, commit: String, recursive: Bool) throws(GitHubError) -> GitTreeListing? {
        let base = URLPath.repository(repository) + "/git"
        let urls = [base + "/commits/" + URLPath.encoded(commit), base + "/trees/" + URLPath.encoded(commit) + (recursive ? "?recursive=1" : "")]
        let answers = getAll(urls.map { (url: configuration.endpoint.url($0), etag: nil) })
        guard answers.count == 2 else { throw .unexpectedResponse("no answer for the commit \(commit)") }
        let resource = GitHubResource.gitObject(repository: repository, sha: commit)
        let commitAnswer = try answers[0].get(), treeAnswer = try answers[1].get()
        for response in [commitAnswer, treeAnswer] {
            if let error = error(for: response, about: resource) { throw error }
        }
        let tree = try decode(commitAnswer) { json throws(JSONError) in try json.field("tree").string("sha") }
        let json = try parse(treeAnswer)
        if recursive, (try? json.optionalBool("truncated")) == true { return nil }
        var listing = try treeListing(json, nested: recursive)
        listing.sha = try Self.checkedSHA(tree, "tree.sha")
        return listing
    }

    func treeListing(_ response: HTTPResponse, nested: Bool = false) throws(GitHubError) -> GitTreeListing {
        try treeListing(try parse(response), nested: nested)
    }

    /// A listing's entries; `nested`: named by their paths from the tree (a recursive listing).
    func treeListing(_ json: JSONValue, nested: Bool = false) throws(GitHubError) -> GitTreeListing {
        let (treeSHA, truncated, items) = try decodeValue(json) { json throws(JSONError) in
            (try json.string("sha"), try json.optionalBool("truncated") ?? false, try json.array("tree"))
        }
        guard !truncated else { throw .unexpectedResponse("GitHub cut the listing of the tree \(treeSHA) short") }
        var entries: [GitTreeEntry] = []
        entries.reserveCapacity(items.count)
        for item in items {
            let (path, type, modeText, entrySHA, size) = try decodeValue(item) { json throws(JSONError) in
                var size: Int?
                if case .number(let text)? = json["size"] {
                    guard let value = Int(text) else { throw .wrongType(field: "size", expected: "integer") }
                    size = value
                }
                return (try json.string("path"), try json.string("type"), try json.string("mode"), try json.string("sha"), size)
            }
            guard let mode = GitMode(modeText), mode.objectType == type else {
                throw .unexpectedResponse("a tree entry of type '\(type)' with mode '\(modeText)'")
            }
            guard !path.isEmpty, nested || !path.contains("/") else { throw .unexpectedResponse("a tree entry named '\(path)'") }
            entries.append(GitTreeEntry(name: path, sha: try Self.checkedSHA(entrySHA, "tree.sha"), mode: mode, size: size))
        }
        return GitTreeListing(sha: try Self.checkedSHA(treeSHA, "sha"), entries: entries)
    }

    /// GET /repos/{repo}/git/blobs/{sha} raw (Accept: application/vnd.github.raw+json).
    public func blob(repository: String, sha: String) throws(GitHubError) -> [UInt8] {
        try get(URLPath.repository(repository) + "/git/blobs/" + URLPath.encoded(sha), about: .gitObject(repository: repository, sha: sha),
                accept: Self.rawMediaType).body
    }

    /// Many blobs at once (in parallel where the transport can), raw; `each` gets each one's
    /// result (by its index in `shas`) as soon as it is known, so that the caller can work on it
    /// while the others are still on their way.
    public func blobs(repository: String, shas: [String], each: (Int, Result<[UInt8], GitHubError>) -> Void) {
        let urls = shas.map { configuration.endpoint.url(URLPath.repository(repository) + "/git/blobs/" + URLPath.encoded($0)) }
        getAll(urls.map { (url: $0, etag: nil) }, accept: Self.rawMediaType) { index, answer in
            each(index, answer.flatMap { response in
                if let error = error(for: response, about: .gitObject(repository: repository, sha: shas[index])) { return .failure(error) }
                return .success(response.body)
            })
            return true
        }
    }

    /// GET /repos/{repo}/git/trees/{sha}?recursive=1: every entry under a tree, by its path from
    /// the tree (a listing GitHub cut short is an error).
    public func treeEntriesRecursively(repository: String, sha: String) throws(GitHubError) -> [String: GitTreeEntry] {
        let response = try get(URLPath.repository(repository) + "/git/trees/" + URLPath.encoded(sha) + "?recursive=1",
                               about: .gitObject(repository: repository, sha: sha))
        var entries: [String: GitTreeEntry] = [:]
        for entry in try treeListing(response, nested: true).entries { entries[entry.name] = entry }
        return entries
    }

    /// Whether an error is GitHub's answer about a repository with no commit yet (409 "Git
    /// Repository is empty."), which every Git Data call on it gets.
    public static func isEmptyRepository(_ error: GitHubError) -> Bool {
        guard case .conflict(let message) = error else { return false }
        return message.lowercased().contains("repository is empty")
    }

    func decodeValue<T>(_ json: JSONValue, as decodeValue: (JSONValue) throws(JSONError) -> T) throws(GitHubError) -> T {
        do { return try decodeValue(json) } catch { throw Self.decodingError(error) }
    }

    /// `sha` when it is a git object's name (40 hex digits), lowercased.
    static func checkedSHA(_ sha: String, _ field: String) throws(GitHubError) -> String {
        guard GitHash.bytes(ofHex: sha) != nil else { throw .unexpectedResponse("field '\(field)' is not a git object's name") }
        return sha.lowercased()
    }
}
