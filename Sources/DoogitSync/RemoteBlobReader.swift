import DoogitGitHub
import DoogitStore

/// Reads the remote's files (their blobs) a window at a time within the rate-limit budget, and
/// keeps what a read that stops part-way had read (`ReadProgress`: a first read of a remote of
/// thousands of files can need more than the hour's requests, or meet a secondary limit), so
/// that the next one asks only for the others. Blobs are named by their content, so what was
/// kept stays right whatever the branch did meanwhile.
struct RemoteBlobReader {
    let progress: ReadProgress
    /// How many requests may go now, of those wanted (throws when the budget is at its reserve).
    let room: (Int) throws -> Int

    static let progressName = "remote files"

    /// The contents of the blobs `shas`, by sha; the first failure is thrown once what was read
    /// before it is kept. `arrived` gets each blob as soon as it is here (those kept first), so
    /// that it can be worked on while the others are on their way.
    func read(_ shas: [String], repository: String, github: GitHubClient,
              arrived: (_ sha: String, _ content: [UInt8]) -> Void = { _, _ in }) throws -> [String: [UInt8]] {
        var found = try progress.kept(shas)
        for (sha, content) in found { arrived(sha, content) }
        var rest = Array(Set(shas.filter { found[$0] == nil })).sorted()
        while !rest.isEmpty {
            // At the budget's reserve this throws, the windows before it noted.
            let part = Array(rest.prefix(try room(rest.count)))
            rest.removeFirst(part.count)
            var read: [(item: String, content: [UInt8]?)] = []
            // The failure of the first blob asked that failed, whatever the order answers came in.
            var firstFailure: (index: Int, error: Error)?
            var answered = 0
            github.blobs(repository: repository, shas: part) { index, answer in
                answered += 1
                switch answer {
                case .success(let bytes):
                    found[part[index]] = bytes
                    read.append((part[index], bytes))
                    arrived(part[index], bytes)
                case .failure(let error):
                    if firstFailure.map({ index < $0.index }) ?? true { firstFailure = (index, error) }
                }
            }
            var failure = firstFailure?.error
            if answered < part.count { failure = failure ?? GitHubError.network(.timeout) }
            if let failure {
                try progress.note(read)
                throw failure
            }
            if !rest.isEmpty { try progress.note(read) }
        }
        try progress.finish()
        return found
    }
}
