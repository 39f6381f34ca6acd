import DoogitGitHub
import DoogitStore
import DoogitSupport

/// What a running command uses: the context and global options, and the store and GitHub
/// client, each opened only when the command first needs it (a local command never loads
/// libcurl; `help` never opens the database).
final class Runtime {
    let context: Context
    let global: GlobalOptions
    let style: Style
    private var openedStore: Store?
    private var openedGitHub: GitHubClient?
    /// The token the command uses, once it asked for one: for a message if GitHub refuses it.
    private(set) var tokenInUse: ErrorReporter.TokenInUse?
    /// The fingerprint of the token `github()` uses (`Store.tokenFingerprint`).
    private(set) var tokenFingerprint: String?

    init(context: Context, global: GlobalOptions) {
        self.context = context
        self.global = global
        self.style = Style(
            color: Style.colorEnabled(option: global.color, environment: context.environment,
                                      isTerminal: context.console.outputIsTerminal),
            unicode: Style.localeIsUTF8(context.environment) && !global.ascii)
    }

    var console: Console { context.console }
    var paths: Paths { Paths(environment: context.environment) }

    func now() -> Timestamp { context.clock() }

    /// A line on stdout for people (confirmations); `--quiet` and `--json` leave it out.
    func say(_ line: String) {
        if !global.quiet && !global.json { console.print(line) }
    }

    /// A note on stderr, shown unless `--quiet`.
    func note(_ line: String) {
        if !global.quiet { console.printError("doogit: " + line) }
    }

    func store() throws -> Store {
        try openStore(readOnlyFallback: false)
    }

    /// The store for a command that only reads: a database that cannot be written (or whose
    /// folder cannot) is opened read-only rather than refused.
    func readingStore() throws -> Store {
        try openStore(readOnlyFallback: true)
    }

    private func openStore(readOnlyFallback: Bool) throws -> Store {
        if let openedStore { return openedStore }
        let store = try Store.open(path: try paths.database(option: global.databasePath), readOnlyFallback: readOnlyFallback)
        openedStore = store
        return store
    }

    /// The GitHub login of the token's user on this API as last seen (`auth login`, `auth status`,
    /// `sync`); nil when none was seen yet, or the database cannot be read. `reading`: the
    /// command only reads (the store is opened as `readingStore` opens it, else as `store`).
    func login(reading: Bool) -> String? {
        guard let origin = try? endpoint().canonicalOrigin, let store = try? (reading ? readingStore() : store()) else { return nil }
        return (try? store.login(origin: origin)) ?? nil
    }

    /// The API endpoint: DOOGIT_API_URL, else GH_HOST's, else api.github.com.
    func endpoint() throws -> APIEndpoint {
        if let url = context.variable("DOOGIT_API_URL") { return try APIEndpoint(url) }
        if let host = context.variable("GH_HOST") { return try APIEndpoint.forHost(host) }
        return .github
    }

    /// Hosts whose web and git URLs name repositories: github.com, and GH_HOST when set.
    var webHosts: Set<String> {
        var hosts: Set<String> = ["github.com"]
        if let host = context.variable("GH_HOST") { hosts.insert(host.lowercased()) }
        return hosts
    }

    /// The token chain for `endpoint`: only a token kept for its origin or host is had.
    func tokenResolver(for endpoint: APIEndpoint) -> TokenResolver {
        TokenResolver(context: context, saved: try? SavedTokens(paths: paths), endpoint: endpoint)
    }

    /// The GitHub client, with a token: a command that needs GitHub and has none is exit 4.
    /// It keeps to a rate limit an earlier command met on the same API (see `keepRateLimitHold`).
    func github() throws -> GitHubClient {
        if let openedGitHub { return openedGitHub }
        let endpoint = try endpoint()
        guard let token = try tokenResolver(for: endpoint).resolve() else { throw GitHubError.missingToken }
        tokenInUse = ErrorReporter.TokenInUse(source: token.source)
        tokenFingerprint = Store.tokenFingerprint(token.value)
        let client = makeClient(endpoint: endpoint, token: token.value)
        if let hold = try store().rateLimitHold(origin: endpoint.origin, at: now()) {
            client.hold(until: hold.until, hold.kind == .primary ? .rateLimited(resetAt: hold.until)
                                                                 : .secondaryRateLimited(retryAt: hold.until))
        }
        openedGitHub = client
        return client
    }

