import DoogitSupport
import Foundation

/// The Git Data API of the fake GitHub, over the same objects as the Contents API: a branch's
/// ref (ETag, 304), trees (one level, or `recursive=1`) asked by any tree-ish (a tree, a commit
/// or a branch: asked by a commit, the listing answers the commit's sha, as GitHub's does), with
/// each entry's mode (files, executables, symlinks, submodules, folders), blobs (raw or
/// base64), commits, new trees (on a `base_tree` that must be a tree, with the modes given),
/// blobs and commits, new branches (`POST git/refs`), and ref updates that must be fast forwards
/// (422 otherwise). A repository
/// with no commit yet answers every call with 409, as GitHub does. Reads and writes may meet a
/// replica that lags, as GitHub's do (`FakeGitHub+Replicas.swift`).
extension FakeContents {
    /// Just before the next PATCH of the branch's ref, another writer commits these files (path
    /// -> text, nil removes) on the branch, so the PATCH is not a fast forward.
    public func moveRefBeforeNextUpdate(_ repository: String, files: [String: String?], branch: String = defaultBranch) {
        locked { pendingRefMoves[Self.refKey(repository, branch), default: []].append(files) }
    }

    /// Just after the next tree read of the repository (GET git/trees), another writer commits
    /// these files (path -> text, nil removes) on the branch: a change between a read and a commit.
    public func changeFilesAfterNextTreeRead(_ repository: String, files: [String: String?], branch: String = defaultBranch) {
        locked {
            pendingAfterTreeRead.append((repository.lowercased(), repository, branch, files))
        }
    }

    /// A fault, not GitHub's behaviour: the next tree written for the repository leaves its
    /// `base_tree` out, as a client that forgot to send it would, so that it holds only the
    /// entries written (the guard before a ref moves must catch it).
    public func ignoreBaseTreeOfNextTreeWrite(_ repository: String) {
        locked { _ = ignoringBaseTree.insert(repository.lowercased()) }
    }

    /// Answers `/repos/{o}/{r}/git/...` for the repository; `branchExists` says whether a branch
    /// the objects have a ref for is still there (a deleted branch has no ref whatever the
    /// objects hold), `created` hears of a branch made. Under FakeGitHub's lock.
    func gitAnswer(_ request: ReceivedRequest, parts: [String], apiURL: String, branchExists: (String) -> Bool,
                   created: (String) -> Void = { _ in }) -> ServerResponse
    {
        locked {
            let repository = "\(parts[1])/\(parts[2])"
            let route = Array(parts.dropFirst(4))
            let base = "\(apiURL)/repos/\(repository)/git"
            var response: ServerResponse
            if withObjects(repository, { $0.isEmpty }) {
                response = .json(409, Fixtures.text("error-409-empty-repository.json"))
            } else {
                switch (request.method, route.first ?? "", route.count) {
                // The documented form only: `matching-refs/{ref}`, with `heads` or `heads/PREFIX`.
                case ("GET", "matching-refs", 2...) where route[1] == "heads" && !request.path.hasSuffix("/"):
                    let prefix = route.dropFirst(2).joined(separator: "/").removingPercentEncoding ?? ""
                    let heads = withObjects(repository) { $0.refs }.filter { $0.key.hasPrefix(prefix) && branchExists($0.key) }
                    // A list has an ETag, and a request that names it is a 304 while the list is the same.
                    let body = JSONWriter.write(.array(heads.sorted { $0.key < $1.key }.map { Self.refJSON($0.key, $0.value, base: base) }))
                    let tag = "W/" + FakeGitHub.etag(body)
                    response = request.headers["if-none-match"] == tag ? ServerResponse(status: 304, headers: [("ETag", tag)])
                        : .json(200, body, headers: [("ETag", tag)])
                case ("GET", "ref", 3...) where route[1] == "heads":
                    let branch = Self.branch(route)
                    response = readRef(request, repository, branch: branch, stale: staleRef(repository, branch), base: base,
                                       branchExists: branchExists)
                case ("PATCH", "refs", 3...) where route[1] == "heads":
                    response = updateRef(request, repository, branch: Self.branch(route), base: base, branchExists: branchExists)
                case ("POST", "refs", 1):
                    response = createRef(request, repository, base: base, branchExists: branchExists, created: created)
                case ("GET", "trees", 2...):
                    // A tree-ish: a branch's name may hold slashes.
                    let name = route.dropFirst().joined(separator: "/").removingPercentEncoding ?? ""
                    response = readTree(request, repository, treeish: name, base: base, branchExists: branchExists)
                case ("POST", "trees", 1):
                    response = createTree(request, repository, base: base)
                case ("GET", "blobs", 2):
                    response = readBlob(request, repository, sha: route[1], base: base)
                case ("POST", "blobs", 1):
                    response = createBlob(request, repository, base: base)
                case ("GET", "commits", 2):
                    guard !lags(repository, route[1]),
                          let json = withObjects(repository, { Self.commitJSON(route[1], $0, repository: repository, base: base) }) else {
                        response = Self.notFound("commits#get-a-commit-object")
                        break
                    }
                    response = .json(200, JSONWriter.write(json))
                case ("POST", "commits", 1):
                    response = createCommit(request, repository, base: base)
                default:
                    response = .json(404, FakeGitHub.unknownRouteBody)
                }
            }
            response.headers.append(dateHeader)
            return response
        }
    }

