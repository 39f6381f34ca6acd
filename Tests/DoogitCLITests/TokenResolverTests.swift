import Testing
@testable import DoogitCLI

/// The token chain: GH_TOKEN, GITHUB_TOKEN, the saved file, then `gh auth token`.
@Suite struct TokenResolverTests {
    /// A harness whose saved token (when given) is in $XDG_CONFIG_HOME/doogit/token.
    func harness(_ environment: [String: String], saved: String? = nil, gh: (Int32, String)? = nil) throws -> CLIHarness {
        let harness = CLIHarness(environment: environment)
        harness.environment["XDG_CONFIG_HOME"] = harness.directory.path + "/config"
        if let saved { try harness.writeFile("config/doogit/token", saved) }
        harness.programResult = gh.map { (status: $0.0, output: $0.1) }
        return harness
    }

    func resolver(_ harness: CLIHarness) throws -> TokenResolver {
        let context = harness.context(console: Console(output: CapturingSink(), errors: CapturingSink()))
        return TokenResolver(context: context, configDirectory: try Paths(environment: harness.environment).configDirectory())
    }

    func savedPath(_ harness: CLIHarness) -> String { harness.directory.path + "/config/doogit/token" }

    @Test func ghTokenComesFirst() throws {
        let harness = try harness(["GH_TOKEN": "gh-token", "GITHUB_TOKEN": "github-token"], saved: "saved-token\n",
                                  gh: (0, "cli-token\n"))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "gh-token")
        #expect(token.source == .environment("GH_TOKEN"))
        #expect(harness.programCalls.isEmpty)
    }

    @Test func githubTokenComesSecond() throws {
        let harness = try harness(["GITHUB_TOKEN": "github-token"], saved: "saved-token\n", gh: (0, "cli-token\n"))
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
        let harness = try harness([:], saved: "saved-token\n", gh: (0, "cli-token\n"))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "saved-token")
        #expect(token.source == .savedFile(savedPath(harness)))
        #expect(harness.programCalls.isEmpty)
    }

    @Test func theSavedTokenIsUnderHomeWithoutXDGConfigHome() throws {
        let harness = CLIHarness()
        try harness.writeFile("home/.config/doogit/token", "home-token\n")
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "home-token")
        #expect(token.source == .savedFile(harness.home + "/.config/doogit/token"))
    }

    @Test func anEmptySavedFileIsSkipped() throws {
        let harness = try harness([:], saved: "\n", gh: (0, "cli-token\n"))
        #expect(try resolver(harness).resolve()?.source == .ghCLI)
    }

    @Test func ghIsAskedLast() throws {
        let harness = try harness([:], gh: (0, "gho_cliToken123\n"))
        let token = try #require(try resolver(harness).resolve())
        #expect(token.value == "gho_cliToken123")
        #expect(token.source == .ghCLI)
        #expect(harness.programCalls == [["gh", "auth", "token"]])
    }

    @Test func ghIsAskedForTheConfiguredHost() throws {
        let harness = try harness(["GH_HOST": "ghe.example.com"], gh: (0, "tok\n"))
        _ = try resolver(harness).resolve()
        #expect(harness.programCalls == [["gh", "auth", "token", "--hostname", "ghe.example.com"]])
    }

    @Test(arguments: [(Int32(1), "tok\n"), (Int32(0), ""), (Int32(0), "  \n")])
    func ghFailingOrSilentMeansNoToken(status: Int32, output: String) throws {
        let harness = try harness([:], gh: (status, output))
        #expect(try resolver(harness).resolve() == nil)
        #expect(harness.programCalls == [["gh", "auth", "token"]])
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
        for world in [try harness(["GH_TOKEN": token]), try harness([:], saved: token),
                        try harness([:], gh: (0, token))] {
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
        for source in [TokenSource.environment("GH_TOKEN"), .savedFile("/x/token"), .ghCLI] {
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
        let harness = try harness([:], saved: "ghp_SECRET\u{1B}[2J\n")
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
        #expect(harness.programCalls.allSatisfy { $0 == ["gh", "auth", "token"] })
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
