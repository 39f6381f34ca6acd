import DoogitMerge

/// The remote's files of todos and repositories, decoded as their blobs arrive while the others
/// are still on their way: a first read of thousands of todos is merged in little more than the
/// time the read took. Blobs are named by their content, so a decoding stands for every file
/// with that sha, at any commit.
struct EarlyDecodings {
    typealias Decoded = (piece: RemotePiece, handEdits: Int, majorVersion: Int)

    /// The stamp that values written by hand take (see `TodoFile.decode`): the merge uses a
    /// decoding only when it stamps them the same.
    let handEdit: HybridTimestamp
    private var bySHA: [String: Result<Decoded, TodoFileError>] = [:]

    init(handEdit: HybridTimestamp) {
        self.handEdit = handEdit
    }

    mutating func arrived(path: String, sha: String, content: [UInt8]) {
        guard bySHA[sha] == nil, path == RemoteLayout.repositoriesPath || RemoteLayout.repository(ofTodosPath: path) != nil
        else { return }
        bySHA[sha] = Result { () throws(TodoFileError) in try RemotePiece.decode(content, handEdit: handEdit) }
    }

    /// The decoding of the blob `sha` with hand edits stamped `handEdit` (nil: not decoded so).
    func decoded(sha: String, handEdit: HybridTimestamp) -> Result<Decoded, TodoFileError>? {
        handEdit == self.handEdit ? bySHA[sha] : nil
    }
}
