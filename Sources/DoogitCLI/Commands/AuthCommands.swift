import DoogitGitHub
import DoogitSupport

/// `doogit auth ...`: the GitHub token. The token itself is never printed.
enum AuthCommands {
    static let group = CommandSpec(
        name: "auth", abstract: "Sign in to GitHub and check the token",
        discussion: """
            doogit looks for a token in GH_TOKEN, then GITHUB_TOKEN, then the token saved by \
            'doogit auth login --with-token', then 'gh auth token' when the GitHub CLI is installed.
            """,
        subcommands: [status, login, logout])

    static let status = CommandSpec(
        name: "status", abstract: "Show which token is used and whether GitHub accepts it",
        discussion: "With --json, 'source' is where the token came from: GH_TOKEN, GITHUB_TOKEN, saved (by 'doogit auth login') or gh.",
        examples: ["doogit auth status", "doogit auth status --json"],
        run: runStatus)

    static let login = CommandSpec(
        name: "login", abstract: "Save a token for doogit to use",
        options: [OptionSpec("with-token", help: "read the token from standard input (required)")],
        discussion: """
            Reads a token from standard input, checks it with GitHub, and saves it in \
            $XDG_CONFIG_HOME/doogit/token (mode 0600). On a terminal it asks for the token and does \
            not show what is typed or pasted. A token in GH_TOKEN or GITHUB_TOKEN still takes \
            precedence.
            """,
        examples: ["doogit auth login --with-token < token.txt", "gh auth token | doogit auth login --with-token"],
        run: runLogin)

    static let logout = CommandSpec(
        name: "logout", abstract: "Forget the token saved by 'doogit auth login'",
        examples: ["doogit auth logout"],
        run: runLogout)

    static func runStatus(_ invocation: Invocation, _ runtime: Runtime) throws {
        let endpoint = try runtime.endpoint()
        guard let token = try runtime.tokenResolver().resolve() else { throw GitHubError.missingToken }
        runtime.useToken(from: token.source)
        let user = try runtime.makeClient(endpoint: endpoint, token: token.value).currentUser()
        if runtime.global.json {
            runtime.printJSON { JSONOutput.authStatus(host: endpoint.host, user: user, tokenSource: token.source.identifier, into: &$0) }
            return
        }
        runtime.console.print("Signed in to \(endpoint.host) as \(TerminalText.sanitize(user.login))")
        runtime.console.print("Token from \(token.source.description)")
        if let scopes = user.scopes {
            let list = scopes.isEmpty ? "none" : scopes.map(TerminalText.sanitize).joined(separator: ", ")
            runtime.console.print("Token scopes: \(list)")
        }
    }

    static func runLogin(_ invocation: Invocation, _ runtime: Runtime) throws {
        guard invocation.flag("with-token") else {
            throw UsageError(message: "'doogit auth login' needs --with-token and the token on standard input",
                             topic: invocation.path)
        }
        let token: String
        if runtime.context.standardInputIsTerminal {
            // Typed or pasted by a person: asked for, and not shown on the screen.
            runtime.console.flush()
            token = runtime.context.readHiddenLine("Paste a GitHub token (it is not shown), then press Enter: ")?.trimmingSpaces ?? ""
        } else {
            token = runtime.context.readStandardInput().trimmingSpaces
        }
        guard !token.isEmpty else {
            throw UsageError(message: "no token on standard input", topic: invocation.path)
        }
        guard TokenResolver.isWellFormed(token) else {
            throw MalformedTokenError(message: "that is not a valid token (it has spaces or control characters)",
                                      hint: "paste the token alone, as GitHub showed it")
        }
        let endpoint = try runtime.endpoint()
        runtime.useToken(from: nil, signingIn: true)
        let user = try runtime.makeClient(endpoint: endpoint, token: token).currentUser()
        let directory = try runtime.paths.configDirectory()
        if let reason = Files.createDirectories(directory, mode: 0o700) {
            throw CommandFailure(message: "cannot create \(directory): \(reason)", hint: nil)
        }
        let path = directory + "/token"
        if let reason = Files.writeAtomically(token + "\n", to: path, mode: 0o600) {
            throw CommandFailure(message: "cannot save the token in \(path): \(reason)", hint: nil)
        }
        runtime.say("Signed in to \(endpoint.host) as \(TerminalText.sanitize(user.login)); token saved in \(path)")
        for name in ["GH_TOKEN", "GITHUB_TOKEN"] where runtime.context.variable(name) != nil {
            runtime.note("\(name) is set and takes precedence over the saved token")
        }
    }

    static func runLogout(_ invocation: Invocation, _ runtime: Runtime) throws {
        let path = try runtime.paths.configDirectory() + "/token"
        guard Files.exists(path) else {
            runtime.say("No token is saved")
            return
        }
        if let reason = Files.remove(path) {
            throw CommandFailure(message: "cannot remove \(path): \(reason)", hint: nil)
        }
        runtime.say("Removed the saved token")
        for name in ["GH_TOKEN", "GITHUB_TOKEN"] where runtime.context.variable(name) != nil {
            runtime.note("\(name) is still set; doogit will keep using it")
        }
    }
}