    private static func branch(_ route: [String]) -> String {
        route.dropFirst(2).joined(separator: "/").removingPercentEncoding ?? ""
    }

    private static func notFound(_ page: String) -> ServerResponse {
        .json(404, #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/git/\#(page)","status":"404"}"#)
    }

    private static func invalid(_ message: String, _ page: String) -> ServerResponse {
        .json(422, JSONWriter.write(.object([
            JSONMember("message", .string(message)),
            JSONMember("documentation_url", .string("https://docs.github.com/rest/git/\(page)")),
            JSONMember("status", .string("422")),
        ])))
    }

    private static func refJSON(_ branch: String, _ commit: String, base: String) -> JSONValue {
        let template = Fixtures.json("git-ref.json")
        return template.replacing([
            "ref": .string("refs/heads/\(branch)"),
            "node_id": .string("REF_" + Base64.encode(Array("refs/heads/\(branch)".utf8))),
            "url": .string("\(base)/refs/heads/\(branch)"),
            "object": (template["object"] ?? .null).replacing([
                "sha": .string(commit), "url": .string("\(base)/commits/\(commit)"),
            ]),
        ])
    }

    /// `stale`: where the branch was before its last move, for a replica that lags.
    private func readRef(_ request: ReceivedRequest, _ repository: String, branch: String, stale: String?, base: String,
                         branchExists: (String) -> Bool) -> ServerResponse {
        guard branchExists(branch), let head = stale ?? withObjects(repository, { $0.refs[branch] }) else {
            return Self.notFound("refs#get-a-reference")
        }
        let body = JSONWriter.write(Self.refJSON(branch, head, base: base))
        let tag = "W/" + FakeGitHub.etag(body)
        if request.headers["if-none-match"] == tag { return ServerResponse(status: 304, headers: [("ETag", tag)]) }
        return .json(200, body, headers: [("ETag", tag)])
    }

    private func updateRef(_ request: ReceivedRequest, _ repository: String, branch: String, base: String,
                           branchExists: (String) -> Bool) -> ServerResponse {
        guard let body = try? JSONParser.parse(request.body), let sha = try? body.string("sha") else {
            return Self.invalid("Invalid request.\n\n\"sha\" wasn't supplied.", "refs#update-a-reference")
        }
        for files in pendingRefMoves.removeValue(forKey: Self.refKey(repository, branch)) ?? [] {
            commit(repository, Self.changes(files), branch: branch, message: "Another writer's changes")
        }
        guard branchExists(branch), let current = withObjects(repository, { $0.refs[branch] }) else {
            return Self.invalid("Reference does not exist", "refs#update-a-reference")
        }
        guard !lagsWrite(repository, sha, at: .refUpdate), let made = withObjects(repository, { $0.commits[sha] }) else {
            return Self.invalid("Object does not exist", "refs#update-a-reference")
        }
        // `force` is not honoured: doogit never asks for it, and a lost race must show.
        guard withObjects(repository, { $0.isAncestor(current, of: sha) }) else {
            return .json(422, Fixtures.text("error-422-not-fast-forward.json"))
        }
        if current != sha {
            notePrevious(repository, branch: branch, withObjects(repository) { $0.moveRef(branch, to: sha) })
            noteBranchMoved(repository)
            writeCount += 1
            commitMessages.append(made.message)
        }
        return .json(200, JSONWriter.write(Self.refJSON(branch, sha, base: base)))
    }

    /// POST git/refs: a new branch (`refs/heads/NAME`) at a commit the repository has: 201 with
    /// the ref, as `git-ref.json`; 422 "Reference already exists" for a branch there is (as
    /// recorded in renovatebot/renovate#20281), "Object does not exist" for a commit there is not
    /// (octokit/octokit.js#562). Tags are not kept here: a ref outside `refs/heads/` is refused
    /// with a 422 (GitHub would make it).
    private func createRef(_ request: ReceivedRequest, _ repository: String, base: String, branchExists: (String) -> Bool,
                           created: (String) -> Void) -> ServerResponse {
        let page = "refs#create-a-reference"
        guard let body = try? JSONParser.parse(request.body), let ref = try? body.string("ref") else {
            return Self.invalid("Invalid request.\n\n\"ref\" wasn't supplied.", page)
        }
        guard let sha = try? body.string("sha") else { return Self.invalid("Invalid request.\n\n\"sha\" wasn't supplied.", page) }
        let prefix = "refs/heads/"
        guard ref.hasPrefix(prefix), ref.count > prefix.count else { return .json(422, Fixtures.text("error-422.json")) }
        let branch = String(ref.dropFirst(prefix.count))
        if branchExists(branch) && withObjects(repository, { $0.refs[branch] }) != nil {
            return Self.invalid("Reference already exists", page)
        }
        guard withObjects(repository, { $0.commits[sha] }) != nil else { return Self.invalid("Object does not exist", page) }
        notePrevious(repository, branch: branch, withObjects(repository) { $0.moveRef(branch, to: sha) })
        noteBranchMoved(repository)
        created(branch)
        return .json(201, JSONWriter.write(Self.refJSON(branch, sha, base: base)), headers: [("Location", "\(base)/refs/heads/\(branch)")])
    }

    private static func entryJSON(_ path: String, _ entry: FakeGitObjects.Entry, _ objects: FakeGitObjects,
                                  base: String) -> JSONValue {
        var members = [JSONMember("path", .string(path)), JSONMember("mode", .string(entry.mode.text)),
                       JSONMember("type", .string(entry.mode.objectType)), JSONMember("sha", .string(entry.sha))]
        if entry.mode.objectType == "blob" { members.append(JSONMember("size", .int(objects.blobs[entry.sha]?.count ?? 0))) }
        // A submodule's commit is another repository's: GitHub gives it no address here.
        if !entry.mode.isSubmodule {
            members.append(JSONMember("url", .string("\(base)/\(entry.isTree ? "trees" : "blobs")/\(entry.sha)")))
        }
        return .object(members)
    }

    /// A tree as GitHub shows it: its entries one level down, or all of them with `recursive`;
    /// `named` is the sha the listing answers (the commit's, when asked by a commit).
    private static func treeJSON(_ tree: String, named: String, _ objects: FakeGitObjects, base: String, recursive: Bool,
                                 truncated: Bool?, limit: Int = .max) -> JSONValue {
        var entries: [JSONValue] = []
        var truncated = truncated
        if recursive {
            objects.walk(tree, prefix: "") { path, entry in
                if entries.count < limit { entries.append(entryJSON(path, entry, objects, base: base)) } else { truncated = true }
            }
        } else {
            entries = objects.sortedEntries(tree).map { entryJSON($0.name, $0.entry, objects, base: base) }
        }
        let json = Fixtures.json("git-tree.json").replacing([
            "sha": .string(named), "url": .string("\(base)/trees/\(named)"), "tree": .array(entries),
            "truncated": .bool(truncated ?? false),
        ])
        return truncated == nil ? json.removing("truncated") : json
    }

    /// GET git/trees/{tree-ish}: a tree's sha, a commit's sha or a branch's name. Asked by a
    /// commit (or a branch), GitHub lists the commit's tree under the commit's sha.
    private func readTree(_ request: ReceivedRequest, _ repository: String, treeish: String, base: String,
                          branchExists: (String) -> Bool) -> ServerResponse {
        let recursive = request.query["recursive"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false
        var named = treeish
        if GitHash.bytes(ofHex: treeish) == nil {
            guard branchExists(treeish), let head = withObjects(repository, { $0.refs[treeish] }) else {
                return Self.notFound("trees#get-a-tree")
            }
            named = head
        }
        guard !lags(repository, named) && !lagsWrite(repository, named, at: .treeRead) else { return Self.notFound("trees#get-a-tree") }
        let json = withObjects(repository) { objects in
            objects.tree(of: named).map {
                Self.treeJSON($0, named: named, objects, base: base, recursive: recursive, truncated: false, limit: listingLimit)
            }
        }
        guard let json else { return Self.notFound("trees#get-a-tree") }
        let key = repository.lowercased()
        for pending in pendingAfterTreeRead where pending.key == key {
            commit(pending.repository, Self.changes(pending.files), branch: pending.branch, message: "Another writer's changes")
        }
        pendingAfterTreeRead.removeAll { $0.key == key }
        return .json(200, JSONWriter.write(json))
    }

    private func createTree(_ request: ReceivedRequest, _ repository: String, base: String) -> ServerResponse {
        let page = "trees#create-a-tree"
        guard let body = try? JSONParser.parse(request.body), let items = try? body.array("tree") else {
            return Self.invalid("Invalid request.\n\n\"tree\" wasn't supplied.", page)
        }
        return withObjects(repository) { objects -> ServerResponse in
            var tree: String?
            if case .string(let baseTree)? = body["base_tree"], ignoringBaseTree.remove(repository.lowercased()) == nil {
                // A tree's sha, as GitHub documents it (not a commit's).
                guard objects.trees[baseTree] != nil else { return Self.invalid("base_tree is not a valid tree oid", page) }
                tree = baseTree
            }
            for item in items {
                guard let path = try? item.string("path"), let names = FakeGitObjects.components(path) else {
                    return Self.invalid("tree.path is invalid", page)
                }
                guard let modeText = try? item.string("mode"), let mode = GitMode(modeText),
                      [GitMode.file, .executable, .symlink, .submodule, .tree].contains(mode) else {
                    return Self.invalid("tree.mode is invalid", page)
                }
                let type = ((try? item.optionalString("type")) ?? nil) ?? mode.objectType
                guard type == mode.objectType else { return Self.invalid("tree.type \(type) does not match tree.mode \(mode)", page) }
                let entry: FakeGitObjects.Entry?
                if case .string(let content)? = item["content"] {
                    guard type == "blob" else { return Self.invalid("tree.content is only for a blob", page) }
                    entry = objects.storeBlob(Array(content.utf8), mode: mode)
                } else if case .string(let sha)? = item["sha"] {
                    // A submodule names a commit of another repository, which GitHub does not look for.
                    let exists = mode.isTree ? objects.trees[sha] != nil : mode.isSubmodule || objects.blobs[sha] != nil
                    guard exists else { return Self.invalid("tree.sha \(sha) is not a valid \(type)", page) }
                    entry = FakeGitObjects.Entry(sha: sha, mode: mode)
                } else if case .null? = item["sha"] {
                    entry = nil
                } else {
                    return Self.invalid("Must supply either tree.sha or tree.content", page)
                }
                tree = objects.replacing(names, with: entry, in: tree)
            }
            let root = tree ?? objects.storeTree([:])
            return .json(201, JSONWriter.write(Self.treeJSON(root, named: root, objects, base: base, recursive: false,
                                                             truncated: nil)),
                         headers: [("Location", "\(base)/trees/\(root)")])
        }
    }

    private func readBlob(_ request: ReceivedRequest, _ repository: String, sha: String, base: String) -> ServerResponse {
        guard !lags(repository, sha), let content = withObjects(repository, { $0.blobs[sha] }) else {
            return Self.notFound("blobs#get-a-blob")
        }
        if request.headers["accept"] == "application/vnd.github.raw+json" {
            return ServerResponse(status: 200, headers: [("Content-Type", "application/vnd.github.raw+json")], body: content)
        }
        return .json(200, JSONWriter.write(.object([
            JSONMember("sha", .string(sha)), JSONMember("node_id", .string("B_" + sha)), JSONMember("size", .int(content.count)),
            JSONMember("url", .string("\(base)/blobs/\(sha)")), JSONMember("content", .string(Self.wrapped(Base64.encode(content)))),
            JSONMember("encoding", .string("base64")),
        ])))
    }

    private func createBlob(_ request: ReceivedRequest, _ repository: String, base: String) -> ServerResponse {
        guard let body = try? JSONParser.parse(request.body), let text = try? body.string("content") else {
            return Self.invalid("Invalid request.\n\n\"content\" wasn't supplied.", "blobs#create-a-blob")
        }
        let encoding = ((try? body.optionalString("encoding")) ?? nil) ?? "utf-8"
        guard let content = encoding == "base64" ? Base64.decode(text) : Array(text.utf8) else {
            return Self.invalid("content is not valid Base64", "blobs#create-a-blob")
        }
        let sha = withObjects(repository) { $0.storeBlob(content, mode: .file).sha }
        let json = Fixtures.json("git-blob-created.json").replacing(["sha": .string(sha), "url": .string("\(base)/blobs/\(sha)")])
        return .json(201, JSONWriter.write(json), headers: [("Location", "\(base)/blobs/\(sha)")])
    }

    /// A commit as GitHub shows it (git-commit.json's shape); nil when there is none of that name.
    private static func commitJSON(_ sha: String, _ objects: FakeGitObjects, repository: String, base: String) -> JSONValue? {
        guard let commit = objects.commits[sha] else { return nil }
        let template = Fixtures.json("git-commit.json")
        let html = "https://github.com/\(repository)/commit/"
        let person = JSONValue.object([JSONMember("date", .string(FakeActivity.time(commit.time))),
                                       JSONMember("name", .string(FakeGitObjects.authorName)),
                                       JSONMember("email", .string(FakeGitObjects.authorEmail))])
        return template.replacing([
            "sha": .string(sha), "node_id": .string("C_" + sha), "url": .string("\(base)/commits/\(sha)"),
            "html_url": .string(html + sha), "author": person, "committer": person, "message": .string(commit.message),
            "tree": .object([JSONMember("url", .string("\(base)/trees/\(commit.tree)")), JSONMember("sha", .string(commit.tree))]),
            "parents": .array(commit.parents.map { parent in
                .object([JSONMember("url", .string("\(base)/commits/\(parent)")), JSONMember("sha", .string(parent)),
                         JSONMember("html_url", .string(html + parent))])
            }),
        ])
    }

    private func createCommit(_ request: ReceivedRequest, _ repository: String, base: String) -> ServerResponse {
        let page = "commits#create-a-commit"
        guard let body = try? JSONParser.parse(request.body), let message = try? body.string("message"),
              let tree = try? body.string("tree") else {
            return Self.invalid("Invalid request.\n\n\"message\" and \"tree\" are required.", page)
        }
        var parents: [String] = []
        if case .array(let values)? = body["parents"] {
            for value in values {
                guard case .string(let parent) = value else { return Self.invalid("parents must be shas", page) }
                parents.append(parent)
            }
        }
        let time = now
        let lagging = lagsWrite(repository, tree, at: .commit)
        return withObjects(repository) { objects -> ServerResponse in
            guard !lagging, objects.trees[tree] != nil else { return Self.invalid("Tree SHA does not exist", page) }
            guard parents.allSatisfy({ objects.commits[$0] != nil }) else { return Self.invalid("Parent SHA does not exist", page) }
            let sha = objects.storeCommit(tree: tree, parents: parents, message: message, time: time)
            return .json(201, JSONWriter.write(Self.commitJSON(sha, objects, repository: repository, base: base) ?? .null),
                         headers: [("Location", "\(base)/commits/\(sha)")])
        }
    }
}

extension FakeGitHub {
    /// The next `count` PATCHes of the branch's ref meet `fault`: by default the ref moves and
    /// the answer is lost (the connection closes); `.dropBeforeProcessing` or
    /// `.holdBeforeProcessing` stop doogit between its commit and its ref update.
    public func dropNextRefUpdate(_ repository: String, branch: String = FakeContents.defaultBranch, count: Int = 1,
                                  with fault: FakeActivity.Fault = .dropAfterProcessing) {
        let encoded = branch.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? branch
        activity.failNext("PATCH", pathSuffix: "/repos/\(repository)/git/refs/heads/\(encoded)", count: count, with: fault)
    }

    /// RFC 3986's unreserved characters and "/": what doogit leaves unencoded in a branch's path.
    private static let pathCharacters = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
}
