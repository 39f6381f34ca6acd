extension StringProtocol {
    /// Without leading and trailing white space (spaces, tabs, line breaks).
    public var trimmingSpaces: String {
        // Most text has nothing to trim, which its first and last bytes tell without walking its
        // characters: a printable ASCII byte other than a space begins or ends no white space.
        func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
        let text = String(self)  // free for a String; a Substring is copied once, as it would be anyway
        if let head = text.utf8.first, let tail = text.utf8.last, plain(head), plain(tail) { return text }
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }
}
