/// Bytes appended in many small pieces, as a list's output is (a `--json` list of 10,000 todos
/// is some 300,000 of them). Pieces are copied into spare room kept at the end of memory the
/// buffer owns alone, so each costs a capacity check and a copy: no uniqueness check of an array
/// and no bookkeeping of `Array.append(contentsOf:)`. Noncopyable, since it owns that memory.
/// The appends are inlinable: a call per piece would cost more than the piece's copy.
public struct ByteBuffer: ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// The bytes written so far.
    public var count: Int { written }
    @usableFromInline var written = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The bytes written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    @inlinable mutating func reserve(_ more: Int) {
        if written + more > capacity { grow(to: written + more) }
    }

    @usableFromInline mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let room = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        room.initialize(from: start, count: count)
        start.deallocate()
        (start, capacity) = (room, larger)
    }

    @inlinable public mutating func append(_ byte: UInt8) {
        reserve(1)
        start[written] = byte
        written += 1
    }

    @inlinable public mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let source = piece.baseAddress, !piece.isEmpty else { return }
        reserve(piece.count)
        (start + written).initialize(from: source, count: piece.count)
        written += piece.count
    }

    @inlinable public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    @inlinable public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// `count` copies of `byte`.
    public mutating func append(_ byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (start + written).initialize(repeating: byte, count: repeats)
        written += repeats
    }

    /// Hands over the bytes written so far and starts again, keeping the room.
    public mutating func drain() -> [UInt8] {
        defer { written = 0 }
        return bytes
    }
}
