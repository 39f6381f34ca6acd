import DoogitSupport
import Foundation

/// The files of the fake GitHub's repositories, kept as git keeps them: per repository a small
/// object store (blobs, trees, commits, branch refs; FakeGitObjects.swift), answered through the
/// Contents API (this file) and the Git Data API (FakeGitHub+GitData.swift). The Contents API
/// reads with ETags (304) and writes one commit per PUT with GitHub's blob-sha check (409 for a
/// sha that is not the file's, 422 for none over a file that exists), raw reads of large files
/// by blob, and `Date` headers from a clock the tests set. Tests can commit files as another
/// writer would, have such a commit happen just before doogit's next write, and make the next
/// reads stale (as a replica lagging behind). A repository not made otherwise starts with one
/// commit of no files on `defaultBranch`.
public final class FakeContents: @unchecked Sendable {
    public struct File: Equatable, Sendable {
        public var content: [UInt8]
        /// Its blob's name, as git computes it.
        public var sha: String
        public var text: String { String(decoding: content, as: UTF8.self) }
    }

    let lock = NSLock()
    /// Each repository's objects, by its full name in lower case.
    var repositories: [String: FakeGitObjects] = [:]
    /// Each file's version before its last change, by `key(...)`: what a stale read answers.
    private var previous: [String: File] = [:]
    private var pendingWrites: [(key: String, content: [UInt8])] = []
    /// Commits of other writers to make just before the next ref update of a branch, by `refKey`.
    var pendingRefMoves: [String: [[String: String?]]] = [:]
    /// Commits of other writers to make just after the next tree read of a repository, by `refKey`.
    var pendingAfterTreeRead: [(key: String, repository: String, branch: String, files: [String: String?])] = []
    private var staleReads = 0
    /// Reads that a lagging replica answers 404, per repository (armed once a branch moved).
    var laggingReads: [String: (remaining: Int, armed: Bool)] = [:]
    /// Uses of objects a write made that a lagging replica answers as unknown, per repository.
    var writeLags: [String: (remaining: Int, steps: Set<WriteStep>)] = [:]
    /// Reads of a branch's ref that a lagging replica answers with its previous commit, per repository.
    var staleRefReads: [String: (remaining: Int, armed: Bool)] = [:]
    /// Repositories whose next tree write leaves out its base (a fault the tests inject).
    var ignoringBaseTree: Set<String> = []
    private var clock: Date?
    private var nextRepositoryID: Int64 = 900_000
    var writeCount = 0
    var commitMessages: [String] = []

    /// The branch a request without `ref` reads: the fixtures' `default_branch`.
    public static let defaultBranch = "master"
    /// Above this size the JSON answer leaves the content out, as GitHub does over 1 MB.
    public var largeFileThreshold: Int {
        get { locked { threshold } }
        set { locked { threshold = newValue } }
    }
    private var threshold = 1_000_000
    /// The most entries a recursive tree listing holds; beyond, GitHub cuts it short and says
    /// `truncated` (its docs: 100,000 entries, or 7 MB).
    public var recursiveListingLimit: Int {
        get { locked { listingLimit } }
        set { locked { listingLimit = newValue } }
    }
    var listingLimit = 100_000

    public init() {}

    func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    static func key(_ repository: String, _ path: String, _ branch: String) -> String {
        "\(repository.lowercased())@\(branch):\(path)"
    }

    static func refKey(_ repository: String, _ branch: String) -> String { "\(repository.lowercased())@\(branch)" }

    /// The fake's clock, in seconds (under the lock).
    var now: Int64 { Int64((clock ?? Date()).timeIntervalSince1970) }

    /// Runs `body` on the repository's objects, made on first use with a first commit of no files.
    func withObjects<T>(_ repository: String, _ body: (inout FakeGitObjects) -> T) -> T {
        let time = now
        return body(&repositories[repository.lowercased(), default: FakeGitObjects.firstCommit(
            branch: Self.defaultBranch, files: [:], message: "Initial commit", time: time)])
    }

