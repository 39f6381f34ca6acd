/// Git's names of objects, computed here: SHA-1 (FIPS 180-4) of an object's header and body, so
/// that a blob or a tree can be named without asking GitHub, and what GitHub names can be checked.
public enum GitHash {
    /// The SHA-1 of `bytes`, 40 lowercase hex digits.
    public static func sha1(_ bytes: [UInt8]) -> String {
        hex(digest(bytes))
    }

    /// Git's name of a blob holding `content`: SHA-1 of "blob <count>\0" + content.
    public static func blob(_ content: [UInt8]) -> String {
        sha1(Array("blob \(content.count)\0".utf8) + content)
    }

    /// Git's name of a tree object with these entries: entries sorted the way git sorts them (a
    /// folder's name compares as if it ended in "/"), each "<mode> <name>\0<20 raw bytes>" with the
    /// mode as git writes it ("100755", "40000"); SHA-1 of "tree <count>\0" + entries. Nil for a
    /// malformed sha (not 40 hex digits) or a name git would not store (empty, with "/" or NUL
    /// in it, "." or "..").
    public static func tree(_ entries: [(name: String, sha: String, mode: GitMode)]) -> String? {
        var sortable: [(key: [UInt8], line: [UInt8])] = []
        sortable.reserveCapacity(entries.count)
        for entry in entries {
            let name = Array(entry.name.utf8)
            guard !name.isEmpty, entry.name != ".", entry.name != "..", !name.contains(0), !name.contains(UInt8(ascii: "/")),
                  let raw = bytes(ofHex: entry.sha) else { return nil }
            let line = Array((entry.mode.objectText + " ").utf8) + name + [0] + raw
            sortable.append((entry.mode.isTree ? name + [UInt8(ascii: "/")] : name, line))
        }
        sortable.sort { $0.key.lexicographicallyPrecedes($1.key) }
        let body = sortable.flatMap(\.line)
        return sha1(Array("tree \(body.count)\0".utf8) + body)
    }

    /// The 20 bytes a 40-hex-digit name stands for; nil for anything else.
    public static func bytes(ofHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 40 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(20)
        var index = 0
        while index < 40 {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 20-byte SHA-1 digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state = SHA1State()
        let whole = bytes.count / 64 * 64
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < whole {
                state.process(buffer, at: offset)
                offset += 64
            }
        }
        // The last bytes, 0x80, zeros, and the length in bits: one or two blocks.
        var tail = Array(bytes[whole...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                state.process(buffer, at: offset)
                offset += 64
            }
        }
        return state.words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}

/// SHA-1's five words, kept across blocks.
private struct SHA1State {
    var words: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]

    /// Takes in the 64 bytes of `buffer` from `offset`. The message schedule lives in a buffer
    /// of its own for the block, and each of the four kinds of round has a loop of its own: no
    /// array checks and no branch in the rounds (a first push hashes megabytes).
    mutating func process(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) {
        var (a, b, c, d, e) = (words[0], words[1], words[2], words[3], words[4])
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            for i in 0..<16 {
                let at = offset + 4 * i
                schedule[i] = UInt32(buffer[at]) << 24 | UInt32(buffer[at + 1]) << 16 | UInt32(buffer[at + 2]) << 8
                    | UInt32(buffer[at + 3])
            }
            for i in 16..<80 {
                schedule[i] = rotate(schedule[i - 3] ^ schedule[i - 8] ^ schedule[i - 14] ^ schedule[i - 16], 1)
            }
            func round(_ f: UInt32, _ k: UInt32, _ word: UInt32) {
                let next = rotate(a, 5) &+ f &+ e &+ k &+ word
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, next)
            }
            for i in 0..<20 { round((b & c) | (~b & d), 0x5A82_7999, schedule[i]) }
            for i in 20..<40 { round(b ^ c ^ d, 0x6ED9_EBA1, schedule[i]) }
            for i in 40..<60 { round((b & c) | (b & d) | (c & d), 0x8F1B_BCDC, schedule[i]) }
            for i in 60..<80 { round(b ^ c ^ d, 0xCA62_C1D6, schedule[i]) }
        }
        words[0] = words[0] &+ a
        words[1] = words[1] &+ b
        words[2] = words[2] &+ c
        words[3] = words[3] &+ d
        words[4] = words[4] &+ e
    }

    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
