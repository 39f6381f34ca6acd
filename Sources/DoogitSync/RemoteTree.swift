import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// The remote's folders and files as this machine knows them, by git's names for them and with
/// the modes GitHub lists (an executable, a symlink and a submodule are named otherwise than a
/// file): what a read compares with to ask only for what changed, and what a write updates
/// without asking, by naming the folders it changed as git does.
///
/// Doogit lists the root, `todos` and its buckets, and reads `todos.jsonl`, `remote.jsonl`,
/// `repositories.jsonl` and the todos files; anything else there (a README, a script, a folder
/// of notes, a submodule) is kept by name and mode only. The root's entry is the tree of the
/// branch's commit as GitHub names it: the `base_tree` of the next write (nil: not known, and
/// the next exchange lists the remote again before it writes).
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

    /// What this machine knows of the tree, once a write showed that GitHub names it otherwise:
    /// the files, without the folders, which the next exchange lists again before it writes.
    var withoutFolders: RemoteTree { RemoteTree(entries: entries.filter { !$0.value.isFolder }) }

    /// What changed from `stored` (as this machine recorded the remote) to this tree.
    func changes(from stored: [String: RemoteEntry]) -> (set: [RemoteEntry], removed: Set<String>) {
        (entries.values.filter { stored[$0.path] != $0 }, Set(stored.keys).subtracting(entries.keys))
    }

    /// The mode to write a file of doogit's with: a file that is there keeps its own (an
    /// executable stays one); anything else (new, or a symlink or submodule in its place) is
    /// written as a plain file.
    func mode(forWriting path: String) -> GitMode {
        guard let mode = entries[path]?.mode, mode == .executable else { return .file }
        return mode
    }

    /// The tree after writing `files` (nil: removed), each with what it holds of removals, and
    /// its root's name as git computes it (nil when a folder it changes was never listed here,
    /// so its name cannot be known).
    func writing(_ files: [String: (content: [UInt8], removals: RemoteRemovals?)?]) -> (tree: RemoteTree, root: String?) {
        var next = entries
        var folders: Set<String> = [""]
        for (path, file) in files {
            if let file {
                next[path] = RemoteEntry(path: path, sha: GitHash.blob(file.content), mode: mode(forWriting: path),
                                         content: file.content, removals: file.removals)
            } else {
                next[path] = nil
            }
            folders.formUnion(Self.folders(above: path))
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
            guard let sha = GitHash.tree(children.map { (name: String($0.name), sha: $0.sha, mode: $0.mode) }) else {
                known = false
                continue
            }
            next[folder] = RemoteEntry(path: folder, sha: sha, mode: .tree)
        }
        return (RemoteTree(entries: next), known ? next[""]?.sha : nil)
    }

    /// The folders that hold `path`, the root ("") included.
    static func folders(above path: String) -> [String] {
        var folders = [""]
        var end = path.startIndex
        while let slash = path[end...].firstIndex(of: "/") {
            folders.append(String(path[..<slash]))
            end = path.index(after: slash)
        }
        return folders
    }
}
