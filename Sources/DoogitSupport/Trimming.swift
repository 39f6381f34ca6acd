extension StringProtocol {
    /// Without leading and trailing white space (spaces, tabs, line breaks).
    public var trimmingSpaces: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }
}