    /// Keeps, for the next commands, a rate limit this command met and must still be waited out:
    /// GitHub says that continuing while limited can get a client blocked. A hold that cannot be
    /// written is let go: the command's own outcome is what it reports.
    func keepRateLimitHold() {
        guard let client = openedGitHub, let openedStore, let (until, limit) = client.limitHeldUntil else { return }
        let kind: RateLimitHold.Kind
        switch limit {
        case .rateLimited: kind = .primary
        default: kind = .secondary
        }
        try? openedStore.keepRateLimitHold(RateLimitHold(until: until, kind: kind), origin: client.configuration.endpoint.origin,
                                           at: now())
    }

    /// Notes where the token of a client made with `makeClient` came from.
    func useToken(from source: TokenSource?, signingIn: Bool = false) {
        tokenInUse = ErrorReporter.TokenInUse(source: source, signingIn: signingIn)
    }

    func makeClient(endpoint: APIEndpoint, token: String?) -> GitHubClient {
        let configuration = GitHubClient.Configuration(
            endpoint: endpoint, token: token, userAgent: "doogit/\(Doogit.version)",
            retry: context.retryPolicy, timeouts: context.timeouts)
        let verbose = global.verbose
        let console = console
        return GitHubClient(configuration: configuration, transport: context.makeTransport()) { line in
            // Logged URLs may come from GitHub's Location and Link headers.
            if verbose { console.printError("doogit: " + TerminalText.sanitize(line)) }
        }
    }

    /// Reads a repository argument; a malformed one is a usage error naming the forms.
    func parseReference(_ text: String, topic: [String]) throws(UsageError) -> RepositoryReference {
        guard let reference = RepositoryReference.parse(text, hosts: webHosts) else {
            throw UsageError(message: "'\(TerminalText.sanitize(text))' is not a repository; use \(RepositoryReference.acceptedForms), or id:ID for a tracked one",
                             topic: topic)
        }
        return reference
    }

    /// A tracked repository named by a local argument: `id:ID` (GitHub's numeric id, which tells
    /// apart repositories that share a name), OWNER/NAME, or NAME when unique.
    func trackedRepository(_ text: String, topic: [String], reading: Bool = false) throws -> RepositoryRecord {
        let store = reading ? try readingStore() : try store()
        if let id = Self.repositoryID(text) {
            guard let repository = try store.repository(id: id) else { throw StoreError.unknownRepository("id:\(id)") }
            return repository
        }
        let reference = try parseReference(text, topic: topic)
        return try store.findRepository(owner: reference.owner, name: reference.name)
    }

    /// The id of an `id:ID` argument.
    static func repositoryID(_ text: String) -> Int64? {
        guard text.hasPrefix("id:"), let id = Int64(text.dropFirst(3)), id > 0 else { return nil }
        return id
    }

    /// Writes a JSON document to stdout: indented for a person at a terminal, compact for a program.
    func printJSON(_ value: JSONValue) {
        console.output.write(JSONWriter.write(value, indented: console.outputIsTerminal))
    }

    /// Writes the JSON document that `write` streams to stdout, indented as `printJSON(_:)` is.
    func printJSON(_ write: (inout JSONStream) -> Void) {
        var json = JSONStream(indented: console.outputIsTerminal)
        write(&json)
        console.output.write(bytes: json.bytes)
        console.output.write("\n")
    }

    /// Writes a JSON array of `items`, each written by `write`, to stdout: a piece at a time, so
    /// that a long list never sits whole in memory.
    func printJSONArray<Item>(_ items: [Item], _ write: (Item, inout JSONStream) -> Void) {
        printJSON { json in
            json.beginArray()
            for item in items {
                write(item, &json)
                if json.byteCount >= 1 << 16 { console.output.write(bytes: json.drain()) }
            }
            json.endArray()
        }
    }
}
