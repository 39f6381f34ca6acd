internal import CSQLite

/// How `--grep` and the view's filter match a todo's text: without case, Unicode-aware. ASCII
/// texts are compared byte by byte (what lowercasing would answer, without a copy of each
/// text); others are lowercased.
enum TextMatch {
    /// Whether `text` holds `needle`, which is lowercased already.
    static func contains(_ text: UnsafeBufferPointer<UInt8>, lowercased needle: UnsafeBufferPointer<UInt8>) -> Bool {
        if let found = asciiContains(text, needle) { return found }
        return String(decoding: text, as: UTF8.self).lowercased().contains(String(decoding: needle, as: UTF8.self))
    }

    /// Whether ASCII `haystack` holds ASCII `wanted`, ignoring case; nil when either is not
    /// ASCII (there, lowercasing and graphemes decide). A filter scans every todo's text with
    /// it, so it reads eight bytes at a time: first whether any is not ASCII, then where the
    /// needle's first letter is.
    static func asciiContains(_ haystack: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard isASCII(wanted), isASCII(haystack) else { return nil }
        let count = haystack.count, length = wanted.count
        // An empty needle: as String.contains("") answers.
        guard let text = haystack.baseAddress, let needle = wanted.baseAddress, length > 0, length <= count else { return false }
        let first = lower(needle[0])
        // Bytes equal to the first letter in either case: each byte with the case bit set (for
        // a letter), then compared with the letter in every byte at once.
        let fold: UInt64 = first &- 0x61 < 26 ? 0x2020_2020_2020_2020 : 0
        let target = UInt64(first) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(text)
        func matches(at start: Int) -> Bool {
            guard lower(text[start]) == first else { return false }
            var offset = 1
            while offset < length && lower(text[start + offset]) == lower(needle[offset]) { offset += 1 }
            return offset == length
        }
        let lastStart = count - length
        var start = 0
        while start + 8 <= count && start <= lastStart {
            let word = (UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)) | fold) ^ target
            // A zero byte is where the letter is; the lowest one found is exact, those above it
            // may be false (a borrow), which `matches` tells.
            var found = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            while found != 0 {
                let at = start + found.trailingZeroBitCount / 8
                if at <= lastStart && matches(at: at) { return true }
                found &= found &- 1
            }
            start += 8
        }
        while start <= lastStart {
            if matches(at: start) { return true }
            start += 1
        }
        return false
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// Whether every byte is ASCII, eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0, high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(base[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// The SQL function `doogit_matches(text, needle)`: the same match inside a query, so that a
    /// filter reads only the rows it keeps.
    static let sqlName = "doogit_matches"

    /// The SQL aggregate `doogit_match_counts(repository_id, text, needle)`: how many texts of
    /// each repository hold the needle, as (repository, count) pairs of native 64-bit integers
    /// (`counts(_:)` reads them); NULL when none does. One pass over the rows in any order,
    /// counting runs of one repository in place, with no sorting into groups.
    static let countsName = "doogit_match_counts"

    /// What the aggregate keeps between rows, in the memory SQLite gives it (zeroed at first).
    private struct Tally {
        var repository: Int64
        var run: Int64
        /// The counts of runs before this one (a `Counts`, retained), made at the first change of repository.
        var earlier: UnsafeMutableRawPointer?
    }

    private final class Counts {
        var byRepository: [Int64: Int64] = [:]
    }

    /// The pairs of a `doogit_match_counts` result.
    static func counts(_ bytes: UnsafeRawBufferPointer) -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        let pairs = bytes.count / (2 * MemoryLayout<Int64>.size)
        for index in 0..<pairs {
            let repository = bytes.loadUnaligned(fromByteOffset: index * 16, as: Int64.self)
            counts[repository, default: 0] += Int(bytes.loadUnaligned(fromByteOffset: index * 16 + 8, as: Int64.self))
        }
        return counts
    }

    /// Whether the text of `arguments[text]` holds that of `arguments[needle]`.
    @inline(__always)
    private static func matches(_ arguments: UnsafeMutablePointer<OpaquePointer?>, text: Int, needle: Int) -> Bool {
        guard let haystack = bytes(arguments[text]), let wanted = bytes(arguments[needle]) else { return false }
        return contains(haystack, lowercased: wanted)
    }

    /// A value's bytes as text: those of a text (or blob) as they are, without the copy that
    /// `sqlite3_value_text` makes of a bound needle at each row to end it with a zero byte; a
    /// number's as SQLite writes it. Nil for NULL.
    @inline(__always)
    private static func bytes(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
        switch sqlite3_value_type(value) {
        case SQLITE_NULL:
            return nil
        case SQLITE_TEXT, SQLITE_BLOB:
            let start = sqlite3_value_blob(value)?.assumingMemoryBound(to: UInt8.self)
            return UnsafeBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_value_bytes(value)))
        default:
            guard let start = sqlite3_value_text(value) else { return nil }
            return UnsafeBufferPointer(start: start, count: Int(sqlite3_value_bytes(value)))
        }
    }

    static func register(on handle: OpaquePointer) -> Bool {
        let matching = sqlite3_create_function_v2(handle, sqlName, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            guard count == 2, let arguments else { return sqlite3_result_int(context, 0) }
            sqlite3_result_int(context, TextMatch.matches(arguments, text: 0, needle: 1) ? 1 : 0)
        }, nil, nil, nil)
        let counting = sqlite3_create_function_v2(handle, countsName, 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, nil, { context, count, arguments in
            guard count == 3, let arguments, TextMatch.matches(arguments, text: 1, needle: 2),
                  let memory = sqlite3_aggregate_context(context, Int32(MemoryLayout<Tally>.size)) else { return }
            let tally = memory.assumingMemoryBound(to: Tally.self)
            let repository = sqlite3_value_int64(arguments[0])
            if tally.pointee.run > 0 && tally.pointee.repository == repository {
                tally.pointee.run += 1
                return
            }
            if tally.pointee.run > 0 {
                if tally.pointee.earlier == nil { tally.pointee.earlier = Unmanaged.passRetained(Counts()).toOpaque() }
                if let earlier = tally.pointee.earlier {
                    Unmanaged<Counts>.fromOpaque(earlier).takeUnretainedValue()
                        .byRepository[tally.pointee.repository, default: 0] += tally.pointee.run
                }
            }
            tally.pointee.repository = repository
            tally.pointee.run = 1
        }, { context in
            // Called once at the end (also when the statement stops early), with no memory when no row matched.
            guard let memory = sqlite3_aggregate_context(context, 0) else { return sqlite3_result_null(context) }
            let tally = memory.assumingMemoryBound(to: Tally.self)
            var pairs: [Int64] = []
            if let earlier = tally.pointee.earlier {
                let counts = Unmanaged<Counts>.fromOpaque(earlier).takeRetainedValue()
                tally.pointee.earlier = nil
                pairs.reserveCapacity(2 * counts.byRepository.count + 2)
                for (repository, count) in counts.byRepository { pairs += [repository, count] }
            }
            if tally.pointee.run > 0 { pairs += [tally.pointee.repository, tally.pointee.run] }
            pairs.withUnsafeBytes { bytes in
                doogit_sqlite3_result_blob(context, bytes.baseAddress, Int32(bytes.count))
            }
        }, nil)
        return matching == SQLITE_OK && counting == SQLITE_OK
    }
}
