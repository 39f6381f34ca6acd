#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitStore

/// The view's todos folded for `--grep`'s match, so that a filter finds its matches in one pass:
/// every ASCII text lowercased into one buffer (each followed by a newline, which no todo's text
/// holds) and searched in one pass; a text with other characters is matched on its own, as
/// `TodoRecord.matches` does (lowercasing and graphemes decide there).
struct FilterIndex {
    private var buffer: [UInt8] = []
    /// Where each ASCII todo's text starts in `buffer`, and where it is in the sections.
    private var starts: [Int] = []
    private var places: [(section: Int, todo: Int)] = []
    private var others: [(section: Int, todo: Int)] = []

    init(_ sections: [TodoSection]) {
        for (sectionIndex, section) in sections.enumerated() {
            for (todoIndex, todo) in section.todos.enumerated() {
                let bytes = todo.text.utf8
                if bytes.contains(where: { $0 >= 0x80 }) {
                    others.append((sectionIndex, todoIndex))
                    continue
                }
                starts.append(buffer.count)
                places.append((sectionIndex, todoIndex))
                buffer += bytes.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
                buffer.append(0x0A)
            }
        }
    }

    /// For each section, the indexes of its todos that `needle` (lowercased) matches, in order.
    func matches(_ needle: String, in sections: [TodoSection]) -> [[Int]] {
        var found = sections.map { _ in [Int]() }
        let wanted = Array(needle.utf8)
        guard !wanted.isEmpty else { return found }
        guard wanted.allSatisfy({ $0 < 0x80 && $0 != 0x0A }) else {
            for (sectionIndex, section) in sections.enumerated() {
                found[sectionIndex] = section.todos.indices.filter { section.todos[$0].matches(needle) }
            }
            return found
        }
        buffer.withUnsafeBytes { haystack in
            wanted.withUnsafeBytes { needleBytes in
                guard let base = haystack.baseAddress, let pattern = needleBytes.baseAddress else { return }
                let length = needleBytes.count
                let first = Int32(needleBytes[0])
                var position = 0
                // memchr finds the first byte, memcmp checks the rest: both run at the speed of memory.
                while position + length <= haystack.count,
                      let candidate = memchr(base + position, first, haystack.count - position - length + 1) {
                    let offset = base.distance(to: UnsafeRawPointer(candidate))
                    guard memcmp(base + offset, pattern, length) == 0 else {
                        position = offset + 1
                        continue
                    }
                    // The todo whose text holds the match: the last start at or before it.
                    var low = 0, high = starts.count
                    while high - low > 1 {
                        let middle = (low + high) / 2
                        if starts[middle] <= offset { low = middle } else { high = middle }
                    }
                    let place = places[low]
                    found[place.section].append(place.todo)
                    position = low + 1 < starts.count ? starts[low + 1] : haystack.count
                }
            }
        }
        for place in others where sections[place.section].todos[place.todo].matches(needle) {
            found[place.section].append(place.todo)
        }
        if !others.isEmpty {
            for index in found.indices where found[index].count > 1 { found[index].sort() }
        }
        return found
    }
}
