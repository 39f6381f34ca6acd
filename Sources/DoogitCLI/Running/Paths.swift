/// Where doogit keeps its files, following the XDG base directory rules.
struct Paths {
    let environment: [String: String]

    private func variable(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    private func home() throws(CommandFailure) -> String {
        guard let home = variable("HOME") else {
            throw CommandFailure(message: "HOME is not set, so doogit cannot find its files",
                                 hint: "set HOME, or give the database with --db PATH")
        }
        return home
    }

    /// `--db`, else `DOOGIT_DB`, else `$XDG_DATA_HOME/doogit/doogit.sqlite3`.
    func database(option: String?) throws(CommandFailure) -> String {
        if let option { return try expandingHome(option, from: "--db") }
        if let path = variable("DOOGIT_DB") { return try expandingHome(path, from: "DOOGIT_DB") }
        // XDG: a relative XDG_* path is invalid and must be ignored.
        if let dataHome = variable("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
            return dataHome + "/doogit/doogit.sqlite3"
        }
        return try home() + "/.local/share/doogit/doogit.sqlite3"
    }

    /// `~` and `~/...` with HOME, as a shell would have (`--db=~/x` and a quoted DOOGIT_DB reach
    /// doogit unexpanded). `~user/...` is refused rather than taken as a folder named `~user`.
    private func expandingHome(_ path: String, from source: String) throws(CommandFailure) -> String {
        guard path.hasPrefix("~") else { return path }
        if path == "~" || path.hasPrefix("~/") { return try home() + path.dropFirst() }
        throw CommandFailure(message: "\(source) '\(path)': doogit expands only ~ and ~/, not ~USER",
                             hint: "write the full path of the database file")
    }

    /// `$XDG_CONFIG_HOME/doogit`, where the saved tokens live.
    func configDirectory() throws(CommandFailure) -> String {
        if let configHome = variable("XDG_CONFIG_HOME"), configHome.hasPrefix("/") {
            return configHome + "/doogit"
        }
        return try home() + "/.config/doogit"
    }

    /// The tokens saved by `auth login`, each for its API origin (see `SavedTokens`).
    func savedTokensFile() throws(CommandFailure) -> String {
        try configDirectory() + "/tokens"
    }

    /// The one token an older doogit saved, read for https://api.github.com only.
    func olderTokenFile() throws(CommandFailure) -> String {
        try configDirectory() + "/token"
    }

    /// `$XDG_CACHE_HOME/doogit`: what can be read again (the listing of your repositories).
    func cacheDirectory() throws(CommandFailure) -> String {
        if let cacheHome = variable("XDG_CACHE_HOME"), cacheHome.hasPrefix("/") {
            return cacheHome + "/doogit"
        }
        return try home() + "/.cache/doogit"
    }
}
