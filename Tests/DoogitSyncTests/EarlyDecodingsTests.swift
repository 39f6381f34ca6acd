import DoogitMerge
import DoogitSupport
@testable import DoogitSync
import Testing

/// The remote's files decoded as their blobs arrive: the same decoding the merge makes, used only
/// when it stamps hand edits the same, for the files the merge reads as pieces.
@Suite struct EarlyDecodingsTests {
    static let stampA = "2023-11-14T22:13:20.000Z/0000/aaaaaaaaaaaa"
    /// A todo whose text was edited by hand on GitHub: its clock has no stamp for it.
    static let handEdited = Array("""
        {"format":"doogit","version":"4.0"}
        {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":1296269,"text":"edited on GitHub","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","clock":{"repository":"\(stampA)","done":"\(stampA)"}}

        """.utf8)
    static let readAt = HybridTimestamp(wall: 1_800_000_000_000, counter: 0, machine: "bbbbbbbbbbbb")

    @Test func aFileOfTodosIsDecodedOnceAsTheMergeDecodesIt() throws {
        var early = EarlyDecodings(handEdit: Self.readAt)
        let sha = GitHash.blob(Self.handEdited)
        early.arrived(path: RemoteLayout.todosPath(1_296_269), sha: sha, content: Self.handEdited)
        #expect(early.holds(sha: sha))
        // Asked again (with other bytes, which a sha cannot name): the decoding made as it arrived.
        let decoded = try early.decoding(sha: sha, content: []).get()
        let direct = try RemotePiece.decode(Self.handEdited, handEdit: Self.readAt)
        #expect(decoded.piece == direct.piece && decoded.handEdits == direct.handEdits && decoded.majorVersion == direct.majorVersion)
        #expect(decoded.handEdits == 1)
        #expect(decoded.piece.replica.todos["9f1c2d3e-0000-4000-8000-000000000001"]?.text.stamp == Self.readAt,
                "a hand edit takes GitHub's time of the read")
        let otherTime = HybridTimestamp(wall: Self.readAt.wall + 1000, counter: 0, machine: Self.readAt.machine)
        #expect(early.stamping(at: Self.readAt).holds(sha: sha))
        #expect(!early.stamping(at: otherTime).holds(sha: sha), "a merge that stamps otherwise decodes again")
    }

    @Test func onlyTheFilesTheMergeReadsAsPiecesAreDecoded() throws {
        var early = EarlyDecodings(handEdit: Self.readAt)
        let repositories = Array("{\"format\":\"doogit\",\"version\":\"4.0\"}\n".utf8)
        early.arrived(path: RemoteLayout.repositoriesPath, sha: "r", content: repositories)
        early.arrived(path: RemoteLayout.metaPath, sha: "m", content: repositories)
        early.arrived(path: "notes/readme.md", sha: "n", content: Array("# notes\n".utf8))
        #expect(early.holds(sha: "r"))
        #expect(!early.holds(sha: "m") && !early.holds(sha: "n"), "the meta file and files not doogit's are not pieces")
    }

    @Test func anUnreadableFileKeepsItsErrorForTheMergeToReport() throws {
        var early = EarlyDecodings(handEdit: Self.readAt)
        early.arrived(path: RemoteLayout.todosPath(7), sha: "x", content: Array("not json\n".utf8))
        #expect(early.holds(sha: "x"))
        #expect(throws: TodoFileError.self) { try early.decoding(sha: "x", content: []).get() }
    }
}
