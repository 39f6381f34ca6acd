import DoogitSupport
import TestSupport
import Testing

/// SHA-1 against FIPS 180's test vectors, and git's names of blobs and trees against names that
/// `git hash-object` and `git mktree` gave.
@Suite("GitHash")
struct GitHashTests {
    @Test("SHA-1 test vectors", arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func vectors(text: String, expected: String) {
        #expect(GitHash.sha1(Array(text.utf8)) == expected)
    }

    @Test("SHA-1 of a million a")
    func millionA() {
        #expect(GitHash.sha1([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test("SHA-1 across the padding's edges: 55, 56, 63, 64 and 65 bytes")
    func paddingEdges() {
        // From `head -c N /dev/zero | tr '\0' a | sha1sum`.
        let expected = [
            55: "c1c8bbdc22796e28c0e15163d20899b65621d65a", 56: "c2db330f6083854c99d4b5bfb6e8f29f201be699",
            63: "03f09f5b158a7a8cdad920bddc29b81c18a551f5", 64: "0098ba824b5c16427bd7a1122a5a442a25ec644d",
            65: "11655326c708d70319be2610e8a57d9a5b959d3b",
        ]
        for (count, sha) in expected {
            #expect(GitHash.sha1([UInt8](repeating: UInt8(ascii: "a"), count: count)) == sha, "\(count) bytes")
        }
    }

    @Test("blobs as git names them")
    func blobs() {
        #expect(GitHash.blob([]) == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
        #expect(GitHash.blob(Array("hello\n".utf8)) == "ce013625030ba8dba906f756967f9e9ca394464a")
    }

    @Test("trees as git names them")
    func trees() {
        #expect(GitHash.tree([]) == "4b825dc642cb6eb9a060e54bf8d69288fbee4904")
        // printf '100644 blob ce01…\thello.txt\n' | git mktree
        #expect(GitHash.tree([("hello.txt", "ce013625030ba8dba906f756967f9e9ca394464a", .file)])
            == "aaa96ced2d9a1c8e72c56b253a0e2fe78393feb7")
        #expect(GitHash.tree([("hello.txt", "CE013625030BA8DBA906F756967F9E9CA394464A", .file)])
            == "aaa96ced2d9a1c8e72c56b253a0e2fe78393feb7", "upper-case hex names the same bytes")
    }

    @Test("a tree's name sorts as if it ended in a slash")
    func subtreeSortsWithSlash() {
        // git mktree of a-b (empty blob), a.txt (hello\n) and the tree a (holding x: "x"); git
        // lists them a-b, a.txt, a: "a/" sorts after "a.txt", where "a" would sort first.
        let entries: [(name: String, sha: String, mode: GitMode)] = [
            ("a", "f115c6d5cfb15ca1a72429900dcaca0fd1057951", .tree),
            ("a.txt", "ce013625030ba8dba906f756967f9e9ca394464a", .file),
            ("a-b", "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", .file),
        ]
        #expect(GitHash.tree(entries) == "645e884b98a31ede8ab01f8c40a84db219c3fd23")
        #expect(GitHash.tree(entries.reversed()) == "645e884b98a31ede8ab01f8c40a84db219c3fd23", "in any order given")
        #expect(GitHash.tree([("x", GitHash.blob(Array("x".utf8)), .file)]) == "f115c6d5cfb15ca1a72429900dcaca0fd1057951")
    }

    @Test("a malformed sha or name gives no name", arguments: [
        ("a", "ce01"), ("a", "ce013625030ba8dba906f756967f9e9ca394464g"), ("a", "ce013625030ba8dba906f756967f9e9ca394464a0"),
        ("", "ce013625030ba8dba906f756967f9e9ca394464a"), ("a/b", "ce013625030ba8dba906f756967f9e9ca394464a"),
        ("..", "ce013625030ba8dba906f756967f9e9ca394464a"),
    ])
    func malformed(name: String, sha: String) {
        #expect(GitHash.tree([(name, sha, .file)]) == nil)
    }

    @Test("a tree's name depends on its entries' modes, as GitHub lists them")
    func modes() throws {
        // A real listing with two executables: git mktree of its entries as listed gives its sha;
        // with every file taken as 100644, another name.
        let listing = Fixtures.json("git-tree-with-modes.json")
        guard case .array(let items)? = listing["tree"] else { Issue.record("no tree"); return }
        let entries = try items.map { item in
            (name: try item.string("path"), sha: try item.string("sha"), mode: try #require(GitMode(try item.string("mode"))))
        }
        #expect(entries.contains { $0.mode == .executable })
        #expect(GitHash.tree(entries) == (try listing.string("sha")))
        #expect(GitHash.tree(entries) == "6f7c2d8c66d78863f7b91792deaead619799a1ce")
        let allPlain = entries.map { (name: $0.name, sha: $0.sha, mode: $0.mode.isTree ? GitMode.tree : .file) }
        #expect(GitHash.tree(allPlain) == "96ff5d5e0216696dc223b07b479074610b6cabb8")
    }

    @Test("symlinks and submodules are named with their modes, a submodule sorted as a file")
    func symlinksAndSubmodules() {
        let blob = GitHash.blob(Array("target".utf8))
        #expect(blob == "1de565933b05f74c75ff9a6520af5f9f8a5a2f1d")
        // printf '120000 blob <blob>\tlink\n' | git mktree
        #expect(GitHash.tree([("link", blob, .symlink)]) == "f54827e757d92a4e529f1c73c65f2a9e9a1040b8")
        // git mktree --missing of a submodule "a", and files "a-b" and "a.txt": git lists the
        // submodule first ("a" sorts as a file's name would; a folder "a" would sort last).
        let commit = String(repeating: "3f", count: 20)
        #expect(GitHash.tree([("a.txt", blob, .file), ("a", commit, .submodule), ("a-b", blob, .file)])
            == "12a11b8c43ad6162b45d59bb3ab7cf700c7455fb")
    }

    @Test("modes are read as GitHub lists them, and as git writes them", arguments: [
        ("100644", "100644"), ("040000", "040000"), ("40000", "040000"), ("160000", "160000"), ("100664", "100664"),
    ])
    func modeText(given: String, kept: String) {
        #expect(GitMode(given)?.text == kept)
    }

    @Test("a mode that is not octal is refused", arguments: ["", "1006444", "10064a", "-10064", "100 44"])
    func badModes(text: String) {
        #expect(GitMode(text) == nil)
    }
}
