import DoogitGitHub
import DoogitSupport

/// The tokens `doogit auth login --with-token` saved, each for the API origin it was saved for
/// and sent only there: `$XDG_CONFIG_HOME/doogit/tokens`, a line `ORIGIN TOKEN` for each origin
/// (`https://api.github.com ghp_...`), mode 0600 in a folder of mode 0700, written whole by way of
/// a temporary file and rename.
///
/// Older doogit saved one token alone in `token` beside it. That file is still read, for
/// `https://api.github.com` only: the one API older doogit used unless told otherwise. The
/// next save folds it into `tokens` and removes it.
struct SavedTokens {
    /// The origin an older doogit's single token belongs to.
    static let olderTokenOrigin = APIEndpoint.github.canonicalOrigin

    let file: String
    let olderFile: String

    init(paths: Paths) throws(CommandFailure) {
        file = try paths.savedTokensFile()
        olderFile = try paths.olderTokenFile()
    }

    /// The token saved for `origin` and the file it is in; nil when none is.
    func token(for origin: String) throws(TokenFileError) -> (value: String, path: String)? {
        if let saved = try entries()[origin] { return (saved, file) }
        guard origin == Self.olderTokenOrigin, let older = try olderToken() else { return nil }
        return (older, olderFile)
    }

    /// Saves `token` for `origin`, keeping the tokens of the other origins.
    func save(_ token: String, for origin: String) throws -> String {
        var saved = try entries()
        if saved[Self.olderTokenOrigin] == nil, let older = try olderToken(), TokenResolver.isWellFormed(older) {
            saved[Self.olderTokenOrigin] = older
        }
        saved[origin] = token
        try write(saved)
        // Folded in: the older file would only say the same, or less.
        _ = Files.remove(olderFile)
        return file
    }

    /// Removes the token saved for `origin` (the older file too, for its origin); whether there was one.
    func remove(origin: String) throws -> Bool {
        var saved = try entries()
        var removed = saved.removeValue(forKey: origin) != nil
        if removed {
            if saved.isEmpty {
                if let reason = Files.remove(file) { throw CommandFailure(message: "cannot remove \(file): \(reason)", hint: nil) }
            } else {
                try write(saved)
            }
        }
        if origin == Self.olderTokenOrigin && Files.exists(olderFile) {
            if let reason = Files.remove(olderFile) { throw CommandFailure(message: "cannot remove \(olderFile): \(reason)", hint: nil) }
            removed = true
        }
        return removed
    }

    /// Every token of `tokens` by its origin; none when there is no such file.
    func entries() throws(TokenFileError) -> [String: String] {
        guard let text = try read(file) else { return [:] }
        var saved: [String: String] = [:]
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content = line.trimmingSpaces
            if content.isEmpty || content.hasPrefix("#") { continue }
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, let endpoint = try? APIEndpoint(String(fields[0])), endpoint.basePath.isEmpty else {
                // The line is not shown: it may hold a token.
                throw TokenFileError(path: file, problem: "line \(index + 1) is not an API origin and a token (such as 'https://api.github.com ghp_...')",
                                     hint: "correct or delete that line, or delete the file and run 'doogit auth login --with-token' again")
            }
            saved[endpoint.canonicalOrigin] = String(fields[1])
        }
        return saved
    }

    /// The token of an older doogit's file, nil when there is none (or it is empty).
    private func olderToken() throws(TokenFileError) -> String? {
        guard let text = try read(olderFile)?.trimmingSpaces, !text.isEmpty else { return nil }
        return text
    }

    private func read(_ path: String) throws(TokenFileError) -> String? {
        switch Files.readIfPresent(path, limit: 1 << 16) {
        case .success(let text):
            return text
        case .failure(let failure):
            throw TokenFileError(path: path, problem: "cannot be read (\(failure.reason))",
                                 hint: "make it a readable file (chmod 600 '\(path)'), or delete it and run 'doogit auth login --with-token' again")
        }
    }

    private func write(_ saved: [String: String]) throws(CommandFailure) {
        let directory = Files.parentFolder(of: file)
        if let reason = Files.createDirectories(directory, mode: 0o700) {
            throw CommandFailure(message: "cannot create \(directory): \(reason)", hint: nil)
        }
        var text = "# Tokens saved by 'doogit auth login', one 'ORIGIN TOKEN' a line; each is sent only to its origin.\n"
        for origin in saved.keys.sorted() { text += "\(origin) \(saved[origin] ?? "")\n" }
        if let reason = Files.writeAtomically(text, to: file, mode: 0o600) {
            throw CommandFailure(message: "cannot save the token in \(file): \(reason)", hint: nil)
        }
    }
}

/// The file of saved tokens cannot be read, or holds a line that is not `ORIGIN TOKEN`: no token
/// can be had from it (exit 4). The message never quotes the file, which holds tokens.
struct TokenFileError: Error, Equatable {
    var path: String
    var problem: String
    var hint: String
}
