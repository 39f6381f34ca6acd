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
        guard RemoteLayout.isPiece(path) else { return }
        _ = decoding(sha: sha, content: content)
    }

    /// These decodings for a merge that stamps hand edits at `handEdit`: none when they were stamped otherwise.
    func stamping(at handEdit: HybridTimestamp) -> EarlyDecodings {
        handEdit == self.handEdit ? self : EarlyDecodings(handEdit: handEdit)
    }

    /// The decoding of a file's blob: as made when it arrived, or made (and kept) now.
    mutating func decoding(sha: String, content: [UInt8]) -> Result<Decoded, TodoFileError> {
        if let decoded = bySHA[sha] { return decoded }
        let decoded = Result { () throws(TodoFileError) in try RemotePiece.decode(content, handEdit: handEdit) }
        bySHA[sha] = decoded
        return decoded
    }

    /// Whether the blob `sha` is decoded.
    func holds(sha: String) -> Bool { bySHA[sha] != nil }
}
