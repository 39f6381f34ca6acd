/// The base URL of the GitHub REST API: `https://api.github.com`, a GitHub Enterprise
/// `https://HOST/api/v3`, or a loopback server. Plain http is refused for any other host, before
/// any request, so the token never crosses a network in the clear.
public struct APIEndpoint: Equatable, Sendable {
    public let scheme: String
    public let host: String
    public let port: Int?
    /// The path prefix, without a trailing slash (empty for api.github.com).
    public let basePath: String

    public static let github = APIEndpoint(scheme: "https", host: "api.github.com", port: nil, basePath: "")

    init(scheme: String, host: String, port: Int?, basePath: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.basePath = basePath
    }

    public init(_ text: String) throws(GitHubError) {
        guard let url = ParsedURL(text) else {
            throw .invalidAPIURL(text, reason: "expected a URL such as https://api.github.com")
        }
        guard url.scheme == "https" || url.scheme == "http" else {
            throw .invalidAPIURL(text, reason: "only https URLs are supported")
        }
        guard url.query == nil else { throw .invalidAPIURL(text, reason: "a query string is not allowed") }
        if url.scheme == "http" && !Self.isLoopback(url.host) {
            throw .invalidAPIURL(text, reason: "plain http is allowed only for loopback hosts; use https")
        }
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        self.init(scheme: url.scheme, host: url.host, port: url.port, basePath: path)
    }

    /// `GH_HOST`: github.com itself, or a GitHub Enterprise Server host.
    public static func forHost(_ host: String) throws(GitHubError) -> APIEndpoint {
        let trimmed = host.lowercased()
        if trimmed == "github.com" || trimmed == "api.github.com" { return .github }
        return try APIEndpoint("https://\(host)/api/v3")
    }

    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "[::1]" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    public var origin: String {
        "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    /// The API's scheme, host and port as one text, the way a saved token is kept: lowercase, the
    /// port only when it is not the scheme's own (`https://api.github.com`, `http://127.0.0.1:8080`).
    public var canonicalOrigin: String {
        let explicitPort = port.flatMap { $0 == Self.defaultPort(scheme) ? nil : $0 }
        return "\(scheme)://\(host.lowercased())" + (explicitPort.map { ":\($0)" } ?? "")
    }

    /// The host `gh` knows this API by (`gh auth token --hostname HOST`), which is its web host:
    /// `github.com` for `api.github.com`, `TENANT.ghe.com` for `api.TENANT.ghe.com`, and a GitHub
    /// Enterprise Server's own host for `https://HOST/api/v3`. gh's host names have no port.
    public var ghHostname: String {
        let lowered = host.lowercased()
        if lowered == "api.github.com" { return "github.com" }
        if lowered.hasPrefix("api.") && (lowered.hasSuffix(".ghe.com") || lowered == "api.github.localhost") {
            return String(lowered.dropFirst(4))
        }
        return lowered
    }

    /// Whether `url` is an `https://` page of GitHub's web: of this API's web host, or of one of
    /// `hosts` (github.com, GH_HOST). A URL that came from other machines' files is handed to a
    /// browser only then: never another scheme (`file:`, `javascript:`), host or port.
    public func isWebPage(_ url: String, alsoOn hosts: Set<String> = []) -> Bool {
        guard let parsed = ParsedURL(url), parsed.scheme == "https", parsed.port == nil || parsed.port == 443 else { return false }
        let host = parsed.host.lowercased()
        return host == ghHostname || hosts.contains(host)
    }

    /// The scheme, host and port of `url`, for a message; the text before its path when it is
    /// not a URL doogit reads (raw Unicode, spaces).
    public static func origin(of url: String) -> String {
        if let parsed = ParsedURL(url) { return "\(parsed.scheme)://\(parsed.host)" + (parsed.port.map { ":\($0)" } ?? "") }
        guard let separator = url.range(of: "://") else { return url }
        let end = url[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        return String(url[..<end])
    }

    /// The absolute URL of an API path such as `/repos/octocat/hello`.
    public func url(_ path: String) -> String {
        origin + basePath + path
    }

    /// Whether `url` is on this API's scheme, host and port: only there is the token sent.
    public func isSameOrigin(_ url: String) -> Bool {
        guard let parsed = ParsedURL(url) else { return false }
        return parsed.scheme == scheme && parsed.host.lowercased() == host.lowercased()
            && (parsed.port ?? Self.defaultPort(scheme)) == (port ?? Self.defaultPort(scheme))
    }

    private static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }
}

/// The parts of an absolute http(s) URL that doogit needs. Accepts printable ASCII only (no
/// whitespace, controls or raw Unicode) and no userinfo, so nothing surprising reaches libcurl or
/// a log line.
struct ParsedURL: Equatable {
    var scheme: String
    var host: String
    var port: Int?
    var path: String
    var query: String?

    init?(_ text: String) {
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
              let separator = text.range(of: "://") else { return nil }
        scheme = text[..<separator.lowerBound].lowercased()
        var rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.startIndex...close])
            let after = authority[authority.index(after: close)...]
            if after.isEmpty {
                port = nil
            } else {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()), (1...65535).contains(number) else {
                    return nil
                }
                port = number
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                return nil
            }
            port = number
        } else {
            host = String(authority)
            port = nil
        }
        guard !host.isEmpty else { return nil }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        } else {
            query = nil
        }
        path = String(rest)
    }
}

extension StringProtocol {
    func range(of needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(needle) {
                return index..<(self.index(index, offsetBy: needle.count))
            }
            index = self.index(after: index)
        }
        return nil
    }
}
