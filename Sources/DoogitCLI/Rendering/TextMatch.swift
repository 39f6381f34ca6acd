/// Finding a piece of text ignoring case, as `todo list --grep` does, to highlight it.
enum TextMatch {
    /// `text` cut into pieces in order, each marked whether it is an occurrence of `needle`
    /// (compared in lowercase, character by character, so no character is cut in two).
    static func pieces(of text: String, matching needle: String) -> [(text: String, matches: Bool)] {
        let wanted = needle.lowercased()
        let characters = Array(text)
        var pieces: [(text: String, matches: Bool)] = []
        var plain = ""
        var index = 0
        while index < characters.count {
            var end = index
            var folded = ""
            while end < characters.count, folded != wanted {
                let next = folded + characters[end].lowercased()
                guard wanted.hasPrefix(next) else { break }
                folded = next
                end += 1
            }
            if !wanted.isEmpty && folded == wanted {
                if !plain.isEmpty { pieces.append((plain, false)) }
                plain = ""
                pieces.append((String(characters[index..<end]), true))
                index = end
            } else {
                plain.append(characters[index])
                index += 1
            }
        }
        if !plain.isEmpty { pieces.append((plain, false)) }
        return pieces
    }
}
