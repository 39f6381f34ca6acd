import DoogitSupport

/// What a commit of the fake GitHub puts at a path: a file's content with its mode (a symlink's
/// content is its target), a submodule's commit (of another repository), or nothing.
public enum FakePathChange: Equatable, Sendable {
    case file([UInt8], GitMode)
    case submodule(commit: String)
    case removed

    /// A text file, or nil: removed.
    public static func text(_ text: String?, mode: GitMode = .file) -> FakePathChange {
        text.map { .file(Array($0.utf8), mode) } ?? .removed
    }
}

/// One repository's git objects in the fake GitHub: blobs named by `GitHash.blob`, trees by
/// `GitHash.tree` with each entry's mode (nested: "todos/3/1.jsonl" lives in the tree "todos",
/// in its tree "3"; a file may be executable or a symlink; a submodule names a commit of
/// another repository, which is not here), commits named by the SHA-1 of a commit text as git
/// writes it, and branch refs. A value: the fake keeps one per repository, under its lock.
struct FakeGitObjects {
    struct Entry: Equatable {
        var sha: String
        var mode: GitMode

        var isTree: Bool { mode.isTree }
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
    /// Objects stored since a branch last moved, and those the last move brought: what a
    /// replica that has not caught up yet does not have.
    private(set) var storedSinceMove: Set<String> = []
    /// Where each branch was before its last move: what a replica that lags still answers.
    private(set) var previousRefs: [String: String] = [:]
    private(set) var broughtByLastMove: Set<String> = []

    /// A repository with no commit yet (GitHub answers its Git Data API with 409).
    var isEmpty: Bool { refs.isEmpty }

    /// A repository whose `branch` has one commit of these files.
    static func firstCommit(branch: String, files: [String: [UInt8]], message: String, time: Int64) -> FakeGitObjects {
        var objects = FakeGitObjects()
        var tree: String?
        for (path, content) in files.sorted(by: { $0.key < $1.key }) {
            let blob = objects.storeBlob(content, mode: .file)
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

    mutating func storeBlob(_ content: [UInt8], mode: GitMode) -> Entry {
        let sha = GitHash.blob(content)
        if blobs.updateValue(content, forKey: sha) == nil { storedSinceMove.insert(sha) }
        return Entry(sha: sha, mode: mode)
    }

    mutating func storeTree(_ entries: [String: Entry]) -> String {
        let sha = GitHash.tree(entries.map { ($0.key, $0.value.sha, $0.value.mode) }) ?? ""
        if trees.updateValue(entries, forKey: sha) == nil { storedSinceMove.insert(sha) }
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
            entries[name] = replacing(path.dropFirst(), with: entry, in: subtree).map { Entry(sha: $0, mode: .tree) }
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
        if commits.updateValue(Commit(tree: tree, parents: parents, message: message, time: time), forKey: sha) == nil {
            storedSinceMove.insert(sha)
        }
        return sha
    }

    /// Commits these changes on `branch` (a new branch starts at `start`'s head) and moves it
    /// there; returns the commit and the files whose content changed, as they were before.
    mutating func commit(_ changes: [(path: String, change: FakePathChange)], on branch: String, startingAt start: String,
                         message: String, time: Int64) -> (commit: String, replaced: [String: String]) {
        let head = refs[branch] ?? refs[start]
        var tree = head.flatMap { commits[$0]?.tree }
        for (path, change) in changes {
            guard let names = Self.components(path) else { continue }
            let entry: Entry?
            switch change {
            case .file(let content, let mode): entry = storeBlob(content, mode: mode)
            case .submodule(let commit): entry = Entry(sha: commit, mode: .submodule)
            case .removed: entry = nil
            }
            tree = replacing(names, with: entry, in: tree)
        }
        let commit = storeCommit(tree: tree ?? storeTree([:]), parents: head.map { [$0] } ?? [], message: message, time: time)
        return (commit, moveRef(branch, to: commit))
    }

    /// Moves (or makes) the branch; returns the files whose content changed, as they were before
    /// (path -> blob).
    mutating func moveRef(_ branch: String, to commit: String) -> [String: String] {
        let before = refs[branch].map(files(ofCommit:)) ?? [:]
        if let old = refs[branch], old != commit { previousRefs[branch] = old }
        refs[branch] = commit
        (broughtByLastMove, storedSinceMove) = (storedSinceMove, [])
        let after = files(ofCommit: commit)
        return before.filter { after[$0.key] != $0.value }
    }

    // MARK: Reading

    /// The tree of a commit, or the tree itself.
    func tree(of sha: String) -> String? {
        if let commit = commits[sha] { return commit.tree }
        return trees[sha] == nil ? nil : sha
    }

    /// The entry at `path` in the commit at the head of `branch`, if any.
    func entry(_ path: String, branch: String) -> Entry? {
        guard let head = refs[branch], var tree = commits[head]?.tree, let names = Self.components(path) else { return nil }
        for name in names.dropLast() {
            guard let entry = trees[tree]?[name], entry.isTree else { return nil }
            tree = entry.sha
        }
        return names.last.flatMap { trees[tree]?[$0] }
    }

    /// The blob at `path` in the commit at the head of `branch` (not a submodule: no blob).
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

    /// Every entry of a commit but its folders (files, symlinks, submodules): path -> blob or commit.
    func files(ofCommit commit: String) -> [String: String] {
        entries(ofCommit: commit).mapValues(\.sha)
    }

    /// The same with their modes.
    func entries(ofCommit commit: String) -> [String: Entry] {
        guard let tree = commits[commit]?.tree else { return [:] }
        var found: [String: Entry] = [:]
        walk(tree, prefix: "") { path, entry in if !entry.isTree { found[path] = entry } }
        return found
    }

    /// Visits every entry under `tree`, a folder before what it holds, in git's order.
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
