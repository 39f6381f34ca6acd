/// Lean reads for shell completion, which runs on every Tab: only the columns it shows.
extension Store {
    /// The ID and text of every todo that is done (or open), by ID.
    public func todoTexts(done: Bool) throws -> [(id: Int64, text: String)] {
        try database.query("SELECT id, text FROM todos WHERE done = ? ORDER BY id", [.bool(done)]) {
            row throws(StoreError) in (try row.int64("id"), try row.string("text"))
        }
    }
}
