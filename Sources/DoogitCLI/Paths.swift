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
        if let option { return option }
        if let path = variable("DOOGIT_DB") { return path }
        // XDG: a relative XDG_* path is invalid and must be ignored.
        if let dataHome = variable("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
            return dataHome + "/doogit/doogit.sqlite3"
        }
        return try home() + "/.local/share/doogit/doogit.sqlite3"
    }

    /// `$XDG_CONFIG_HOME/doogit`, where a saved token lives.
    func configDirectory() throws(CommandFailure) -> String {
        if let configHome = variable("XDG_CONFIG_HOME"), configHome.hasPrefix("/") {
            return configHome + "/doogit"
        }
        return try home() + "/.config/doogit"
    }
}
