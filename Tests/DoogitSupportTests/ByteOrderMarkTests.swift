import DoogitSupport
import Testing

/// A byte-order mark at the start of a file is not part of its first line; a file with UTF-16's
/// is read as UTF-16.
@Suite struct ByteOrderMarkTests {
    @Test func utf8sMarkIsDroppedOnlyAtTheStart() {
        #expect(ByteOrderMark.utf8([0xEF, 0xBB, 0xBF, 0x61]) == [0x61])
        #expect(ByteOrderMark.utf8([0x61, 0xEF, 0xBB, 0xBF]) == [0x61, 0xEF, 0xBB, 0xBF])
        #expect(ByteOrderMark.utf8([]) == [] && ByteOrderMark.utf8([0xEF, 0xBB]) == [0xEF, 0xBB])
    }

    @Test func utf16WithItsMarkIsReadAsUTF16() {
        #expect(ByteOrderMark.utf8([0xFF, 0xFE, 0x61, 0x00, 0xE9, 0x00]) == Array("aé".utf8))
        #expect(ByteOrderMark.utf8([0xFE, 0xFF, 0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00]) == Array("a😀".utf8), "a surrogate pair")
        #expect(ByteOrderMark.utf8([0xFF, 0xFE, 0x61]) == Array("\u{FFFD}".utf8), "half a character")
        #expect(ByteOrderMark.utf8([0xFF, 0xFE, 0x00, 0xD8, 0x61, 0x00]) == Array("\u{FFFD}a".utf8), "a lone surrogate")
    }
}
