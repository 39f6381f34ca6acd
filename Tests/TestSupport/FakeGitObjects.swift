import DoogitSupport

/// One repository's git objects in the fake GitHub: blobs named by `GitHash.blob`, trees by
/// `GitHash.tree` (nested: "todos/3/1.jsonl" lives in the tree "todos", in its tree "3"),
/// commits named by the SHA-1 of a commit text as git writes it, and branch refs. A value: the
/// fake keeps one per repository, under its lock.
struct FakeGitObjects {
    struct Entry: Equatable {
        var sha: String
        var isTree: Bool
    }

    struct Commit: Equatable {
        var tree: String
        var parents: [String]
        var message: String
        /// Author and committer time, in seconds.
        var time: Int64
    }

    static let authorName = "Monalisa Octocat"
    static let authorEmail = "octocat@github.com"

    var blobs: [String: [UInt8]] = [:]
    var trees: [String: [String: Entry]] = [:]
    var commits: [String: Commit] = [:]
    /// Branch name -> commit.
    var refs: [String: String] = [:]

    /// A repository with no commit yet (GitHub answers its Git Data API with 409).
    var isEmpty: Bool { refs.isEmpty }

    /// A repository whose `branch` has one commit of these files.
    static func firstCommit(branch: String, files: [String: [UInt8]], message: String, time: Int64) -> FakeGitObjects {
        var objects = FakeGitObjects()
        var tree: String?
        for (path, content) in files.sorted(by: { $0.key < $1.key }) {
            let blob = objects.storeBlob(content)
            tree = objects.replacing(Self.components(path) ?? [], with: blob, in: tree)
        }
        let commit = objects.storeCommit(tree: tree ?? objects.storeTree([:]), parents: [], message: message, time: time)
        objects.refs[branch] = commit
        return objects
    }

