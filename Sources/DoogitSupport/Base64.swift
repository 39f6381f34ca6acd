/// Base64 (RFC 4648, standard alphabet, padded), as GitHub's Contents API sends and takes a
/// file's content. Decoding skips the line breaks GitHub puts in every 60 characters.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(chunk >> 18 & 63)])
            out.append(alphabet[Int(chunk >> 12 & 63)])
            out.append(alphabet[Int(chunk >> 6 & 63)])
            out.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out.append(alphabet[Int(chunk >> 18 & 63)])
            out.append(alphabet[Int(chunk >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes, or nil when the text is not base64. Whitespace (and the two characters `\n`
    /// that some examples carry) is skipped.
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 4 * 3)
        var chunk: UInt32 = 0
        var count = 0
        var padding = 0
        var previousWasBackslash = false
        for byte in text.utf8 {
            if previousWasBackslash {
                previousWasBackslash = false
                guard byte == UInt8(ascii: "n") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\\"): previousWasBackslash = true; continue
            case 0x0A, 0x0D, 0x20, 0x09: continue
            case UInt8(ascii: "="):
                padding += 1
                chunk <<= 6
                count += 1
            default:
                guard padding == 0 else { return nil }
                let value = values[Int(byte)]
                guard value != 0xFF else { return nil }
                chunk = chunk << 6 | UInt32(value)
                count += 1
            }
            if count == 4 {
                out.append(UInt8(chunk >> 16 & 0xFF))
                if padding < 2 { out.append(UInt8(chunk >> 8 & 0xFF)) }
                if padding < 1 { out.append(UInt8(chunk & 0xFF)) }
                chunk = 0
                count = 0
            }
        }
        guard count == 0, padding <= 2, !previousWasBackslash else { return nil }
        return out
    }
}
