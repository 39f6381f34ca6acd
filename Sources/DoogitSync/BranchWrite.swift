import DoogitGitHub
import DoogitMerge
import DoogitStore

/// One commit of doogit's files on a branch, as a compare-and-swap: the remote's, and each shared
/// repository's. A tree made on the tree of the commit read (none for a branch not there yet),
/// checked to keep every file the write did not mean to change; a commit on the commit read; and
/// the branch moved to it without force (GitHub refuses a move that is not a fast forward, a lost
/// race), or made with it.
struct BranchWrite {
    let repository: String
    let branch: String
    /// The branch's commit as read (nil: there is no branch yet) and its tree.
    let head: String?
    let known: RemoteTree
    /// The files to write (nil: removed), and what each holds of removals waiting to leave.
    let files: [String: [UInt8]?]
    let pieces: [String: RemotePiece?]

    /// Step 1: the tree. GitHub's refusals (a token that may not write is answered 404) are the
    /// caller's to tell.
    func makeTree(_ github: GitHubClient) throws(GitHubError) -> GitTreeListing {
        // Never a tree without its base while the branch has a commit: it would hold only these files.
        guard head == nil || known.rootSHA != nil else { throw .unexpectedResponse("the tree of the branch's commit is not known") }
        return try github.createTree(
            repository: repository, base: head == nil ? nil : known.rootSHA,
            files: files.sorted { $0.key < $1.key }.map { GitTreeWrite(path: $0.key, content: $0.value, mode: known.mode(forWriting: $0.key)) })
    }

    /// Step 2: the tree checked, the commit made, the branch moved (or made). Returns the branch's
    /// tree and commit after the write; nil when another writer moved the branch first.
    func finish(_ made: GitTreeListing, message: String, _ session: SyncSession) throws -> (tree: RemoteTree, commit: String)? {
        let github = session.github
        let expected = known.writing(files.reduce(into: [:]) { result, file in
            let removals = (pieces[file.key] ?? nil)?.removals
            // `.some`: a file removed is written as nil, which a plain assignment would drop.
            result[file.key] = .some(file.value.map {
                ($0, removals.map { RemoteRemovals(firstSince: $0.first, lastSince: $0.last, oldest: $0.oldest) })
            })
        })
        let after = try RemotePhase.afterLag(of: repository, session) {
            try known.verified(made: made, expected: expected, written: Set(files.keys), repository: repository, github: github)
        }
        let commit = try RemotePhase.afterLag(of: repository, session) {
            try github.createCommit(repository: repository, message: message, tree: made.sha, parents: head.map { [$0] } ?? [])
        }
        do {
            try RemotePhase.afterLag(of: repository, session) {
                if head == nil {
                    try github.createBranch(repository: repository, branch: branch, commit: commit)
                } else {
                    try github.updateRef(repository: repository, branch: branch, commit: commit)
                }
            }
        } catch let error as GitHubError where GitHubClient.isNotFastForward(error) {
            return nil
        }
        return (after, commit)
    }
}