    /// A path's names, or nil for a path git cannot hold (an empty name, ".", "..", NUL).
    static func components(_ path: String) -> [String]? {
        let names = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.utf8.contains(0) }) else {
            return nil
        }
        return names
    }

    // MARK: Storing

    mutating func storeBlob(_ content: [UInt8]) -> Entry {
        let sha = GitHash.blob(content)
        blobs[sha] = content
        return Entry(sha: sha, isTree: false)
    }

    mutating func storeTree(_ entries: [String: Entry]) -> String {
        let sha = GitHash.tree(entries.map { ($0.key, $0.value.sha, $0.value.isTree) }) ?? ""
        trees[sha] = entries
        return sha
    }

    /// The tree `base` (nil: none) with `entry` at `path` (nil: nothing there), its subtrees made
    /// or replaced; nil when the tree comes out empty (git keeps no empty subtree).
    mutating func replacing(_ path: [String], with entry: Entry?, in base: String?) -> String? {
        replacing(path[...], with: entry, in: base)
    }

    private mutating func replacing(_ path: ArraySlice<String>, with entry: Entry?, in base: String?) -> String? {
        var entries = base.flatMap { trees[$0] } ?? [:]
        guard let name = path.first else { return base }
        if path.count == 1 {
            entries[name] = entry
        } else {
            let subtree = entries[name].flatMap { $0.isTree ? $0.sha : nil }
            // Removing under a name that is no tree removes nothing.
            if entry == nil && subtree == nil { return base }
            entries[name] = replacing(path.dropFirst(), with: entry, in: subtree).map { Entry(sha: $0, isTree: true) }
        }
        return entries.isEmpty ? nil : storeTree(entries)
    }

    /// Stores a commit; its name is the SHA-1 of the text git would write for it.
    mutating func storeCommit(tree: String, parents: [String], message: String, time: Int64) -> String {
        var text = "tree \(tree)\n"
        for parent in parents { text += "parent \(parent)\n" }
        let person = "\(Self.authorName) <\(Self.authorEmail)> \(time) +0000"
        text += "author \(person)\ncommitter \(person)\n\n\(message)"
        let body = Array(text.utf8)
        let sha = GitHash.sha1(Array("commit \(body.count)\0".utf8) + body)
        commits[sha] = Commit(tree: tree, parents: parents, message: message, time: time)
        return sha
    }

    /// Commits these changes (path -> content, nil removes) on `branch` (a new branch starts at
    /// `start`'s head) and moves it there; returns the commit and the files whose content changed,
    /// as they were before.
    mutating func commit(_ changes: [(path: String, content: [UInt8]?)], on branch: String, startingAt start: String,
                         message: String, time: Int64) -> (commit: String, replaced: [String: String]) {
        let head = refs[branch] ?? refs[start]
        var tree = head.flatMap { commits[$0]?.tree }
        for change in changes {
            guard let path = Self.components(change.path) else { continue }
            var blob: Entry?
            if let content = change.content { blob = storeBlob(content) }
            tree = replacing(path, with: blob, in: tree)
        }
        let commit = storeCommit(tree: tree ?? storeTree([:]), parents: head.map { [$0] } ?? [], message: message, time: time)
        return (commit, moveRef(branch, to: commit))
    }

    /// Moves (or makes) the branch; returns the files whose content changed, as they were before
    /// (path -> blob).
    mutating func moveRef(_ branch: String, to commit: String) -> [String: String] {
        let before = refs[branch].map(files(ofCommit:)) ?? [:]
        refs[branch] = commit
        let after = files(ofCommit: commit)
        return before.filter { after[$0.key] != $0.value }
    }

    // MARK: Reading

    /// The tree of a commit, or the tree itself.
    func tree(of sha: String) -> String? {
        if let commit = commits[sha] { return commit.tree }
        return trees[sha] == nil ? nil : sha
    }

    /// The blob at `path` in the commit at the head of `branch`.
    func file(_ path: String, branch: String) -> (sha: String, content: [UInt8])? {
        guard let head = refs[branch], var tree = commits[head]?.tree, let names = Self.components(path) else { return nil }
        for name in names.dropLast() {
            guard let entry = trees[tree]?[name], entry.isTree else { return nil }
            tree = entry.sha
        }
        guard let last = names.last, let entry = trees[tree]?[last], !entry.isTree, let content = blobs[entry.sha] else {
            return nil
        }
        return (entry.sha, content)
    }

    /// Every file of a commit: path -> blob.
    func files(ofCommit commit: String) -> [String: String] {
        guard let tree = commits[commit]?.tree else { return [:] }
        var found: [String: String] = [:]
        walk(tree, prefix: "") { path, entry in if !entry.isTree { found[path] = entry.sha } }
        return found
    }

    /// Visits every entry under `tree`, a tree before what it holds, in git's order.
    func walk(_ tree: String, prefix: String, _ visit: (String, Entry) -> Void) {
        for (name, entry) in sortedEntries(tree) {
            visit(prefix + name, entry)
            if entry.isTree { walk(entry.sha, prefix: prefix + name + "/", visit) }
        }
    }

    /// A tree's entries in git's order (a tree's name compares as if it ended in "/").
    func sortedEntries(_ tree: String) -> [(name: String, entry: Entry)] {
        (trees[tree] ?? [:]).map { ($0.key, $0.value) }.sorted {
            Array(($0.entry.isTree ? $0.name + "/" : $0.name).utf8)
                .lexicographicallyPrecedes(Array(($1.entry.isTree ? $1.name + "/" : $1.name).utf8))
        }
    }

    /// Whether `ancestor` is `commit` or one of its ancestors.
    func isAncestor(_ ancestor: String, of commit: String) -> Bool {
        var seen: Set<String> = []
        var queue = [commit]
        while let next = queue.popLast() {
            if next == ancestor { return true }
            guard seen.insert(next).inserted, let found = commits[next] else { continue }
            queue += found.parents
        }
        return false
    }

    /// How many commits the branch's history holds.
    func commitCount(branch: String) -> Int {
        guard let head = refs[branch] else { return 0 }
        var seen: Set<String> = []
        var queue = [head]
        while let next = queue.popLast() {
            guard seen.insert(next).inserted, let found = commits[next] else { continue }
            queue += found.parents
        }
        return seen.count
    }
}
