/// Bytes appended in many small pieces, as a list's output is (a `--json` list of 10,000 todos
/// is some 300,000 of them). Pieces are copied into spare room kept at the end of one array, so
/// each costs a bounds check and a copy rather than `Array.append(contentsOf:)`'s bookkeeping.
public struct ByteBuffer {
    /// `count` bytes written, then spare room (zeros).
    private var storage: [UInt8]
    public private(set) var count = 0

    public init(capacity: Int = 4096) {
        storage = [UInt8](repeating: 0, count: max(64, capacity))
    }

    /// The bytes written.
    public var bytes: [UInt8] { Array(storage[..<count]) }

    private mutating func reserve(_ more: Int) {
        let needed = count + more
        guard needed > storage.count else { return }
        storage.append(contentsOf: repeatElement(0, count: max(needed, storage.count * 2) - storage.count))
    }

    public mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    public mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let source = piece.baseAddress, !piece.isEmpty else { return }
        reserve(piece.count)
        let offset = count
        storage.withUnsafeMutableBufferPointer { room in
            room.baseAddress.map { ($0 + offset).update(from: source, count: piece.count) }
        }
        count += piece.count
    }

    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// `count` copies of `byte`.
    public mutating func append(_ byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        for index in count..<count + repeats { storage[index] = byte }
        count += repeats
    }

    /// Hands over the bytes written so far and starts again, keeping the room.
    public mutating func drain() -> [UInt8] {
        defer { count = 0 }
        return bytes
    }
}
