import DoogitGitHub
import DoogitStore
import DoogitSupport

/// `doogit auth ...`: the GitHub token. The token itself is never printed.
enum AuthCommands {
    static let group = CommandSpec(
        name: "auth", abstract: "Sign in to GitHub and check the token",
        discussion: """
            doogit looks for a token in GH_TOKEN, then GITHUB_TOKEN, then the token saved by \
            'doogit auth login --with-token' for the API's origin (its scheme, host and port), then \
            'gh auth token --hostname HOST' for the API's host when the GitHub CLI is installed. A token \
            saved or kept by gh for one host is never sent to another.
            """,
        subcommands: [status, login, logout])

    static let status = CommandSpec(
        name: "status", abstract: "Show which token is used and whether GitHub accepts it",
        discussion: """
            Names the API's origin, the account and where the token came from. With --json, 'origin' \
            is the API's origin and 'source' where the token came from: GH_TOKEN, GITHUB_TOKEN, saved \
            (by 'doogit auth login') or gh.
            """,
        examples: ["doogit auth status", "doogit auth status --json"],
        run: runStatus)

    static let login = CommandSpec(
        name: "login", abstract: "Save a token for doogit to use",
        options: [OptionSpec("with-token", help: "read the token from standard input (required)")],
        discussion: """
            Reads a token from standard input, checks it with GitHub, and saves it for the API's \
            origin (https://api.github.com, or DOOGIT_API_URL's or GH_HOST's) in \
            $XDG_CONFIG_HOME/doogit/tokens (mode 0600), keeping the tokens saved for other origins; \
            it is sent to that origin only. On a terminal it asks for the token and does not show \
            what is typed or pasted. A token in GH_TOKEN or GITHUB_TOKEN still takes precedence.
            """,
        examples: ["doogit auth login --with-token < token.txt", "gh auth token | doogit auth login --with-token",
                   "GH_HOST=ghe.example.com doogit auth login --with-token < ghe.txt"],
        run: runLogin)

    static let logout = CommandSpec(
        name: "logout", abstract: "Forget the token saved for the API's origin",
        discussion: "Removes the token 'doogit auth login' saved for the API's origin; those saved for other origins stay.",
        examples: ["doogit auth logout"],
        run: runLogout)

    static func runStatus(_ invocation: Invocation, _ runtime: Runtime) throws {
        let endpoint = try runtime.endpoint()
        guard let token = try runtime.tokenResolver(for: endpoint).resolve() else { throw GitHubError.missingToken }
        runtime.useToken(from: token.source)
        let user = try runtime.makeClient(endpoint: endpoint, token: token.value).currentUser()
        keepLogin(user.login, token: token.value, endpoint, runtime)
        if runtime.global.json {
            runtime.printJSON {
                JSONOutput.authStatus(host: endpoint.host, origin: endpoint.canonicalOrigin, user: user,
                                      tokenSource: token.source.identifier, into: &$0)
            }
            return
        }
        runtime.console.print("Signed in to \(endpoint.canonicalOrigin) as \(TerminalText.sanitize(user.login))")
        runtime.console.print("Token from \(token.source.description)")
        if let scopes = user.scopes {
            let list = scopes.isEmpty ? "none" : scopes.map(TerminalText.sanitize).joined(separator: ", ")
            runtime.console.print("Token scopes: \(list)")
        }
    }

    /// Keeps the token's login for this API (who adds and finishes todos here); a database that
    /// cannot be written does not fail the command.
    private static func keepLogin(_ login: String, token: String, _ endpoint: APIEndpoint, _ runtime: Runtime) {
        try? runtime.store().recordLogin(login, origin: endpoint.canonicalOrigin, tokenFingerprint: Store.tokenFingerprint(token),
                                         at: runtime.now())
    }

    static func runLogin(_ invocation: Invocation, _ runtime: Runtime) throws {
        guard invocation.flag("with-token") else {
            throw UsageError(message: "'doogit auth login' needs --with-token and the token on standard input",
                             topic: invocation.path)
        }
        let endpoint = try runtime.endpoint()
        let saved = try SavedTokens(paths: runtime.paths)
        // A file that cannot be kept is said before the token is asked for.
        _ = try saved.entries()
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
        runtime.useToken(from: nil, signingIn: true)
        let user = try runtime.makeClient(endpoint: endpoint, token: token).currentUser()
        let origin = endpoint.canonicalOrigin
        let path = try saved.save(token, for: origin)
        keepLogin(user.login, token: token, endpoint, runtime)
        runtime.say("Signed in to \(origin) as \(TerminalText.sanitize(user.login)); token saved for \(origin) in \(path)")
        for name in ["GH_TOKEN", "GITHUB_TOKEN"] where runtime.context.variable(name) != nil {
            runtime.note("\(name) is set and takes precedence over the saved token")
        }
    }

    static func runLogout(_ invocation: Invocation, _ runtime: Runtime) throws {
        let origin = try runtime.endpoint().canonicalOrigin
        guard try SavedTokens(paths: runtime.paths).remove(origin: origin) else {
            runtime.say("No token is saved for \(origin)")
            return
        }
        // Whose the next token is, the next sign-in or sync says.
        try? runtime.store().forgetLogin(origin: origin)
        runtime.say("Removed the token saved for \(origin)")
        for name in ["GH_TOKEN", "GITHUB_TOKEN"] where runtime.context.variable(name) != nil {
            runtime.note("\(name) is still set; doogit will keep using it")
        }
    }
}
