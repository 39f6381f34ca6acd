/// A file's byte-order mark, as editors on other systems write one: a mark is not part of the
/// file's first line. UTF-8's (EF BB BF) is dropped; a file that starts with UTF-16's (FF FE or
/// FE FF, as Windows PowerShell's `>` writes) is UTF-16 throughout, and is read as such.
public enum ByteOrderMark {
    /// The file's bytes as UTF-8 without a mark: unchanged when there is none.
    public static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        let littleEndian: Bool
        if bytes.starts(with: [0xFF, 0xFE]) {
            littleEndian = true
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            littleEndian = false
        } else {
            return bytes
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        // An odd last byte is half a character: replaced, as any broken character is.
        var text = String(decoding: units, as: UTF16.self)
        if index < bytes.count { text.append("\u{FFFD}") }
        return Array(text.utf8)
    }
}
