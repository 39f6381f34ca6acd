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
    /// ASCII (there, lowercasing and graphemes decide).
    static func asciiContains(_ haystack: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool? {
        if wanted.contains(where: { $0 >= 0x80 }) || haystack.contains(where: { $0 >= 0x80 }) { return nil }
        guard wanted.count <= haystack.count else { return false }
        if wanted.isEmpty { return false }  // as String.contains("") answers
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        let first = lower(wanted[0])
        var start = 0
        while start + wanted.count <= haystack.count {
            if lower(haystack[start]) == first {
                var offset = 1
                while offset < wanted.count && lower(haystack[start + offset]) == lower(wanted[offset]) { offset += 1 }
                if offset == wanted.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The SQL function `doogit_matches(text, needle)`: the same match inside a query, so that a
    /// filter reads only the rows it keeps.
    static let sqlName = "doogit_matches"

    static func register(on handle: OpaquePointer) -> Bool {
        sqlite3_create_function_v2(handle, sqlName, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            guard count == 2, let arguments, let text = sqlite3_value_text(arguments[0]),
                  let needle = sqlite3_value_text(arguments[1]) else {
                sqlite3_result_int(context, 0)
                return
            }
            let haystack = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(arguments[0])))
            let wanted = UnsafeBufferPointer(start: needle, count: Int(sqlite3_value_bytes(arguments[1])))
            sqlite3_result_int(context, TextMatch.contains(haystack, lowercased: wanted) ? 1 : 0)
        }, nil, nil, nil) == SQLITE_OK
    }
}
