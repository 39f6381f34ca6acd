import DoogitGitHub
import DoogitSupport

/// Finds the GitHub repositories that the current directory's git checkout points at, by reading
/// git's config files directly (no git process is started), as git would resolve them:
/// `url.<base>.insteadOf` rewrites, SSH host aliases from ~/.ssh/config, and GitHub's SSH host
/// on port 443 (ssh.github.com). Worktrees and submodules, whose `.git` is a file naming the
/// real git folder, are followed.
struct GitCheckout {
    /// HOME and XDG_CONFIG_HOME, from the context (never the process's own).
    let environment: [String: String]
    /// The web hosts whose repositories doogit knows (github.com, and GH_HOST when set).
    let hosts: Set<String>

    /// The GitHub repositories of the checkout containing `directory`, most likely first:
    /// `origin`, then `upstream` (a fork's parent), then the other remotes in config order.
    func repositories(from directory: String) -> [RepositoryReference] {
        guard let gitDirectory = Self.findGitDirectory(from: directory) else { return [] }
        var configDirectory = gitDirectory
        if let common = Files.read(gitDirectory + "/commondir")?.trimmingSpaces, !common.isEmpty {
            configDirectory = common.hasPrefix("/") ? common : gitDirectory + "/" + common
        }
        guard let config = GitConfig(path: configDirectory + "/config") else { return [] }
        let rewrites = URLRewrites(configs: [config] + userConfigs())
        let ssh = environment["HOME"].flatMap { SSHConfig(path: $0 + "/.ssh/config") }
        var found: [RepositoryReference] = []
        for remote in Self.preferredOrder(Self.remotes(config)) {
            if let reference = reference(rewrites.apply(to: remote.url), ssh: ssh), !found.contains(reference) {
                found.append(reference)
            }
        }
        return found
    }

    /// ~/.gitconfig and $XDG_CONFIG_HOME/git/config (~/.config/git/config), where they exist.
    private func userConfigs() -> [GitConfig] {
        var paths: [String] = []
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        if let home { paths.append(home + "/.gitconfig") }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            paths.append(xdg + "/git/config")
        } else if let home {
            paths.append(home + "/.config/git/config")
        }
        return paths.compactMap { GitConfig(path: $0) }
    }

    /// A remote URL as a full repository reference. An SSH URL's host may be an alias from the
    /// SSH config, or ssh.github.com (GitHub's SSH on port 443): it counts as the host it reaches.
    private func reference(_ url: String, ssh: SSHConfig?) -> RepositoryReference? {
        var accepted = hosts
        if let alias = Self.sshHost(url) {
            var reached = (ssh?.hostName(for: alias) ?? alias).lowercased()
            if reached == "ssh.github.com" { reached = "github.com" }
            if hosts.contains(reached) { accepted.insert(alias.lowercased()) }
        }
        guard let reference = RepositoryReference.parse(url, hosts: accepted), case .full = reference else { return nil }
        return reference
    }

    /// The host of an SSH remote (`ssh://[user@]host[:port]/…` or scp-like `[user@]host:path`).
    static func sshHost(_ url: String) -> String? {
        var authority: Substring
        if url.lowercased().hasPrefix("ssh://") {
            let rest = url.dropFirst("ssh://".count)
            authority = rest.prefix(while: { $0 != "/" })
            if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("@") { authority = authority[..<colon] }
        } else if !url.contains("://"), let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") {
            authority = url[..<colon]
        } else {
            return nil
        }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return authority.isEmpty ? nil : String(authority)
    }

    /// `origin` first, then `upstream`, then the rest in config order.
    static func preferredOrder(_ remotes: [(name: String, url: String)]) -> [(name: String, url: String)] {
        let rank = { (name: String) -> Int in name == "origin" ? 0 : name == "upstream" ? 1 : 2 }
        return remotes.enumerated().sorted { (rank($0.element.name), $0.offset) < (rank($1.element.name), $1.offset) }
            .map(\.element)
    }

    static func findGitDirectory(from directory: String) -> String? {
        var current = directory
        while true {
            let candidate = current == "/" ? "/.git" : current + "/.git"
            if Files.isDirectory(candidate) { return candidate }
            if let file = Files.read(candidate), file.hasPrefix("gitdir:") {
                let target = file.dropFirst("gitdir:".count).trimmingSpaces
                return target.hasPrefix("/") ? target : current + "/" + target
            }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// The `[remote "NAME"]` sections and their first `url`, in the order of the config file.
    static func remotes(_ config: GitConfig) -> [(name: String, url: String)] {
        var remotes: [(name: String, url: String)] = []
        for (name, url) in config.values(section: "remote", key: "url") where !remotes.contains(where: { $0.name == name }) {
            remotes.append((name, url))
        }
        return remotes
    }

    static func parseRemotes(_ text: String) -> [(name: String, url: String)] {
        remotes(GitConfig(text))
    }
}

/// git's `url.<base>.insteadOf`: a URL that starts with a prefix is rewritten to start with
/// the base instead; the longest matching prefix wins. (`pushInsteadOf` only affects pushes.)
struct URLRewrites {
    private let rules: [(prefix: String, base: String)]

    init(configs: [GitConfig]) {
        rules = configs.flatMap { $0.values(section: "url", key: "insteadof").map { (prefix: $0.value, base: $0.subsection) } }
    }

    func apply(to url: String) -> String {
        let matching = rules.filter { !$0.prefix.isEmpty && url.hasPrefix($0.prefix) }
        guard let best = matching.max(by: { $0.prefix.count < $1.prefix.count }) else { return url }
        return best.base + url.dropFirst(best.prefix.count)
    }
}
