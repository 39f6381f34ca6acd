/// The words command lines are made of.
extension ArgumentVectorGenerator {
    static let commandPaths: [[String]] = [
        ["todo", "add"], ["todo", "list"], ["todo", "ls"], ["todo", "done"], ["todo", "undo"], ["todo", "edit"],
        ["todo", "rm"], ["todo", "remove"], ["repo", "add"], ["repo", "list"], ["repo", "ls"], ["repo", "remove"],
        ["repo", "rm"], ["repo", "search"], ["sync"], ["auth", "status"], ["auth", "login"], ["auth", "logout"],
        ["help"], ["help", "todo"], ["help", "todo", "add"], ["help", "repo", "search"], ["help", "sync"],
        ["todo"], ["repo"], ["auth"], [],
    ]
    static let commandWords = ["todo", "repo", "sync", "auth", "help", "add", "list", "ls", "done", "undo", "edit",
                               "rm", "remove", "search", "status", "login", "logout"]
    static let flags = ["--json", "--quiet", "-q", "--verbose", "-v", "--help", "-h", "--version", "--force", "-f",
                        "--wait", "--dry-run", "-n", "--open", "--done", "--all-repos", "--ascii", "--with-token",
                        "--", "-", "---", "--=", "-qv", "-vq", "-qf", "-fq", "-nq", "-qn", "-xyz", "-Q", "--JSON",
                        "--colour", "--no-color", "--repo", "-R", "--color", "-hq", "--json=", "--json=true",
                        "--force=yes", "--help=me", "-=", "-R=", "--repo=", "--color=", "-\u{301}", "--\u{1B}[31m"]
    static let optionNames = ["db", "json", "color", "quiet", "verbose", "help", "version", "repo", "force", "wait",
                              "dry-run", "open", "done", "all-repos", "ascii", "with-token"]
    static let colorValues = ["auto", "always", "never", "", "sometimes", "ALWAYS", "never ", "\u{1B}[0m", "always\u{202E}"]
    static let ids = ["0", "1", "2", "3", "4", "5", "6", "7", "42", "-1", "-0", "+1", " 1", "1 ", "01", "00000000001",
                      "99999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                      "18446744073709551616", "1.0", "1.5", "1e3", "0x1", "0b1", "0o7", "1_000", "1,2", "1-3", "１", "٣",
                      "²", "Ⅷ", "", " ", "NaN", "inf", "-inf", "1\u{0}", "1\u{1B}", "３\u{20E3}"]
    static let validReferences = [
        "octocat/Hello-World", "octocat/hello-world", "OCTOCAT/HELLO-WORLD", "Hello-World", "hello-world", "acme/widgets",
        "widgets", "other/widgets", "https://github.com/octocat/Hello-World", "https://github.com/octocat/Hello-World.git",
        "git@github.com:acme/widgets.git", "ssh://git@github.com/acme/widgets.git", "https://www.github.com/acme/widgets/",
        "https://github.com/octocat/Hello-World/issues/3", "nobody/nothing", "ghost", "a/b", "a-b/c.d_e",
    ]
    static let malformedReferences = [
        "a//b", "a/b/c", "a/b/c/d/e/f", "/", "//", "///", "/x", "x/", "owner/", "/name", "https://gitlab.com/a/b",
        "https://github.com.evil.example/a/b", "http://github.com/octocat/Hello-World", "https://github.com/octocat",
        "https://github.com/", "https://github.com", "git@github.com:", "git@gitlab.com:a/b.git", "ssh://git@github.com/",
        "ftp://github.com/a/b", "github.com/a/b", "a b/c", "a/b c", "\ta/b", "a/b\n", "a/b\u{1B}[2J",
        "octocat/Hello-World\u{202E}dlroW", "\u{202E}octocat/x", "a/b\u{7F}", "a/b\u{85}", "a/b\u{9B}31m", "-/x", "-a/b",
        "a/.", "a/..", ".", "..", "a/.git", "https://user:pass@github.com/a/b", "HTTPS://GITHUB.COM/A/B",
        "https://github.com:22/a/b", "git@github.com:a/b/c.git", "a:b", ":", "@", "a@b:c/d", "https://github.com/%2e%2e/x",
        "ｏｃｔｏ/ｘ", "octocat∕x", "a\u{200B}/b", "a/b\u{FEFF}", "javascript:alert(1)", "file:///etc/passwd", "::::",
        "https://", "git@:a/b", "\u{FFFD}/\u{FFFD}", "a/b?x=1", "a/b#frag", "~/x", "$HOME/x", "`id`/x",
        String(repeating: "a", count: 40) + "/x", "x/" + String(repeating: "b", count: 101),
    ]
    static let unicodeWords = [
        "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "漢字", "かな", "한국어", "e\u{301}\u{301}\u{301}", "\u{301}", "Z̸̧̛̖̗a̶l̷g̴o̵", "\u{FFFD}",
        "\u{FFFD}\u{FFFD}", "\u{200D}", "\u{200B}", "\u{FEFF}", "\u{202E}evil\u{202C}", "\u{2066}x\u{2069}", "עברית",
        "العربية", "\u{061C}", "\u{200F}", "Ω", "ß", "ﬁ", "İ", "\u{10FFFF}", "\u{E000}", "\u{1F600}\u{FE0F}", "ǅ",
        "\u{2028}", "\u{2029}", "\u{85}", "\u{A0}", "\u{3000}", "’", "«»", "\\", "\"", "'", "%s%n", "{}", "$(id)",
    ]
    static let textWords = ["write", "docs", "fix", "the", "bug", "release", "notes", "a", "TODO", "-", "--x", "x=y",
                            "done", "add", "todo", "repo", "42", "-3", "#3", "@me"]
    static let controlCharacters: [String] = {
        let values: [UInt32] = Array(0x01...0x1F) + [0x7F] + Array(0x80...0x9F)
        return values.compactMap { Unicode.Scalar($0).map { String(Character($0)) } }
    }()
    /// Strings of about 100,000 characters (no NUL: argv cannot hold one).
    static let longStrings: [String] = [
        String(repeating: "a", count: 100_000),
        String(repeating: "a/", count: 50_000),
        "octocat/" + String(repeating: "x", count: 100_000),
        "https://github.com/" + String(repeating: "o", count: 50_000) + "/" + String(repeating: "n", count: 50_000),
        String(repeating: "é", count: 100_000),
        String(repeating: "\u{1B}[31m", count: 20_000),
        String(repeating: "👍🏽", count: 50_000),
        String(repeating: "1", count: 100_000),
        String(repeating: "word ", count: 20_000),
        String(repeating: "e\u{301}", count: 50_000),
        String(repeating: "\u{202E}漢", count: 50_000),
        "--" + String(repeating: "x", count: 100_000),
        "-" + String(repeating: "q", count: 100_000),
        "--color=" + String(repeating: "z", count: 100_000),
    ]

    static let runnablePaths: [[String]] = [
        ["todo", "add"], ["todo", "add"], ["todo", "list"], ["todo", "ls"], ["todo", "done"], ["todo", "undo"],
        ["todo", "edit"], ["todo", "rm"], ["todo", "remove"], ["repo", "add"], ["repo", "list"], ["repo", "remove"],
        ["repo", "rm"], ["repo", "search"], ["sync"], ["sync"], ["auth", "status"], ["auth", "login"], ["auth", "logout"],
    ]
}
