import Testing
@testable import DoogitCLI

/// The token chain: GH_TOKEN, GITHUB_TOKEN, the token saved for the API's origin, then
/// `gh auth token --hostname` of the API's host.
@Suite struct TokenResolverTests {
    /// A harness whose saved tokens (when given) are in $XDG_CONFIG_HOME/doogit/tokens, and an
    /// older doogit's single token (when given) in $XDG_CONFIG_HOME/doogit/token.
    func harness(_ environment: [String: String], saved: String? = nil, older: String? = nil,
                 gh: (Int32, String)? = nil) throws -> CLIHarness {
        let harness = CLIHarness(environment: environment)
        harness.environment["XDG_CONFIG_HOME"] = harness.directory.path + "/config"
        if let saved { try harness.writeFile("config/doogit/tokens", saved) }
        if let older { try harness.writeFile("config/doogit/token", older) }
        harness.programResult = gh.map { (status: $0.0, output: $0.1) }
        return harness
    }

    func resolver(_ harness: CLIHarness) throws -> TokenResolver {
        let context = harness.context(console: Console(output: CapturingSink(), errors: CapturingSink()))
        let runtime = Runtime(context: context, global: GlobalOptions())
        return runtime.tokenResolver(for: try runtime.endpoint())
    }

    func savedPath(_ harness: CLIHarness) -> String { harness.directory.path + "/config/doogit/tokens" }
    func olderPath(_ harness: CLIHarness) -> String { harness.directory.path + "/config/doogit/token" }

    static let github = "https://api.github.com"

