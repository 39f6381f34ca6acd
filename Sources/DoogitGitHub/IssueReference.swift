/// How a user names an issue: `N`, `#N`, `OWNER/NAME#N`, or its web URL
/// (`https://github.com/OWNER/NAME/issues/N`; a `/pull/N` URL names a pull request).
public struct IssueReference: Equatable, Sendable {
    /// The repository, when the reference names one.
    public var owner: String?
    public var name: String?
    public var number: Int64
    /// The reference is a pull request's URL.
    public var isPullRequest: Bool

    public init(owner: String? = nil, name: String? = nil, number: Int64, isPullRequest: Bool = false) {
        self.owner = owner
        self.name = name
        self.number = number
        self.isPullRequest = isPullRequest
    }

    /// Reads a reference; `hosts` are the web hosts whose URLs are accepted. Nil when the text
    /// fits none of the forms.
    public static func parse(_ text: String, hosts: Set<String> = ["github.com"]) -> IssueReference? {
        if let number = Self.number(text.hasPrefix("#") ? text.dropFirst() : Substring(text)) {
            return IssueReference(number: number)
        }
        if text.hasPrefix("https://") || text.hasPrefix("http://") {
            guard let url = ParsedURL(text) else { return nil }
            let knownHosts = Set(hosts.map { $0.lowercased() }).union(hosts.map { "www." + $0.lowercased() })
            guard knownHosts.contains(url.host.lowercased()) else { return nil }
            var parts = url.path.split(separator: "/", omittingEmptySubsequences: true)
            while parts.count > 4 { parts.removeLast() }
            guard parts.count == 4, parts[2] == "issues" || parts[2] == "pull",
                  let repository = RepositoryReference.parse("\(parts[0])/\(parts[1])"),
                  let number = Self.number(parts[3]) else { return nil }
            return IssueReference(owner: repository.owner, name: repository.name, number: number,
                                  isPullRequest: parts[2] == "pull")
        }
        guard let hash = text.lastIndex(of: "#"), let number = Self.number(text[text.index(after: hash)...]),
              case .full(let owner, let name)? = RepositoryReference.parse(String(text[..<hash]), hosts: hosts)
        else { return nil }
        return IssueReference(owner: owner, name: name, number: number)
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text), value > 0 else {
            return nil
        }
        return value
    }
}
