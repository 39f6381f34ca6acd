import DoogitSupport

/// How a user names a repository: `OWNER/NAME`, `HOST/OWNER/NAME`, a github.com URL (`https://`,
/// `git@…:`, `ssh://`), or a bare `NAME` (the signed-in user's, or the one tracked repository so named).
public enum RepositoryReference: Equatable, Sendable, CustomStringConvertible {
    case full(owner: String, name: String)
    case bare(name: String)

    public static let acceptedForms =
        "OWNER/NAME, NAME, github.com/OWNER/NAME, https://github.com/OWNER/NAME, git@github.com:OWNER/NAME.git or ssh://git@github.com/OWNER/NAME.git"

    public var description: String {
        switch self {
        case .full(let owner, let name): return "\(owner)/\(name)"
        case .bare(let name): return name
        }
    }

    public var name: String {
        switch self {
        case .full(_, let name), .bare(let name): return name
        }
    }

    public var owner: String? {
        if case .full(let owner, _) = self { return owner }
        return nil
    }

    /// Reads a reference; `hosts` are the web hosts whose URLs are accepted (github.com and,
    /// with GH_HOST, an Enterprise host). Nil when the text fits none of the forms.
    public static func parse(_ text: String, hosts: Set<String> = ["github.com"]) -> RepositoryReference? {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        let knownHosts = Set(hosts.map { $0.lowercased() }).union(hosts.map { "www." + $0.lowercased() })
        var path: Substring
        if let schemeEnd = text.range(of: "://") {
            let scheme = text[..<schemeEnd.lowerBound].lowercased()
            guard ["https", "http", "ssh", "git"].contains(scheme) else { return nil }
            var rest = text[schemeEnd.upperBound...]
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            var authority = rest[..<slash]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if let colon = authority.firstIndex(of: ":") { authority = authority[..<colon] }
            guard knownHosts.contains(authority.lowercased()) else { return nil }
            rest = rest[rest.index(after: slash)...]
            if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
            path = rest
            while path.hasSuffix("/") { path = path.dropLast() }
        } else if let colon = text.firstIndex(of: ":") {
            // scp-like: git@github.com:OWNER/NAME.git
            var host = text[..<colon]
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            guard knownHosts.contains(host.lowercased()) else { return nil }
            path = text[text.index(after: colon)...]
        } else {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            switch parts.count {
            case 1: return GitHubNames.isValidRepositoryName(parts[0]) ? .bare(name: String(parts[0])) : nil
            case 2: return fullReference(owner: parts[0], name: parts[1])
            // HOST/OWNER/NAME, as gh takes in GH_REPO.
            case 3 where knownHosts.contains(parts[0].lowercased()): return fullReference(owner: parts[1], name: parts[2])
            default: return nil
            }
        }
        if path.hasSuffix(".git") { path = path.dropLast(4) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // A web URL may go on past the repository (…/OWNER/NAME/issues/3).
        guard parts.count >= 2 else { return nil }
        return fullReference(owner: parts[0], name: parts[1])
    }

    private static func fullReference(owner: Substring, name: Substring) -> RepositoryReference? {
        guard GitHubNames.isValidOwner(owner), GitHubNames.isValidRepositoryName(name) else { return nil }
        return .full(owner: String(owner), name: String(name))
    }
}
