import DoogitGitHub
import DoogitSupport
import TestSupport

/// An HTTPTransport whose answers are drawn from a seeded generator: random statuses, headers
/// (garbage included) and bodies, or transport errors. It records every request.
final class ScriptedTransport: HTTPTransport {
    private var random: SplitMix64
    private let origin: String
    private let apiPrefix: String
    /// After this many requests the server stops answering, so every call ends quickly.
    let budget = 30
    private(set) var requests: [HTTPRequest] = []

    init(random: SplitMix64, origin: String, apiPrefix: String) {
        self.random = random
        self.origin = origin
        self.apiPrefix = apiPrefix
    }

    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        requests.append(request)
        guard requests.count <= budget else { throw .connection("the scripted server stopped answering") }
        if chance(0.08) {
            throw [TransportError.connection("refused"), .timeout, .tooLarge(limit: 1 << 20), .protocolError("garbled"),
                   .connection("\u{1B}[31mred\u{1B}[0m"), .unavailable("no libcurl")][int(0...5)]
        }
        let status: Int
        switch int(0...99) {
        case 0...41: status = 200
        case 42...45: status = 304
        case 46...57: status = pick([301, 302, 303, 307, 308])
        case 58...75: status = pick([401, 403, 404, 410, 422, 429, 451, 500, 502, 503, 504])
        case 76...80: status = pick([300, 305, 306, 399, 201, 204, 206, 299])
        default: status = int(100...599)
        }
        var headers: [(name: String, value: String)] = []
        if chance(0.25) { headers.append(("retry-after", pick(Self.numbers))) }
        if chance(0.3) { headers.append(("x-ratelimit-remaining", pick(Self.numbers))) }
        if chance(0.3) { headers.append(("x-ratelimit-reset", pick(Self.numbers + Self.resets))) }
        if chance((300..<400).contains(status) ? 0.85 : 0.1) { headers.append(("location", location())) }
        if chance(status == 200 ? 0.4 : 0.1) { headers.append(("link", link())) }
        if chance(0.3) { headers.append(("etag", pick(Self.etags))) }
        if chance(0.2) { headers.append(("x-oauth-scopes", pick(Self.scopes))) }
        if chance(0.05) { headers.append(("x-github-sso", pick(["required; url=https://github.com/orgs/x/sso", "partial-results", ""]))) }
        if chance(0.05) { headers.append(("x-accepted-oauth-scopes", pick(["repo", "", "\u{7}"]))) }
        if chance(0.05) { headers.append((pick(["retry-after", "x-ratelimit-remaining", "location"]), "")) }
        return HTTPResponse(status: status, headers: headers, body: body(status: status, url: request.url))
    }

    private func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    private func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    static let numbers = [
        "0", "0", "1", "2", "5", "59", "60", "3600", "-1", "-60", "", " ", "abc", "1.5", "1e3", "+5", "0x10", " 7", "7 ",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999",
        "4611686018427387904", "9223372036854775", "9223372036854776", "-9223372036854776", "Wed, 21 Oct 2015 07:28:00 GMT",
        "\u{0}", "7\r\nx-injected: 1", String(repeating: "9", count: 1000), "٣", "１",
    ]
    static let scopes = ["repo, read:org", "", ",,,", " repo ", "\u{1B}[2J", String(repeating: "s,", count: 5000)]
    static let longText = String(repeating: "m", count: 20_000)
    static let longLocation = "https://evil.example/" + String(repeating: "x", count: 10_000)
    static let manyLinks = String(repeating: "<a>; rel=x, ", count: 2000)
    static let fixtureTexts = JSONFuzzer.fixtureNames.map { Fixtures.text($0) }
    static let resets = ["9223372036854775", "-9223372036854775", "1700000000", "4102444800", "1", "-1", "253402300800", "32503680000", "-62135596800"]
    static let etags = ["\"abc\"", "W/\"abc\"", "", "\u{1B}[2J", "x\r\nx-injected: 1", String(repeating: "e", count: 10_000), "\"\u{FFFD}\""]

    private func location() -> String {
        if chance(0.5) {
            return pick(["/repositories/42", "/repos/octocat/Hello-World", apiPrefix + "/repositories/43", apiPrefix + "/user",
                         apiPrefix + "/user/repos?page=3"])
        }
        return pick([
            "/repositories/42", "/repos/octocat/Hello-World", apiPrefix + "/repositories/43", origin, origin + "/",
            origin + ":443/repositories/44", origin.uppercased() + "/repositories/45", origin + "/repositories/46?x=1#frag",
            "https://evil.example/steal", "https://evil.example:443/x", "http://evil.example/x", "http://127.0.0.1:1/x",
            "http://localhost/x", "http://[::1]/x", "https://api.github.com.evil.example/x", "https://api.github.com@evil.example/x",
            "https://evil.example@api.github.com/x", "//evil.example/x", "evil", "", " ", "::::", "javascript:alert(1)",
            "https://", "https:///x", "https://[::1]/x", "https://api.github.com:99999/x", "https://api.github.com:0/x",
            "https://ghe.example.com/api/v3/repositories/1", "https://evil.example/\u{1B}[31m", "ftp://api.github.com/x",
            Self.longLocation, "http://127.0.0.1:8080/repositories/47",
            "https://[::1]:8443/api/repositories/48", "HTTPS://EVIL.EXAMPLE/X", "https://api.github.com\u{0}.evil.example/",
            "https://api.github.com./x", "/\u{202E}x", "https://api.github.com:443@evil.example/",
        ])
    }

    private func link() -> String {
        let page = int(2...5)
        let url = pick([
            apiPrefix + "/user/repos?page=\(page)", apiPrefix + "/user/repos?per_page=100&page=\(page)",
            "https://evil.example/user/repos?page=2", "http://127.0.0.1:1/x", "/user/repos?page=2", "garbage", "",
            origin.uppercased() + "/user/repos?page=\(page)", "https://api.github.com@evil.example/p",
        ])
        return pick([
            "<\(url)>; rel=\"next\"", "<\(url)>; rel=\"next\", <\(apiPrefix)/user/repos?page=9>; rel=\"last\"",
            "<\(url)>; rel=next", "<\(url)>; rel=\"prev next\"", "<\(url)>;rel=next;", "<", "<x", "rel=\"next\"",
            "<>; rel=\"next\"", "<\(url)>; rel=\"last\"", "<\(url)>; rel=\"next", ";;;,,,<<>>", Self.manyLinks,
        ])
    }

    private func body(status: Int, url: String) -> [UInt8] {
        if status == 200 && chance(0.8) {
            if url.contains("/user/repos") { return Array(repositoryList().utf8) }
            if url.hasSuffix("/user") { return Array(user().utf8) }
            return Array(repository().utf8)
        }
        if status >= 400 && chance(0.4) {
            let message = pick(["Not Found", "API rate limit exceeded for 1.2.3.4.", "Bad credentials", "",
                                "\u{1B}]0;owned\u{7}", Self.longText, "Validation Failed"])
            let errors = chance(0.3) ? ",\"errors\":[{\"field\":\"title\",\"code\":\"missing_field\"},{\"message\":1},7,null]" : ""
            return Array("{\"message\":\(JSONWriter.write(.string(message)).dropLast())\(errors)}".utf8)
        }
        switch int(0...12) {
        case 0: return []
        case 1: return Array(pick(["null", "[]", "{}", "0", "\"x\"", "true"]).utf8)
        case 2: return Array("<html><body>502 Bad Gateway</body></html>".utf8)
        case 3: return Array(repository().utf8)
        case 4: return Array(user().utf8)
        case 5: return Array(repositoryList().utf8)
        case 6:
            var bytes = Array(pick(Self.fixtureTexts).utf8)
            for _ in 0..<int(1...4) where !bytes.isEmpty { bytes[int(0...(bytes.count - 1))] ^= UInt8.random(in: 1...255, using: &random) }
            return bytes
        case 7: return Self.deep
        case 8: return (0..<int(0...64)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 9: return [0xFF, 0xFE] + Array("{\"id\":1}".utf8)
        case 10: return Self.longMessage
        default: return Array(pick(Self.fixtureTexts).utf8)
        }
    }

    static let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
    static let longMessage = Array(("{\"message\":\"" + String(repeating: "x", count: 1 << 16) + "\"}").utf8)

    private func repository() -> String {
        if chance(0.6) {
            let id = int(1...1_000_000)
            return "{\"id\":\(id),\"name\":\"r\(id)\",\"full_name\":\"octocat/r\(id)\",\"owner\":{\"login\":\"octocat\"},"
                + "\"html_url\":\"https://github.com/octocat/r\(id)\",\"private\":false,\"description\":null}"
        }
        let id = pick(["1296269", "1", "0", "-5", "9223372036854775807", "9223372036854775808", "1.5", "\"7\"", "null"])
        let owner = pick(["octocat", "", "\u{1B}[31mred", "a/b", "👍🏽"])
        let name = pick(["Hello-World", "", "x\u{202E}y", String(repeating: "n", count: 1000)])
        let description = pick(["null", "\"a description\"", "\"\\u001b[2J\"", "7", "\"\\uD800\""])
        let archived = pick(["true", "false", "null", "\"yes\""])
        return "{\"id\":\(id),\"name\":\(JSONWriter.write(.string(name)).dropLast()),\"full_name\":\"\(owner)/x\","
            + "\"owner\":{\"login\":\(JSONWriter.write(.string(owner)).dropLast())},\"html_url\":\"https://github.com/x\","
            + "\"private\":false,\"archived\":\(archived),\"description\":\(description)}"
    }

    private func user() -> String {
        if chance(0.6) { return "{\"login\":\"octocat\",\"id\":1}" }
        return pick(["{\"login\":\"octocat\",\"id\":1}", "{\"login\":\"\",\"id\":-1}", "{\"login\":7,\"id\":1}", "{\"id\":1}",
              "{\"login\":\"x\",\"id\":99999999999999999999}", Self.fixtureTexts[4]])
    }

    private func repositoryList() -> String {
        "[" + (0..<int(0...3)).map { _ in repository() }.joined(separator: ",") + "]"
    }
}
