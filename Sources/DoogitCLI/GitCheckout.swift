import DoogitSupport
import DoogitGitHub

/// Finds the GitHub repository that the current directory's git checkout points at, by reading
/// `.git/config` directly (no git process is started). Worktrees and submodules, whose `.git`
/// is a file naming the real git folder, are followed.
enum GitCheckout {
    /// The remotes of the checkout containing `directory`, in the order of the config file.
    static func remotes(from directory: String) -> [(name: String, url: String)] {
        guard let gitDirectory = findGitDirectory(from: directory) else { return [] }
        var configDirectory = gitDirectory
        if let common = Files.read(gitDirectory + "/commondir")?.trimmingCharacters() , !common.isEmpty {
            configDirectory = common.hasPrefix("/") ? common : gitDirectory + "/" + common
        }
        guard let config = Files.read(configDirectory + "/config") else { return [] }
        return parseRemotes(config)
    }

    /// The repository of the first remote (`origin` first) whose URL names a GitHub repository.
    static func repository(from directory: String, hosts: Set<String>) -> RepositoryReference? {
        let all = remotes(from: directory)
        let ordered = all.filter { $0.name == "origin" } + all.filter { $0.name != "origin" }
        for remote in ordered {
            if let reference = RepositoryReference.parse(remote.url, hosts: hosts), case .full = reference {
                return reference
            }
        }
        return nil
    }

    static func findGitDirectory(from directory: String) -> String? {
        var current = directory
        while true {
            let candidate = current == "/" ? "/.git" : current + "/.git"
            if Files.isDirectory(candidate) { return candidate }
            if let file = Files.read(candidate), file.hasPrefix("gitdir:") {
                let target = String(file.dropFirst("gitdir:".count)).trimmingCharacters()
                return target.hasPrefix("/") ? target : current + "/" + target
            }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// Reads `[remote "NAME"]` sections and their `url` keys from git's config format.
    static func parseRemotes(_ config: String) -> [(name: String, url: String)] {
        var remotes: [(name: String, url: String)] = []
        var section: String?
        for rawLine in config.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = String(rawLine).trimmingCharacters()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                section = nil
                let inside = line.dropFirst().prefix(while: { $0 != "]" })
                let parts = inside.split(separator: " ", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "remote" {
                    var name = parts[1].trimmingCharacters(in: "\"")
                    name = name.replacingBackslashEscapes()
                    section = name
                }
                continue
            }
            guard let remote = section else { continue }
            let pair = line.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, String(pair[0]).trimmingCharacters().lowercased() == "url" else { continue }
            var value = String(pair[1]).trimmingCharacters()
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            if !remotes.contains(where: { $0.name == remote }) { remotes.append((remote, value)) }
        }
        return remotes
    }
}

extension StringProtocol {
    /// Without leading and trailing white space.
    func trimmingCharacters() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }

    func trimmingCharacters(in quote: Character) -> String {
        var result = Substring(self)
        if result.first == quote { result = result.dropFirst() }
        if result.last == quote { result = result.dropLast() }
        return String(result)
    }

    func replacingBackslashEscapes() -> String {
        var out = ""
        var escaping = false
        for character in self {
            if escaping { out.append(character); escaping = false } else if character == "\\" { escaping = true } else { out.append(character) }
        }
        return out
    }
}
