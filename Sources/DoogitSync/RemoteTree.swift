import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// The remote's folders and files as this machine knows them, by git's names for them: what a
/// read compares with to ask only for what changed, and what a write updates without asking, by
/// naming the folders it changed as git does (the root's name is then checked against GitHub's).
///
/// Doogit lists the root, `todos` and its buckets, and reads `todos.jsonl`, `remote.jsonl`,
/// `repositories.jsonl` and the todos files; anything else there (a README) is kept by name only.
struct RemoteTree {
    var entries: [String: RemoteEntry]

    static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

    /// Whether doogit reads the file.
    static func isRead(_ path: String) -> Bool {
        path == RemoteLayout.stubPath || path == RemoteLayout.metaPath || path == RemoteLayout.repositoriesPath
            || RemoteLayout.repository(ofTodosPath: path) != nil
    }

    /// Whether doogit lists the folder.
    static func isListed(_ folder: String) -> Bool {
        let parts = folder.split(separator: "/", omittingEmptySubsequences: false)
        return folder.isEmpty || (parts.first == Substring(RemoteLayout.todosFolder) && parts.count <= 2)
    }

    var rootSHA: String? { entries[""]?.sha }

    /// The repositories whose todos files exist.
    var todoFiles: Set<Int64> { Set(entries.keys.compactMap(RemoteLayout.repository(ofTodosPath:))) }

    /// The files read anew by a read of the branch at `commit` (nil: gone), and the tree then.
    struct Read {
        var tree: RemoteTree
        var files: [String: [UInt8]?] = [:]
    }

    /// Reads the tree at `commit`, listing only the folders whose names changed (a level at a
    /// time, the folders of a level together), then the files doogit reads whose names changed,
    /// together.
    func read(commit: String, repository: String, github: GitHubClient) throws -> Read {
        var listed: [String: RemoteEntry] = [:]
        var wanted: [(path: String, sha: String)] = []
        var level: [(folder: String, sha: String)] = [("", commit)]
        while !level.isEmpty {
            let listings = level.count == 1
                ? [Result { () throws(GitHubError) in try github.treeEntries(repository: repository, sha: level[0].sha) }]
                : github.treeEntries(repository: repository, shas: level.map(\.sha))
            var next: [(folder: String, sha: String)] = []
            for (index, answer) in listings.enumerated() {
                let listing = try answer.get()
                let folder = level[index].folder
                listed[folder] = RemoteEntry(path: folder, sha: folder.isEmpty ? listing.sha : level[index].sha, isFolder: true)
                for item in listing.entries {
                    let path = Self.join(folder, item.name)
                    let known = entries[path]
                    if item.isTree {
                        if let known, known.isFolder, known.sha == item.sha {
                            // Unchanged: what is known under it stands.
                            for (inner, entry) in entries where inner == path || inner.hasPrefix(path + "/") { listed[inner] = entry }
                        } else if Self.isListed(path) {
                            next.append((path, item.sha))
                        } else {
                            listed[path] = RemoteEntry(path: path, sha: item.sha, isFolder: true)
                        }
                    } else if let known, !known.isFolder, known.sha == item.sha {
                        listed[path] = known
                    } else {
                        listed[path] = RemoteEntry(path: path, sha: item.sha, isFolder: false)
                        if Self.isRead(path) { wanted.append((path, item.sha)) }
                    }
                }
            }
            level = next
        }
        var read = Read(tree: RemoteTree(entries: listed))
        for (index, answer) in github.blobs(repository: repository, shas: wanted.map(\.sha)).enumerated() {
            let bytes = try answer.get()
            read.files[wanted[index].path] = bytes
            read.tree.entries[wanted[index].path]?.content = bytes
        }
        for (path, entry) in entries where !entry.isFolder && Self.isRead(path) && listed[path] == nil {
            read.files[path] = .some(nil)
        }
        return read
    }

    /// What changed from `stored` (as this machine recorded the remote) to this tree.
    func changes(from stored: [String: RemoteEntry]) -> (set: [RemoteEntry], removed: Set<String>) {
        (entries.values.filter { stored[$0.path] != $0 }, Set(stored.keys).subtracting(entries.keys))
    }

    /// The tree after writing `files` (nil: removed), each with what it holds of removals, and
    /// its root's name (nil when a folder it changes was never listed here, so its name cannot
    /// be known).
    func writing(_ files: [String: (content: [UInt8], removals: RemoteRemovals?)?]) -> (tree: RemoteTree, root: String?) {
        var next = entries
        var folders: Set<String> = [""]
        for (path, file) in files {
            if let file {
                next[path] = RemoteEntry(path: path, sha: GitHash.blob(file.content), isFolder: false, content: file.content,
                                         removals: file.removals)
            } else {
                next[path] = nil
            }
            var folder = RemoteEntry(path: path, sha: "", isFolder: false).parent
            while let current = folder, !current.isEmpty {
                folders.insert(current)
                folder = RemoteEntry(path: current, sha: "", isFolder: true).parent
            }
        }
        var known = true
        // Deepest first: a folder's name is made of its children's.
        for folder in folders.sorted(by: { $0.split(separator: "/").count > $1.split(separator: "/").count }) {
            if let entry = entries[folder], !Self.isListed(folder) || entry.sha.isEmpty { known = false }
            let children = next.values.filter { $0.parent == folder && $0.path != folder }
            if children.isEmpty && !folder.isEmpty {
                next[folder] = nil
                continue
            }
            let name = { (entry: RemoteEntry) in String(entry.path.split(separator: "/").last ?? "") }
            guard let sha = GitHash.tree(children.map { (name: name($0), sha: $0.sha, isTree: $0.isFolder) }) else {
                known = false
                continue
            }
            next[folder] = RemoteEntry(path: folder, sha: sha, isFolder: true)
        }
        return (RemoteTree(entries: next), known ? next[""]?.sha : nil)
    }
}
