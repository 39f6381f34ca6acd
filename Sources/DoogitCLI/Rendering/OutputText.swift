import DoogitSupport

/// Output text built as UTF-8 bytes. A list of 10,000 todos is made of some 100,000 small
/// pieces, and appending one to a byte buffer costs a fraction of appending it to a String.
struct OutputText: ~Copyable {
    private var buffer: ByteBuffer

    /// `capacity`: the room to start with; a short piece of text (a header, a phrase) needs little.
    init(capacity: Int = 4096) {
        buffer = ByteBuffer(capacity: capacity)
    }

    static func += (out: inout OutputText, text: String) {
        out.buffer.append(text)
    }

    static func += (out: inout OutputText, text: StaticString) {
        out.buffer.append(text)
    }

    /// `count` spaces.
    mutating func pad(_ count: Int) {
        buffer.append(0x20, count: count)
    }

    /// `number` in decimal, right-aligned to `width` columns: no String made per number.
    mutating func append(_ number: Int64, rightAlignedTo width: Int = 0) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = number.magnitude, start = digits.count
            repeat {
                start -= 1
                digits[start] = 0x30 + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if number < 0 {
                start -= 1
                digits[start] = 0x2D
            }
            pad(width - (digits.count - start))
            buffer.append(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    var count: Int { buffer.count }

    /// Hands over the bytes so far and starts again.
    mutating func drain() -> [UInt8] { buffer.drain() }

    var text: String { String(decoding: buffer.bytes, as: UTF8.self) }
}
