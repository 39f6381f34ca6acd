import DoogitSupport

/// Your repositories as `doogit repo search --json` lists them, and the copy of the last listing
/// kept in the cache folder, so that the repository screen shows them at once while GitHub is
/// asked again.
enum RepositoryListing {
    static func entries(fromJSON bytes: [UInt8]) -> [RepositoryView.Entry]? {
        guard case .array(let items)? = try? JSONParser.parse(bytes) else { return nil }
        return items.compactMap { item in
            guard case .number(let number)? = item["id"], let id = Int64(number), case .string(let fullName)? = item["fullName"] else {
                return nil
            }
            var description: String?
            if case .string(let text)? = item["description"] { description = text }
            let archived: Bool? = item["archived"] == .null ? nil : item["archived"] == .bool(true)
            return RepositoryView.Entry(id: id, fullName: fullName, description: description,
                                        isPrivate: item["private"] == .bool(true), archived: archived,
                                        tracked: item["tracked"] == .bool(true))
        }
    }

    /// The listing in what `repo search --json` printed: the whole output, else its line that
    /// is a JSON array (a warning on stderr may come with it).
    static func entries(fromOutput bytes: [UInt8]) -> (json: [UInt8], entries: [RepositoryView.Entry])? {
        if let entries = entries(fromJSON: bytes) { return (bytes, entries) }
        for line in bytes.split(separator: 0x0A) where line.first == UInt8(ascii: "[") {
            if let entries = entries(fromJSON: Array(line)) { return (Array(line), entries) }
        }
        return nil
    }

    private static func path(_ runtime: Runtime) -> String? {
        (try? runtime.paths.cacheDirectory()).map { $0 + "/repositories.json" }
    }

    static func cached(_ runtime: Runtime) -> [RepositoryView.Entry]? {
        guard let path = path(runtime), let text = Files.read(path, limit: 64 << 20) else { return nil }
        return entries(fromJSON: Array(text.utf8))
    }

    /// Keeps the listing for next time; a cache that cannot be written is only slower.
    static func save(_ bytes: [UInt8], _ runtime: Runtime) {
        guard let path = path(runtime) else { return }
        guard Files.createDirectories(Files.parentFolder(of: path), mode: 0o700) == nil else { return }
        _ = Files.writeAtomically(String(decoding: bytes, as: UTF8.self), to: path, mode: 0o600)
    }
}
