import DoogitSupport

/// The offset of the syntax error `JSONParser` reports for `bytes`, or nil when it reports
/// something else (or nothing).
func syntaxError(_ bytes: [UInt8]) -> (offset: Int, reason: String)? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        guard case .syntax(let offset, let reason) = error else { return nil }
        return (offset, reason)
    }
}

func syntaxError(_ text: String) -> (offset: Int, reason: String)? {
    syntaxError(Array(text.utf8))
}
