import DoogitSupport

/// Writing with the Git Data API: trees, blobs and commits, and the branch's ref moved to a new
/// commit only as a fast forward (the compare-and-swap of an exchange).
extension GitHubClient {
    /// POST /repos/{repo}/git/trees on `base` (a tree's sha; nil only for a branch with no
    /// commit) with entries {"path","mode","type":"blob","content"} (inline text; content is UTF-8
    /// JSONL) or "sha": null to remove a path. Returns the new root tree, one level listed.
    /// Content that is not UTF-8 (which inline content cannot carry) is sent first as a blob of
    /// its own (POST git/blobs, base64) and named by its sha.
    public func createTree(repository: String, base: String?, files: [GitTreeWrite]) throws(GitHubError) -> GitTreeListing {
        var entries: [JSONValue] = []
        entries.reserveCapacity(files.count)
        for file in files {
            var members = [JSONMember("path", .string(file.path)), JSONMember("mode", .string(file.mode.text)),
                           JSONMember("type", .string(file.mode.objectType))]
            if let content = file.content {
                if let text = String(validating: content, as: UTF8.self) {
                    members.append(JSONMember("content", .string(text)))
                } else {
                    members.append(JSONMember("sha", .string(try createBlob(repository: repository, content: content))))
                }
            } else {
                members.append(JSONMember("sha", .null))
            }
            entries.append(.object(members))
        }
        var body: [JSONMember] = []
        if let base { body.append(JSONMember("base_tree", .string(base))) }
        body.append(JSONMember("tree", .array(entries)))
        return try treeListing(try send(.repeatablePost, URLPath.repository(repository) + "/git/trees", body: .object(body),
                                        about: .repository(repository)))
    }

    /// POST /repos/{repo}/git/blobs with base64 content: returns the blob's sha.
    func createBlob(repository: String, content: [UInt8]) throws(GitHubError) -> String {
        let answer = try send(.repeatablePost, URLPath.repository(repository) + "/git/blobs", body: .object([
            JSONMember("content", .string(Base64.encode(content))), JSONMember("encoding", .string("base64")),
        ]), about: .repository(repository))
        return try Self.createdSHA(answer, of: "blob")
    }

    /// POST /repos/{repo}/git/commits: returns the new commit's sha. Repeated after a lost answer
    /// like the tree and blob POSTs: a commit made twice is two commits, but only the one the
    /// branch is moved to is ever referenced.
    public func createCommit(repository: String, message: String, tree: String, parents: [String]) throws(GitHubError)
        -> String
    {
        let answer = try send(.repeatablePost, URLPath.repository(repository) + "/git/commits", body: .object([
            JSONMember("message", .string(message)), JSONMember("tree", .string(tree)),
            JSONMember("parents", .array(parents.map(JSONValue.string))),
        ]), about: .repository(repository))
        return try Self.createdSHA(answer, of: "commit")
    }

    /// PATCH /repos/{repo}/git/refs/heads/{branch} with {"sha", "force": false}: moves the branch only
    /// if `commit` descends from where it is (GitHub's 422 "Update is not a fast forward" otherwise: a lost race).
    /// Repeating it is harmless (a branch already at `commit` stays), so it is retried like a GET.
    public func updateRef(repository: String, branch: String, commit: String) throws(GitHubError) {
        _ = try patch(URLPath.repository(repository) + "/git/refs/heads/" + URLPath.encodedSegments(branch), .object([
            JSONMember("sha", .string(commit)), JSONMember("force", .bool(false)),
        ]), about: .other("the branch \(branch) of \(repository)"))
    }

    /// POST /repos/{repo}/git/refs: a new branch at `commit`. Not repeated on its own: a lost
    /// answer is read back instead. GitHub answers 422 "Reference already exists" to a branch that
    /// another writer made first, a lost race (`isNotFastForward` says so too).
    public func createBranch(repository: String, branch: String, commit: String) throws(GitHubError) {
        _ = try send(.create, URLPath.repository(repository) + "/git/refs", body: .object([
            JSONMember("ref", .string("refs/heads/" + branch)), JSONMember("sha", .string(commit)),
        ]), about: .other("the branch \(branch) of \(repository)"))
    }

    /// Whether an error is a lost race of `updateRef` (422 not a fast forward).
    public static func isNotFastForward(_ error: GitHubError) -> Bool {
        guard case .validationFailed(let message) = error else { return false }
        let text = message.lowercased()
        return text.contains("not a fast forward") || text.contains("reference already exists")
    }

    /// The "sha" of what a POST created.
    static func createdSHA(_ answer: JSONValue, of kind: String) throws(GitHubError) -> String {
        guard case .string(let sha)? = answer["sha"] else { throw .unexpectedResponse("the answer to creating a \(kind) has no sha") }
        return try checkedSHA(sha, "sha")
    }
}
