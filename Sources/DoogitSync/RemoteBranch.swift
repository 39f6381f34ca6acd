import DoogitGitHub
import DoogitMerge
import DoogitSupport

/// Where a remote's files are, as `remote init` and a machine's first exchange find them.
///
/// The files live on one branch: the repository's default branch when the remote was first
/// written, named in `remote.jsonl`. A default branch that moves later changes nothing, so a
/// machine that joins reads the default branch's `remote.jsonl` and follows the branch it names;
/// where the default branch holds no files of doogit's, it looks for the branch whose
/// `remote.jsonl` names itself. Only where there is none does the default branch take the files.
public struct RemoteBranch: Equatable, Sendable {
    public var branch: String
    /// Whether doogit's files are there already (a machine that joins needs no `--shared`).
    public var holdsDoogitFiles: Bool
    /// What else the default branch holds at its root (a folder with "/"), when doogit's files
    /// are not there: what `remote init` names before it writes beside them.
    public var otherFiles: [String]

    /// The names at a remote's root that are doogit's (a folder's with "/").
    static let doogitNames: Set<String> = [RemoteLayout.stubPath, RemoteLayout.metaPath, RemoteLayout.repositoriesPath,
                                           RemoteLayout.todosFolder + "/"]
    /// The README that `remote init --create` has GitHub make.
    static let createdReadme = "README.md"

    /// Finds the branch of `repository` that holds its doogit files. `madeByDoogit`: the
    /// repository was made by `remote init --create` (its README is doogit's).
    public static func find(repository: String, defaultBranch: String, madeByDoogit: Bool, github: GitHubClient)
        throws(GitHubError) -> RemoteBranch
    {
        let root = try rootNames(repository: repository, branch: defaultBranch, github: github)
        if root.contains(RemoteLayout.metaPath) || root.contains(RemoteLayout.stubPath) {
            // Doogit's files, unless they are a copy of those of the branch their remote.jsonl names.
            if let named = try meta(repository: repository, branch: defaultBranch, github: github)?.branch, named != defaultBranch,
               try github.branchRef(repository: repository, branch: named, ifNoneMatch: nil).isHead {
                return RemoteBranch(branch: named, holdsDoogitFiles: true, otherFiles: [])
            }
            return RemoteBranch(branch: defaultBranch, holdsDoogitFiles: true, otherFiles: [])
        }
        if let found = try branchNamingItself(repository: repository, except: defaultBranch, github: github) {
            return RemoteBranch(branch: found, holdsDoogitFiles: true, otherFiles: [])
        }
        let others = root.filter { !doogitNames.contains($0) && !(madeByDoogit && $0 == createdReadme) }
        return RemoteBranch(branch: defaultBranch, holdsDoogitFiles: false, otherFiles: others.sorted())
    }

    /// Whether `remoteFile`, the `remote.jsonl` of `branch` (nil: there is none), names that
    /// branch: doogit's files are there, and the machines that wrote them say it is theirs.
    static func namesItself(_ remoteFile: [UInt8]?, branch: String) -> Bool {
        guard let remoteFile else { return false }
        return (try? RemoteMeta.decode(remoteFile, handEdit: .zero))?.branch == branch
    }

    /// The names at the root of the branch (a folder's with "/" after it); none when the
    /// repository or the branch has no commit.
    private static func rootNames(repository: String, branch: String, github: GitHubClient) throws(GitHubError) -> [String] {
        guard case .head(let commit, _, _) = try github.branchRef(repository: repository, branch: branch, ifNoneMatch: nil) else {
            return []
        }
        return try github.treeEntries(repository: repository, sha: commit).entries.map { $0.isTree ? $0.name + "/" : $0.name }
    }

    private static func meta(repository: String, branch: String, github: GitHubClient) throws(GitHubError) -> RemoteMeta? {
        let read = github.file(repository: repository, path: RemoteLayout.metaPath, onBranches: [branch])
        guard let bytes = try read.first?.get() ?? nil else { return nil }
        return try? RemoteMeta.decode(bytes, handEdit: .zero)
    }

    /// The branch (other than `except`) whose `remote.jsonl` names itself; of several, the one
    /// written most (the highest generation).
    private static func branchNamingItself(repository: String, except: String, github: GitHubClient) throws(GitHubError)
        -> String?
    {
        let branches = try github.branchNames(repository: repository).filter { $0 != except }.prefix(maximumBranches)
        var best: (branch: String, generation: Int64)?
        for (branch, answer) in zip(branches, github.file(repository: repository, path: RemoteLayout.metaPath,
                                                          onBranches: Array(branches))) {
            guard let bytes = try answer.get(), let meta = try? RemoteMeta.decode(bytes, handEdit: .zero),
                  meta.branch == branch else { continue }
            if best.map({ meta.generation > $0.generation }) ?? true { best = (branch, meta.generation) }
        }
        return best?.branch
    }

    /// Branches looked at for doogit's files: a remote's repository has a few.
    static let maximumBranches = 100
}

extension RefRead {
    var isHead: Bool {
        if case .head = self { return true }
        return false
    }
}
