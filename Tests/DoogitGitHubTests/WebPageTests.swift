import DoogitGitHub
import Testing

/// Links read from other machines' files go to a browser only when they are https:// pages of
/// GitHub's web: the API's web host, or github.com and GH_HOST.
@Suite struct WebPageTests {
    @Test(arguments: [
        ("https://api.github.com", "https://github.com/octocat/app/issues/3", true),
        ("https://api.github.com", "https://GitHub.com/octocat/app", true),
        ("https://api.github.com", "https://github.com:443/octocat/app", true),
        ("https://ghe.example.com/api/v3", "https://ghe.example.com/corp/app/issues/1", true),
        ("https://ghe.example.com/api/v3", "https://github.com/octocat/app", true),
        ("https://api.github.com", "http://github.com/octocat/app", false),
        ("https://api.github.com", "file:///etc/passwd", false),
        ("https://api.github.com", "javascript:alert(1)", false),
        ("https://api.github.com", "https://evil.example/octocat/app", false),
        ("https://api.github.com", "https://github.com.evil.example/x", false),
        ("https://api.github.com", "https://github.com@evil.example/x", false),
        ("https://api.github.com", "https://github.com:8443/x", false),
        ("https://api.github.com", "https://github.com/a b", false),
        ("https://api.github.com", "https://github.com/\u{1B}]0;x\u{7}", false),
    ])
    func onlyGitHubsPagesOpen(api: String, url: String, opens: Bool) throws {
        #expect(try APIEndpoint(api).isWebPage(url, alsoOn: ["github.com"]) == opens)
    }
}