    @Test func ghTokenComesFirst() throws {
        let harness = try harness(["GH_TOKEN": "gh-token", "GITHUB_TOKEN": "github-token"],
                                  saved: "\(Self.github) saved-token\n", gh: (0, "cli-token\n"))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "gh-token")
        #expect(token.source == .environment("GH_TOKEN"))
        #expect(harness.programCalls.isEmpty)
    }

    @Test func githubTokenComesSecond() throws {
        let harness = try harness(["GITHUB_TOKEN": "github-token"], saved: "\(Self.github) saved-token\n",
                                  gh: (0, "cli-token\n"))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "github-token")
        #expect(token.source == .environment("GITHUB_TOKEN"))
        #expect(harness.programCalls.isEmpty)
    }

    @Test func anEmptyVariableIsNotSet() throws {
        let harness = try harness(["GH_TOKEN": "", "GITHUB_TOKEN": "github-token"])
        #expect(try resolver(harness).resolve()?.source == .environment("GITHUB_TOKEN"))
    }

    @Test func theSavedTokenComesThird() throws {
        let harness = try harness([:], saved: "# comment\n\n\(Self.github) saved-token\n", gh: (0, "cli-token\n"))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "saved-token")
        #expect(token.source == .saved(path: savedPath(harness), origin: Self.github))
        #expect(harness.programCalls.isEmpty)
    }

    /// Each origin has its own token, and the API's origin picks it: a token saved for one is
    /// never had for another, whatever the case or the default port it was written with.
    @Test(arguments: [
        ([:], "github-token"),
        (["DOOGIT_API_URL": "https://api.github.com:443/"], "github-token"),
        (["GH_HOST": "ghe.example.com"], "ghe-token"),
        (["DOOGIT_API_URL": "https://GHE.example.com/api/v3"], "ghe-token"),
        (["DOOGIT_API_URL": "https://ghe.example.com:8443/api/v3"], "ghe-8443-token"),
        (["DOOGIT_API_URL": "http://127.0.0.1:8080"], "loopback-token"),
    ])
    func eachOriginHasItsOwnSavedToken(environment: [String: String], expected: String) throws {
        let saved = """
            https://ghe.example.com ghe-token
            HTTPS://API.GITHUB.COM:443 github-token
            https://ghe.example.com:8443 ghe-8443-token
            http://127.0.0.1:8080 loopback-token

            """
        let harness = try harness(environment, saved: saved, gh: (0, "cli-token\n"))
        #expect(try resolver(harness).resolve()?.value == expected)
        #expect(harness.programCalls.isEmpty)
    }

    @Test(arguments: [
        [:], ["GH_HOST": "ghe.example.com"], ["DOOGIT_API_URL": "https://ghe.example.com/api/v3"],
        ["DOOGIT_API_URL": "http://localhost:8080"], ["DOOGIT_API_URL": "http://127.0.0.1:9"],
    ])
    func aTokenSavedForAnotherOriginIsNotHad(environment: [String: String]) throws {
        let harness = try harness(environment, saved: "https://other.example.com elsewhere-token\nhttp://127.0.0.1:8080 loopback-token\n",
                                  gh: nil)
        #expect(try resolver(harness).resolve() == nil)
        #expect(harness.programCalls.count == 1, "gh is asked instead")
    }

    /// An older doogit's single token file belongs to https://api.github.com, the one API older
    /// doogit used by default, and to no other.
    @Test func anOlderTokenFileIsForAPIGitHubComOnly() throws {
        let harness = try harness([:], older: "older-token\n", gh: (1, ""))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "older-token")
        #expect(token.source == .saved(path: olderPath(harness), origin: Self.github))
        for environment in [["GH_HOST": "ghe.example.com"], ["DOOGIT_API_URL": "http://127.0.0.1:8080"]] {
            let elsewhere = try self.harness(environment, older: "older-token\n", gh: (1, ""))
            #expect(try resolver(elsewhere).resolve() == nil, "\(environment)")
        }
        // A token saved for api.github.com since wins over the older file.
        let both = try self.harness([:], saved: "\(Self.github) newer-token\n", older: "older-token\n")
        #expect(try resolver(both).resolve()?.value == "newer-token")
    }

    @Test func theSavedTokenIsUnderHomeWithoutXDGConfigHome() throws {
        let harness = CLIHarness()
        try harness.writeFile("home/.config/doogit/tokens", "\(Self.github) home-token\n")
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "home-token")
        #expect(token.source == .saved(path: harness.home + "/.config/doogit/tokens", origin: Self.github))
    }

    @Test func anEmptySavedFileIsSkipped() throws {
        for world in [try harness([:], saved: "\n", gh: (0, "cli-token\n")), try harness([:], older: "\n", gh: (0, "cli-token\n"))] {
            #expect(try resolver(world).resolve()?.source == .ghCLI(hostname: "github.com"))
        }
    }

    @Test func ghIsAskedLast() throws {
        let harness = try harness([:], gh: (0, "gho_cliToken123\n"))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "gho_cliToken123")
        #expect(token.source == .ghCLI(hostname: "github.com"))
        #expect(harness.programCalls == [["gh", "auth", "token", "--hostname", "github.com"]])
    }

    /// gh knows a GitHub by its web host: api.github.com's is github.com, a tenant's API
    /// api.TENANT.ghe.com is TENANT.ghe.com's, and a GitHub Enterprise Server's API is on its own
    /// host. gh's host names have no port.
    @Test(arguments: [
        ([:], "github.com"),
        (["GH_HOST": "github.com"], "github.com"),
        (["GH_HOST": "ghe.example.com"], "ghe.example.com"),
        (["DOOGIT_API_URL": "https://ghe.example.com/api/v3"], "ghe.example.com"),
        (["DOOGIT_API_URL": "https://GHE.Example.com:8443/api/v3"], "ghe.example.com"),
        (["DOOGIT_API_URL": "https://api.acme.ghe.com"], "acme.ghe.com"),
        (["DOOGIT_API_URL": "https://api.github.com"], "github.com"),
        (["DOOGIT_API_URL": "http://127.0.0.1:8080"], "127.0.0.1"),
        (["DOOGIT_API_URL": "http://localhost:8080", "GH_HOST": "ghe.example.com"], "localhost"),
    ])
    func ghIsAskedForTheAPIsHost(environment: [String: String], hostname: String) throws {
        let harness = try harness(environment, gh: (0, "tok\n"))
        #expect(try resolver(harness).resolve()?.source == .ghCLI(hostname: hostname))
        #expect(harness.programCalls == [["gh", "auth", "token", "--hostname", hostname]])
    }

    /// A file of saved tokens that cannot be read, or holds a line that is not `ORIGIN TOKEN`,
    /// is exit 4 naming the file and what to do; the line (which may hold a token) is not shown.
    @Test(arguments: ["ghp_SECRET\n", "https://api.github.com\n", "https://api.github.com ghp_SECRET extra\n",
                      "https://api.github.com/api/v3 ghp_SECRET\n", "http://example.com ghp_SECRET\n",
                      "api.github.com ghp_SECRET\n"])
    func aMalformedTokensFileIsExitFourNamingIt(text: String) throws {
        let harness = try harness([:], saved: "# saved\n" + text, gh: (0, "cli-token\n"))
        let failure = try #require(throws: TokenFileError.self) { try resolver(harness).resolve() }
        let report = ErrorReporter.report(failure, databasePath: nil)
        #expect(report.code == .authentication)
        #expect(report.message.contains(savedPath(harness)) && report.message.contains("line 2"), "\(report.message)")
        #expect(report.message.contains("doogit auth login --with-token"))
        #expect(!report.message.contains("SECRET"))
        let result = harness.run("auth", "status")
        #expect(result.code == 4 && result.errorLines.count == 1 && !result.stderr.contains("SECRET"), "\(result.stderr)")
        #expect(harness.transport.requests.isEmpty && harness.programCalls.isEmpty)
    }

    @Test func anUnreadableTokensFileIsExitFourNamingIt() throws {
        for name in ["tokens", "token"] {
            let harness = try harness([:], gh: (0, "cli-token\n"))
            try harness.makeDirectory("config/doogit/\(name)")
            let result = harness.run("auth", "status")
            #expect(result.code == 4, "\(result.stderr)")
            #expect(result.errorLines.count == 1)
            #expect(result.stderr.contains(harness.directory.path + "/config/doogit/\(name) cannot be read (Is a directory)"), "\(result.stderr)")
            #expect(harness.transport.requests.isEmpty)
        }
    }

    @Test(arguments: [(Int32(1), "tok\n"), (Int32(0), ""), (Int32(0), "  \n")])
    func ghFailingOrSilentMeansNoToken(status: Int32, output: String) throws {
        let harness = try harness([:], gh: (status, output))
        #expect(try resolver(harness).resolve() == nil)
        #expect(harness.programCalls == [["gh", "auth", "token", "--hostname", "github.com"]])
    }

    @Test func ghNotInstalledMeansNoToken() throws {
        let harness = try harness([:], gh: nil)
        #expect(try resolver(harness).resolve() == nil)
        #expect(harness.programCalls.count == 1)
    }

    @Test func surroundingWhiteSpaceIsNotPartOfTheToken() throws {
        let harness = try harness(["GH_TOKEN": "  ghp_abc123 \n"])
        #expect(try resolver(harness).resolve()?.value == "ghp_abc123")
    }

    @Test(arguments: ["ghp_a b", "ghp_a\nsecond", "ghp_a\r\nX-Evil: 1", "ghp_\u{1B}[2J", "ghp_é", "ghp_a\tb",
                      String(repeating: "a", count: 1025)])
    func malformedTokensAreRefused(token: String) throws {
        #expect(!TokenResolver.isWellFormed(token))
        for world in [try harness(["GH_TOKEN": token]), try harness([:], older: token), try harness([:], gh: (0, token))] {
            let failure = try #require(throws: MalformedTokenError.self) { try resolver(world).resolve() }
            let report = ErrorReporter.report(failure, databasePath: nil)
            #expect(report.code == .authentication)
            #expect(!report.message.contains(token))
            #expect(!report.message.contains("ghp_"))
        }
    }

    @Test(arguments: ["ghp_abcdefABCDEF0123456789", "github_pat_11ABC_xyz", "gho_x", String(repeating: "a", count: 1024)])
    func wellFormedTokens(token: String) {
        #expect(TokenResolver.isWellFormed(token))
    }

    @Test func sourcesNeverNameTheToken() {
        for source in [TokenSource.environment("GH_TOKEN"), .saved(path: "/x/tokens", origin: Self.github), .ghCLI(hostname: "github.com")] {
            #expect(!source.description.isEmpty)
        }
        #expect(TokenSource.environment("GITHUB_TOKEN").description == "the GITHUB_TOKEN environment variable")
    }

    // MARK: In-process: exit 4, no request, no token in the output

    @Test func malformedTokenIsExitFourBeforeAnyRequest() throws {
        let secret = "ghp_SECRET value"
        let harness = try harness(["GH_TOKEN": secret])
        for arguments in [["auth", "status"], ["repo", "add", "octocat/Hello-World"], ["repo", "search"], ["sync"]] {
            let result = harness.run(arguments)
            #expect(result.code == 4, "\(arguments)")
            #expect(result.errorLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("doogit: error: "))
            #expect(result.stderr.contains("GH_TOKEN"))
            #expect(!result.stderr.contains("SECRET"))
            #expect(!result.stdout.contains("SECRET"))
        }
        #expect(harness.transport.requests.isEmpty)
    }

    @Test func malformedSavedTokenIsExitFour() throws {
        let harness = try harness([:], older: "ghp_SECRET\u{1B}[2J\n")
        let result = harness.run("auth", "status")
        #expect(result.code == 4)
        #expect(result.errorLines.count == 1)
        #expect(!result.stderr.contains("SECRET"))
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(harness.transport.requests.isEmpty)
    }

    @Test func noTokenAnywhereIsExitFourSayingWhatToDo() throws {
        let harness = try harness([:], gh: nil)
        for arguments in [["auth", "status"], ["repo", "add", "octocat/Hello-World"]] {
            let result = harness.run(arguments)
            #expect(result.code == 4)
            #expect(result.errorLines.count == 1)
            #expect(result.stderr.hasPrefix("doogit: error: "))
            #expect(result.stderr.contains("GH_TOKEN"))
            #expect(result.stderr.contains("doogit auth login --with-token"))
        }
        #expect(harness.programCalls.allSatisfy { $0 == ["gh", "auth", "token", "--hostname", "github.com"] })
        #expect(!harness.programCalls.isEmpty)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test func localCommandsNeverLookForAToken() throws {
        let harness = try harness([:], gh: (0, "tok\n"))
        #expect(harness.run("todo", "list").code == 0)
        #expect(harness.run("repo", "list").code == 0)
        #expect(harness.run("help").code == 0)
        #expect(harness.programCalls.isEmpty)
        #expect(harness.transportsMade == 0)
    }

    @Test func plainHTTPToARemoteHostIsRefusedBeforeAnyRequest() throws {
        let harness = try harness(["GH_TOKEN": "ghp_valid", "DOOGIT_API_URL": "http://example.com"])
        let result = harness.run("auth", "status")
        #expect(result.code == 1)
        #expect(result.errorLines.count == 1)
        #expect(!result.stderr.contains("ghp_valid"))
        #expect(harness.transport.requests.isEmpty)
    }
}
