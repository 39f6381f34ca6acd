/// A read of many items that may need more than one run: the first read of thousands of
/// repositories, or of a remote's thousands of files, can need more than the hour's rate limit
/// or meet a secondary one. A run that stops notes what it had read (`note`), with what it keeps
/// of each item where the item is not kept elsewhere (a file's text); the next run reads what is
/// still missing first (`unreadFirst`), takes what was kept instead of asking again (`kept`), and
/// once the read is whole, forgets it (`finish`). A read is named by its reader, and every
/// change is its own transaction, or part of the caller's.
public struct ReadProgress {
    public let name: String
    let database: Database

    /// The repository phase's read of every tracked repository, by id.
    public static let repositories = "repositories"

    /// The items read so far, each with what was kept of it (nil: nothing).
    public func itemsRead() throws -> [String: [UInt8]?] {
        var items: [String: [UInt8]?] = [:]
        for (item, content) in try database.query("SELECT item, content FROM read_progress WHERE read = ?", [.text(name)], {
            row throws(StoreError) in (try row.string(0), row.optionalString(1))
        }) {
            items[item] = .some(content.map { Array($0.utf8) })
        }
        return items
    }

    /// `items` in their order, those this read has not read yet first.
    public func unreadFirst<Item>(_ items: [Item], key: (Item) -> String) throws -> [Item] {
        let read = try itemsRead()
        guard !read.isEmpty else { return items }
        return items.filter { read[key($0)] == nil } + items.filter { read[key($0)] != nil }
    }

    /// What was kept of those of `items` read before.
    public func kept(_ items: [String]) throws -> [String: [UInt8]] {
        let read = try itemsRead()
        var kept: [String: [UInt8]] = [:]
        for item in items {
            if let content = read[item] ?? nil { kept[item] = content }
        }
        return kept
    }

    /// Notes items as read, with what is kept of each. Content that is not UTF-8 text is not
    /// kept (the column holds text), and its item is not noted: it is read again.
    public func note(_ items: [(item: String, content: [UInt8]?)]) throws {
        guard !items.isEmpty else { return }
        try database.transaction { () throws(StoreError) in
            for (item, content) in items {
                var text: String?
                if let content {
                    guard let valid = String(validating: content, as: UTF8.self) else { continue }
                    text = valid
                }
                try database.run("INSERT OR REPLACE INTO read_progress (read, item, content) VALUES (?, ?, ?)",
                                 .text(name), .text(item), .optional(text))
            }
        }
    }

    /// The read is whole: its notes are forgotten.
    public func finish() throws {
        try database.transaction { () throws(StoreError) in
            _ = try database.run("DELETE FROM read_progress WHERE read = ?", .text(name))
        }
    }
}

extension Store {
    /// The progress of the read named `name`.
    public func readProgress(_ name: String) -> ReadProgress { ReadProgress(name: name, database: database) }
}
