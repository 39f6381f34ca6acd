import DoogitSupport

/// Output text built as UTF-8 bytes. A list of 10,000 todos is made of some 100,000 small
/// pieces, and appending one to a byte buffer costs a fraction of appending it to a String.
struct OutputText {
    private var buffer = ByteBuffer()

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

    var count: Int { buffer.count }

    /// Hands over the bytes so far and starts again.
    mutating func drain() -> [UInt8] { buffer.drain() }

    var text: String { String(decoding: buffer.bytes, as: UTF8.self) }
}
