import DoogitSupport
import Foundation

/// The Contents API of the fake GitHub: files per repository and branch, read with ETags (304)
/// and written with GitHub's blob-sha check (409 for a sha that is not the file's, 422 for none
/// over a file that exists), raw reads of large files by blob, and `Date` headers from a clock
/// the tests set. Tests can put a file there as another writer would, have such a write happen
/// just before doogit's next write, and make the next reads stale (as a replica lagging behind).
public final class FakeContents: @unchecked Sendable {
    public struct File: Equatable, Sendable {
        public var content: [UInt8]
        public var sha: String
        public var text: String { String(decoding: content, as: UTF8.self) }
    }

    private let lock = NSLock()
    private var files: [String: File] = [:]
    private var previous: [String: File] = [:]
    private var blobs: [String: [UInt8]] = [:]
    private var pendingWrites: [(key: String, content: [UInt8])] = []
    private var staleReads = 0
    private var clock: Date?
    private var nextRepositoryID: Int64 = 900_000
    private var writeCount = 0
    private var commitMessages: [String] = []

    /// The branch a request without `ref` reads: the fixtures' `default_branch`.
    public static let defaultBranch = "master"
    /// Above this size the JSON answer leaves the content out, as GitHub does over 1 MB.
    public var largeFileThreshold: Int {
        get { locked { threshold } }
        set { locked { threshold = newValue } }
    }
    private var threshold = 1_000_000

    public init() {}

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private static func key(_ repository: String, _ path: String, _ branch: String) -> String {
        "\(repository.lowercased())@\(branch):\(path)"
    }

    // MARK: State the tests read and change

    public func file(_ repository: String, _ path: String = "todos.jsonl", branch: String = defaultBranch) -> File? {
        locked { files[Self.key(repository, path, branch)] }
    }

    /// Writes the file as another writer would (a commit on GitHub).
    public func setFile(_ repository: String, _ text: String, path: String = "todos.jsonl", branch: String = defaultBranch) {
        locked { store(Array(text.utf8), at: Self.key(repository, path, branch)) }
    }

    /// Has another writer write this content just before doogit's next write of the file: the
    /// race that the sha check exists for.
    public func writeBeforeNextPut(_ repository: String, _ text: String, path: String = "todos.jsonl",
                                   branch: String = defaultBranch) {
        locked { pendingWrites.append((Self.key(repository, path, branch), Array(text.utf8))) }
    }

    /// The next `count` reads of a file answer its previous version, as a lagging replica would.
    public func makeNextReadsStale(_ count: Int) { locked { staleReads = count } }

    /// GitHub's time in `Date` headers; nil: the real time.
    public func setDate(_ date: Date?) { locked { clock = date } }

    /// Successful writes of any file so far, and their commit messages.
    public var writes: Int { locked { writeCount } }
    public var messages: [String] { locked { commitMessages } }

    private func store(_ content: [UInt8], at key: String) {
        if let old = files[key] { previous[key] = old }
        let sha = Self.blobSHA(content)
        files[key] = File(content: content, sha: sha)
        blobs[sha] = content
    }

    /// A 40-hex-digit name of the content (not git's SHA-1, which the tests do not need).
    static func blobSHA(_ content: [UInt8]) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325, second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in content {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second &+ UInt64(byte)) &* 0x9E37_79B9_7F4A_7C15
        }
        let hex = String(first, radix: 16) + String(second, radix: 16) + String(UInt64(content.count), radix: 16)
        return String((hex + String(repeating: "0", count: 40)).prefix(40))
    }

    /// GitHub's `Date` header, from the clock the tests set (or the real time); under the lock.
    private var dateHeader: (String, String) { Self.dateHeader(clock ?? Date()) }

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

    func answer(_ request: ReceivedRequest, parts: [String], github: FakeGitHub) -> ServerResponse {
        locked {
            if parts.count >= 5, parts[0] == "repos", parts[3] == "contents" {
                let repository = "\(parts[1])/\(parts[2])"
                let path = parts[4...].joined(separator: "/").removingPercentEncoding ?? ""
                return request.method == "PUT" ? write(request, repository: repository, path: path)
                    : read(request, repository: repository, path: path)
            }
            if parts.count == 6, parts[0] == "repos", parts[3] == "git", parts[4] == "blobs" {
                guard let blob = blobs[parts[5]] else { return .json(404, Fixtures.text("error-404.json"), headers: [dateHeader]) }
                return ServerResponse(status: 200, headers: [("Content-Type", "application/vnd.github.raw+json"), dateHeader],
                                      body: blob)
            }
            return createRepository(request, owner: parts[0] == "orgs" ? parts[1] : github.login, github: github)
        }
    }

    private func read(_ request: ReceivedRequest, repository: String, path: String) -> ServerResponse {
        let key = Self.key(repository, path, request.query["ref"].flatMap { $0.removingPercentEncoding } ?? Self.defaultBranch)
        var found = files[key]
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
    private static func wrapped(_ text: String) -> String {
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
        let branch = try? body.optionalString("branch")
        let key = Self.key(repository, path, branch ?? Self.defaultBranch)
        for pending in pendingWrites where pending.key == key { store(pending.content, at: key) }
        pendingWrites.removeAll { $0.key == key }
        let sha = try? body.optionalString("sha")
        let existing = files[key]
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
            store(content, at: key)
            writeCount += 1
            commitMessages.append((try? body.string("message")) ?? "")
            let commit = Fixtures.json("file-commit.json")
            let written = (commit["content"] ?? .null).replacing(["sha": .string(files[key]?.sha ?? ""), "path": .string(path),
                                                                 "size": .int(content.count)])
            return .json(existing == nil ? 201 : 200, JSONWriter.write(commit.replacing(["content": written])), headers: [dateHeader])
        }
    }

    private func createRepository(_ request: ReceivedRequest, owner: String, github: FakeGitHub) -> ServerResponse {
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
        if (try? body.optionalBool("auto_init")) == true {
            store(Array("# \(name)\n".utf8), at: Self.key(repository.fullName, "README.md", Self.defaultBranch))
        }
        return .json(201, JSONWriter.write(FakeGitHub.json(for: repository, apiURL: github.apiURL)))
    }
}
