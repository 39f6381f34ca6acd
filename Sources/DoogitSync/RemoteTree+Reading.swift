import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

extension RemoteTree {
    /// The files read anew by a read of the branch at a commit (nil: gone), and the tree then.
    struct Read {
        var tree: RemoteTree
        var files: [String: [UInt8]?] = [:]
    }

    /// Reads the tree of `commit`: its root with the root's name (from the commit), then only the
    /// folders whose names changed (a level at a time, the folders of a level together; the todos
    /// folder, when nothing of it is known, whole in one listing), then the files doogit reads
    /// whose names changed, together (`blobs`: within the budget, and going on across syncs).
    /// A first read, which knows nothing, lists the root whole in one listing, the todos folder
    /// with it: one round trip fewer before the files, at the cost, for a repository that holds
    /// other files too, of listing those once (GitHub cuts a listing beyond 100,000 entries or
    /// 7 MB short: then a level at a time, as above). Every entry keeps the mode GitHub lists.
    /// `arrived` gets each file read as soon as it is here.
    func read(commit: String, repository: String, github: GitHubClient, blobs: RemoteBlobReader,
              arrived: (_ path: String, _ sha: String, _ content: [UInt8]) -> Void = { _, _, _ in }) throws -> Read {
        var listed: [String: RemoteEntry] = [:]
        var wanted: [(path: String, sha: String)] = []
        var prefetched: [String: GitTreeListing] = [:]
        var root: Result<GitTreeListing, GitHubError>?
        if entries.isEmpty {
            do throws(GitHubError) {
                if let whole = try github.wholeRootTree(repository: repository, commit: commit) {
                    prefetched = Self.listings(of: ("", whole.sha), nested: whole.entries.map { ($0.name, $0) })
                    root = prefetched[""].map { .success($0) }
                }
            } catch {
                root = .failure(error)
            }
        }
        var level: [(folder: String, listing: Result<GitTreeListing, GitHubError>)] = [
            ("", root ?? Result { () throws(GitHubError) in try github.rootTree(repository: repository, commit: commit) }),
        ]
        while !level.isEmpty {
            var next: [(folder: String, sha: String)] = []
            for (folder, answer) in level {
                let listing = try answer.get()
                listed[folder] = RemoteEntry(path: folder, sha: listing.sha, mode: .tree)
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
                            listed[path] = RemoteEntry(path: path, sha: item.sha, mode: .tree)
                        }
                    } else if var known, !known.isFolder, known.sha == item.sha {
                        known.mode = item.mode
                        listed[path] = known
                    } else {
                        listed[path] = RemoteEntry(path: path, sha: item.sha, mode: item.mode)
                        // A symlink's blob is its target, and a submodule has none here: not doogit's files.
                        if Self.isRead(path) && (item.mode == .file || item.mode == .executable) { wanted.append((path, item.sha)) }
                    }
                }
            }
            if entries[RemoteLayout.todosFolder] == nil,
               let todos = next.first(where: { $0.folder == RemoteLayout.todosFolder && prefetched[$0.folder] == nil }) {
                prefetched.merge(Self.listedWhole(todos, repository: repository, github: github)) { first, _ in first }
            }
            let asked = next.filter { prefetched[$0.folder] == nil }
            let answers = Dictionary(zip(asked.map(\.folder), github.treeEntries(repository: repository, shas: asked.map(\.sha))),
                                     uniquingKeysWith: { first, _ in first })
            level = next.compactMap { folder in
                (prefetched[folder.folder].map { .success($0) } ?? answers[folder.folder]).map { (folder.folder, $0) }
            }
        }
        var read = Read(tree: RemoteTree(entries: listed))
        let pathsBySHA = Dictionary(grouping: wanted, by: \.sha)
        let contents = try blobs.read(wanted.map(\.sha), repository: repository, github: github) { sha, content in
            for file in pathsBySHA[sha] ?? [] { arrived(file.path, sha, content) }
        }
        for (path, sha) in wanted {
            guard let bytes = contents[sha] else { throw GitHubError.unexpectedResponse("no answer for the blob \(sha)") }
            read.files[path] = bytes
            read.tree.entries[path]?.content = bytes
        }
        // A file doogit read before that is gone (or is no file any more) is read as gone.
        for (path, entry) in entries where !entry.isFolder && Self.isRead(path) {
            let mode = listed[path]?.mode
            if mode != .file && mode != .executable { read.files[path] = .some(nil) }
        }
        return read
    }

    /// The listings of a folder and of every folder under it, by path, from one recursive listing
    /// (none when GitHub cannot give it whole: the folders are then listed a level at a time).
    private static func listedWhole(_ folder: (folder: String, sha: String), repository: String, github: GitHubClient)
        -> [String: GitTreeListing] {
        guard let nested = try? github.treeEntriesRecursively(repository: repository, sha: folder.sha) else { return [:] }
        return listings(of: folder, nested: nested.map { ($0.key, $0.value) })
    }

    /// The listings of `folder` and of the folders under it that doogit lists, by path, from a
    /// recursive listing of it (its entries named by their paths from it); what lies in other
    /// folders (of a repository that holds other files too) is left out.
    private static func listings(of folder: (folder: String, sha: String), nested: [(path: String, entry: GitTreeEntry)])
        -> [String: GitTreeListing] {
        var listings = [folder.folder: GitTreeListing(sha: folder.sha, entries: [])]
        for (path, entry) in nested where entry.isTree {
            let full = join(folder.folder, path)
            if isListed(full) { listings[full] = GitTreeListing(sha: entry.sha, entries: []) }
        }
        for (path, entry) in nested {
            let full = join(folder.folder, path)
            let parent = full.lastIndex(of: "/").map { String(full[..<$0]) } ?? ""
            var named = entry
            named.name = String(full.split(separator: "/").last ?? "")
            listings[parent]?.entries.append(named)
        }
        return listings
    }

    /// Checks, before the branch moves, that the tree GitHub made for a write (`made`, its root
    /// listed) holds every entry of this tree that the write did not mean to change (the paths of
    /// `written` are changed or removed), and returns the tree as GitHub made it.
    ///
    /// When GitHub's name for the root is the one computed here (`expected`), the tree holds
    /// exactly what was meant: names in hand, no request. Otherwise this machine's knowledge was
    /// off (a mode, an entry it did not know): the folders the write changed are listed, level by
    /// level, and compared entry by entry; the tree returned then has no folders, so that the
    /// next exchange lists the remote again before it writes.
    func verified(made: GitTreeListing, expected: (tree: RemoteTree, root: String?), written: Set<String>,
                  repository: String, github: GitHubClient) throws -> RemoteTree {
        if made.sha == expected.root { return expected.tree }
        let touched = Set(written.flatMap(Self.folders(above:)))
        var dropped: [String] = []
        var level: [(folder: String, listing: Result<GitTreeListing, GitHubError>)] = [("", .success(made))]
        while !level.isEmpty {
            var next: [(folder: String, sha: String)] = []
            for (folder, answer) in level {
                let listing = try answer.get()
                let found = Dictionary(listing.entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                for child in expected.tree.entries.values where child.parent == folder && !child.path.isEmpty {
                    guard let entry = found[String(child.name)], entry.isTree == child.isFolder else {
                        dropped.append(child.path)
                        continue
                    }
                    if child.isFolder && touched.contains(child.path) {
                        next.append((child.path, entry.sha))
                    } else if !child.isFolder && written.contains(child.path) {
                        if entry.sha != child.sha { dropped.append(child.path) }
                    } else if entry.sha != entries[child.path]?.sha || entry.mode != entries[child.path]?.mode {
                        // Not meant to change, yet not as it was: not what this write meant to make.
                        dropped.append(child.path)
                    }
                }
            }
            let listings = github.treeEntries(repository: repository, shas: next.map(\.sha))
            level = zip(next, listings).map { ($0.folder, $1) }
        }
        guard dropped.isEmpty else { throw RemoteFailure.wouldDropFiles(repository: repository, paths: dropped.sorted()) }
        return expected.tree.withoutFolders
    }
}