    /// Commits these changes on `branch` (a new branch starts at the default branch's head) and
    /// keeps the files they replaced for stale reads; returns the commit.
    @discardableResult
    func commit(_ repository: String, _ changes: [(path: String, change: FakePathChange)], branch: String, message: String)
        -> String
    {
        let time = now
        let (commit, replaced) = withObjects(repository) {
            $0.commit(changes, on: branch, startingAt: Self.defaultBranch, message: message, time: time)
        }
        notePrevious(repository, branch: branch, replaced)
        noteBranchMoved(repository)
        return commit
    }

    /// Keeps the files a move of `branch` replaced (path -> blob) as their previous versions.
    func notePrevious(_ repository: String, branch: String, _ replaced: [String: String]) {
        let blobs = repositories[repository.lowercased()]?.blobs ?? [:]
        for (path, sha) in replaced {
            previous[Self.key(repository, path, branch)] = File(content: blobs[sha] ?? [], sha: sha)
        }
    }

    // MARK: State the tests read and change

    public func file(_ repository: String, _ path: String = "todos.jsonl", branch: String = defaultBranch) -> File? {
        locked {
            withObjects(repository) { $0.file(path, branch: branch) }.map { File(content: $0.content, sha: $0.sha) }
        }
    }

    /// Every file at the head of the branch: path -> text.
    public func files(_ repository: String, branch: String = defaultBranch) -> [String: String] {
        locked {
            withObjects(repository) { objects in
                guard let head = objects.refs[branch] else { return [:] }
                return objects.files(ofCommit: head).mapValues { String(decoding: objects.blobs[$0] ?? [], as: UTF8.self) }
            }
        }
    }

    /// How many commits the branch's history holds (0: no such branch, or no commit yet).
    public func commits(_ repository: String, branch: String = defaultBranch) -> Int {
        locked { withObjects(repository) { $0.commitCount(branch: branch) } }
    }

    /// The commit at the head of the branch, if any.
    public func head(_ repository: String, branch: String = defaultBranch) -> String? {
        locked { withObjects(repository) { $0.refs[branch] } }
    }

    /// Writes the file as another writer would (a commit on GitHub).
    public func setFile(_ repository: String, _ text: String, path: String = "todos.jsonl", branch: String = defaultBranch) {
        locked { _ = commit(repository, [(path, .text(text))], branch: branch, message: "Update \(path)") }
    }

    /// Commits these files (path -> text, nil removes) as another writer would, in one commit.
    public func commitFiles(_ repository: String, _ files: [String: String?], branch: String = defaultBranch,
                            message: String = "Another writer's changes") {
        locked { _ = commit(repository, Self.changes(files), branch: branch, message: message) }
    }

    /// Commits these entries (executables, symlinks, submodules too) as another writer would.
    public func commitEntries(_ repository: String, _ entries: [String: FakePathChange], branch: String = defaultBranch,
                              message: String = "Another writer's changes") {
        locked { _ = commit(repository, entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, branch: branch,
                            message: message) }
    }

    /// Every entry at the head of the branch but its folders, with its mode: path -> (mode, blob or commit).
    public func entries(_ repository: String, branch: String = defaultBranch) -> [String: (mode: GitMode, sha: String)] {
        locked {
            withObjects(repository) { objects in
                guard let head = objects.refs[branch] else { return [:] }
                return objects.entries(ofCommit: head).mapValues { ($0.mode, $0.sha) }
            }
        }
    }

    static func changes(_ files: [String: String?]) -> [(path: String, change: FakePathChange)] {
        files.sorted { $0.key < $1.key }.map { ($0.key, .text($0.value)) }
    }

    /// Makes the repository one with no commit yet: every Git Data call on it gets GitHub's 409,
    /// and its first Contents PUT makes its first commit.
    public func makeEmptyRepository(_ fullName: String) {
        locked { repositories[fullName.lowercased()] = FakeGitObjects() }
    }

    /// Makes a branch at the head of another, as `git branch NAME FROM` and a push would.
    public func createBranch(_ repository: String, _ name: String, from start: String = defaultBranch) {
        locked {
            withObjects(repository) { objects in
                if let head = objects.refs[start] { _ = objects.moveRef(name, to: head) }
            }
        }
    }

