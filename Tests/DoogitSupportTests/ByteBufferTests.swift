import DoogitSupport
import Testing

@Suite struct ByteBufferTests {
    @Test("pieces of every size, far past the first room, come out whole and in order")
    func growsPastItsRoom() {
        var buffer = ByteBuffer(capacity: 8)
        var expected: [UInt8] = []
        for size in 0..<300 {
            let piece = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) }
            piece.withUnsafeBufferPointer { buffer.append($0) }
            expected += piece
            if size % 7 == 0 {
                buffer.append(0x20, count: size % 5)
                expected += Array(repeating: 0x20, count: size % 5)
            }
        }
        buffer.append("é ok" as String)
        buffer.append("!" as StaticString)
        buffer.append(0x0A)
        expected += Array("é ok!\n".utf8)
        #expect(buffer.count == expected.count)
        #expect(buffer.bytes == expected)
    }

    @Test("drain hands over what was written and starts again")
    func drain() {
        var buffer = ByteBuffer(capacity: 4)
        buffer.append("first piece of text")
        #expect(buffer.drain() == Array("first piece of text".utf8))
        #expect(buffer.count == 0)
        buffer.append("second")
        #expect(buffer.bytes == Array("second".utf8))
    }
}
