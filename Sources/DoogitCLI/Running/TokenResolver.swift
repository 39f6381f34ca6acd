import DoogitGitHub
import DoogitSupport

/// Where the GitHub token came from: shown by `auth status`, never the token itself.
enum TokenSource: Equatable {
    case environment(String)
    /// Saved by `doogit auth login` for the API origin `origin`, in the file at `path`.
    case saved(path: String, origin: String)
    /// `gh auth token --hostname HOST`.
    case ghCLI(hostname: String)

    var description: String {
        switch self {
        case .environment(let name): return "the \(name) environment variable"
        case .saved(let path, let origin): return "the token saved by 'doogit auth login' for \(origin) (\(path))"
        case .ghCLI(let hostname): return "the GitHub CLI ('gh auth token --hostname \(hostname)')"
        }
    }

    /// The source as `auth status --json` names it: GH_TOKEN, GITHUB_TOKEN, saved or gh.
    var identifier: String {
        switch self {
        case .environment(let name): return name
        case .saved: return "saved"
        case .ghCLI: return "gh"
        }
    }
}

struct ResolvedToken {
    var source: TokenSource
    var value: String
}

/// The token chain of the contract, as in `gh`: GH_TOKEN, GITHUB_TOKEN, the token saved by
/// `doogit auth login --with-token` for the endpoint's origin, then `gh auth token` for the
/// endpoint's host when gh is installed. A token kept for one host is never had for another.
struct TokenResolver {
    let context: Context
    /// The saved tokens; nil when doogit cannot tell where they are (no HOME).
    let saved: SavedTokens?
    let endpoint: APIEndpoint

    func resolve() throws -> ResolvedToken? {
        for name in ["GH_TOKEN", "GITHUB_TOKEN"] {
            if let value = context.variable(name) {
                return try validated(ResolvedToken(source: .environment(name), value: value.trimmingSpaces))
            }
        }
        let origin = endpoint.canonicalOrigin
        if let token = try saved?.token(for: origin) {
            return try validated(ResolvedToken(source: .saved(path: token.path, origin: origin), value: token.value))
        }
        // Always with the host: without it, gh answers for its default host, whatever the API is.
        let hostname = endpoint.ghHostname
        let arguments = ["gh", "auth", "token", "--hostname", hostname]
        if let result = context.runProgram(arguments, context.environment) {
            if result.status == ProgramRunner.timedOut {
                throw TokenHelperTimeout(command: arguments.joined(separator: " "),
                                         seconds: ProgramRunner.timeoutMilliseconds / 1000)
            }
            let token = result.output.trimmingSpaces
            if result.status == 0 && !token.isEmpty {
                return try validated(ResolvedToken(source: .ghCLI(hostname: hostname), value: token))
            }
        }
        return nil
    }

    /// A token goes into an HTTP header: anything but visible ASCII could forge other headers.
    static func isWellFormed(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 1024 && token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    private func validated(_ token: ResolvedToken) throws(MalformedTokenError) -> ResolvedToken {
        guard Self.isWellFormed(token.value) else {
            throw MalformedTokenError(message: "the token from \(token.source.description) is not a valid token",
                                      hint: "set it again; a token has no spaces or control characters")
        }
        return token
    }
}