    /// Has another writer write this content just before doogit's next write of the file: the
    /// race that the sha check exists for.
    public func writeBeforeNextPut(_ repository: String, _ text: String, path: String = "todos.jsonl",
                                   branch: String = defaultBranch) {
        locked { pendingWrites.append((Self.key(repository, path, branch), Array(text.utf8))) }
    }

    /// The next `count` reads of a file answer its previous version, as a lagging replica would.
    public func makeNextReadsStale(_ count: Int) { locked { staleReads = count } }

    /// GitHub's time in `Date` headers and commits; nil: the real time.
    public func setDate(_ date: Date?) { locked { clock = date } }

    /// Successful writes so far (a Contents PUT, or a ref update that moved a branch), and their
    /// commit messages.
    public var writes: Int { locked { writeCount } }
    public var messages: [String] { locked { commitMessages } }

    /// GitHub's `Date` header, from the clock the tests set (or the real time); under the lock.
    var dateHeader: (String, String) { Self.dateHeader(clock ?? Date()) }

    /// The same, for answers outside the Contents API: `date` when given.
    func currentDateHeader(at date: Date?) -> (String, String) { Self.dateHeader(date ?? locked { clock } ?? Date()) }

    private static func dateHeader(_ date: Date) -> (String, String) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return ("Date", formatter.string(from: date))
    }

    // MARK: Answers (called by FakeGitHub's dispatch, under its lock)

    /// `asker`: the user the request comes from (a repository they create is theirs).
    func answer(_ request: ReceivedRequest, parts: [String], github: FakeGitHub, asker: FakeGitHub.User) -> ServerResponse {
        locked {
            if parts.count >= 5, parts[0] == "repos", parts[3] == "contents" {
                let repository = "\(parts[1])/\(parts[2])"
                let path = parts[4...].joined(separator: "/").removingPercentEncoding ?? ""
                return request.method == "PUT" ? write(request, repository: repository, path: path)
                    : read(request, repository: repository, path: path)
            }
            return createRepository(request, owner: parts[0] == "orgs" ? parts[1] : asker.login, github: github, asker: asker)
        }
    }

    private func read(_ request: ReceivedRequest, repository: String, path: String) -> ServerResponse {
        let branch = request.query["ref"].flatMap { $0.removingPercentEncoding } ?? Self.defaultBranch
        let key = Self.key(repository, path, branch)
        var found = withObjects(repository) { $0.file(path, branch: branch) }.map { File(content: $0.content, sha: $0.sha) }
        if staleReads > 0, let old = previous[key] {
            staleReads -= 1
            found = old
        }
        guard let file = found else {
            let missing = #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/contents#get-repository-content","status":"404"}"#
            return .json(404, missing, headers: [dateHeader])
        }
        if request.headers["accept"] == "application/vnd.github.raw+json" {
            return ServerResponse(status: 200, headers: [dateHeader], body: file.content)
        }
        let large = file.content.count > threshold
        let body = JSONWriter.write(Fixtures.json("content-file.json").replacing([
            "name": .string(String(path.split(separator: "/").last ?? "")), "path": .string(path), "sha": .string(file.sha),
            "size": .int(file.content.count), "encoding": .string(large ? "none" : "base64"),
            "content": .string(large ? "" : Self.wrapped(Base64.encode(file.content))),
        ]))
        let tag = FakeGitHub.etag(body)
        if request.headers["if-none-match"] == tag { return ServerResponse(status: 304, headers: [("ETag", tag), dateHeader]) }
        return .json(200, body, headers: [("ETag", tag), dateHeader])
    }

    /// Base64 in lines of 60 characters, as GitHub sends it.
    static func wrapped(_ text: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            lines.append(rest.prefix(60))
            rest = rest.dropFirst(60)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func write(_ request: ReceivedRequest, repository: String, path: String) -> ServerResponse {
        guard let body = try? JSONParser.parse(request.body), let encoded = try? body.string("content"),
              let content = Base64.decode(encoded) else {
            return .json(422, Fixtures.text("error-422.json"), headers: [dateHeader])
        }
        let branch = ((try? body.optionalString("branch")) ?? nil) ?? Self.defaultBranch
        let key = Self.key(repository, path, branch)
        for pending in pendingWrites where pending.key == key {
            commit(repository, [(path, .file(pending.content, .file))], branch: branch, message: "Update \(path)")
        }
        pendingWrites.removeAll { $0.key == key }
        let sha = try? body.optionalString("sha")
        let existing = withObjects(repository) { $0.file(path, branch: branch) }
        switch (existing, sha) {
        case (_?, nil):
            return .json(422, Fixtures.text("error-422-sha-missing.json"), headers: [dateHeader])
        case (let file?, let given?) where file.sha != given:
            let conflict = Fixtures.json("error-409-contents.json").replacing(["message": .string("\(path) does not match \(given)")])
            return .json(409, JSONWriter.write(conflict), headers: [dateHeader])
        case (nil, let given?):
            let conflict = Fixtures.json("error-409-contents.json").replacing(["message": .string("\(path) does not match \(given)")])
            return .json(409, JSONWriter.write(conflict), headers: [dateHeader])
        default:
            let message = (try? body.string("message")) ?? ""
            // A file keeps its mode (an executable stays one).
            let mode = withObjects(repository) { $0.entry(path, branch: branch)?.mode } ?? .file
            let sha = commit(repository, [(path, .file(content, mode.isTree || mode.isSubmodule ? .file : mode))], branch: branch,
                             message: message)
            writeCount += 1
            commitMessages.append(message)
            let answer = Fixtures.json("file-commit.json")
            let written = (answer["content"] ?? .null).replacing(["sha": .string(GitHash.blob(content)), "path": .string(path),
                                                                 "size": .int(content.count)])
            let made = repositories[repository.lowercased()]?.commits[sha]
            let commit = (answer["commit"] ?? .null).replacing([
                "sha": .string(sha), "message": .string(message),
                "tree": .object([JSONMember("sha", .string(made?.tree ?? ""))]),
                "parents": .array((made?.parents ?? []).map { .object([JSONMember("sha", .string($0))]) }),
            ])
            return .json(existing == nil ? 201 : 200, JSONWriter.write(answer.replacing(["content": written, "commit": commit])),
                         headers: [dateHeader])
        }
    }

    private func createRepository(_ request: ReceivedRequest, owner: String, github: FakeGitHub, asker: FakeGitHub.User)
        -> ServerResponse
    {
        guard let body = try? JSONParser.parse(request.body), let name = try? body.string("name") else {
            return .json(422, Fixtures.text("error-422.json"))
        }
        // GitHub refuses a name the owner has already (two machines creating it at once).
        if github.repositoryNamed("\(owner)/\(name)") != nil {
            return .json(422, #"{"message":"Repository creation failed.","errors":[{"resource":"Repository","code":"custom","field":"name","message":"name already exists on this account"}],"documentation_url":"https://docs.github.com/rest/repos/repos#create-a-repository-for-the-authenticated-user","status":"422"}"#)
        }
        nextRepositoryID += 1
        // Re-entrant: FakeGitHub's lock is recursive.
        let repository = github.addRepository(id: nextRepositoryID, owner: owner, name: name,
                                              description: (try? body.optionalString("description")) ?? nil,
                                              isPrivate: (try? body.optionalBool("private")) == true)
        // A new repository is empty; with auto_init its first commit adds a README.
        repositories[repository.fullName.lowercased()] = (try? body.optionalBool("auto_init")) == true
            ? FakeGitObjects.firstCommit(branch: Self.defaultBranch, files: ["README.md": Array("# \(name)\n".utf8)],
                                         message: "Initial commit", time: now)
            : FakeGitObjects()
        return .json(201, JSONWriter.write(FakeGitHub.json(for: repository, apiURL: github.apiURL,
                                                           viewer: .some(github.role(of: asker.login, on: repository)))))
    }
}
