import DoogitSupport
/// Where the GitHub token came from: shown by `auth status`, never the token itself.
enum TokenSource: Equatable {
    case environment(String)
    case savedFile(String)
    case ghCLI

    var description: String {
        switch self {
        case .environment(let name): return "the \(name) environment variable"
        case .savedFile(let path): return "the token saved by 'doogit auth login' (\(path))"
        case .ghCLI: return "the GitHub CLI ('gh auth token')"
        }
    }

    /// The source as `auth status --json` names it: GH_TOKEN, GITHUB_TOKEN, saved or gh.
    var identifier: String {
        switch self {
        case .environment(let name): return name
        case .savedFile: return "saved"
        case .ghCLI: return "gh"
        }
    }
}

struct ResolvedToken {
    var source: TokenSource
    var value: String
}

/// The token chain of the contract, as in `gh`: GH_TOKEN, GITHUB_TOKEN, the token saved by
/// `doogit auth login --with-token`, then `gh auth token` when gh is installed.
struct TokenResolver {
    let context: Context
    let configDirectory: String?

    var savedTokenPath: String? { configDirectory.map { $0 + "/token" } }

    func resolve() throws -> ResolvedToken? {
        for name in ["GH_TOKEN", "GITHUB_TOKEN"] {
            if let value = context.variable(name) {
                return try validated(ResolvedToken(source: .environment(name), value: value.trimmingSpaces))
            }
        }
        if let path = savedTokenPath, let saved = Files.read(path)?.trimmingSpaces, !saved.isEmpty {
            return try validated(ResolvedToken(source: .savedFile(path), value: saved))
        }
        var arguments = ["gh", "auth", "token"]
        if let host = context.variable("GH_HOST") { arguments += ["--hostname", host] }
        if let result = context.runProgram(arguments, context.environment) {
            if result.status == ProgramRunner.timedOut {
                throw TokenHelperTimeout(command: arguments.joined(separator: " "),
                                         seconds: ProgramRunner.timeoutMilliseconds / 1000)
            }
            let token = result.output.trimmingSpaces
            if result.status == 0 && !token.isEmpty { return try validated(ResolvedToken(source: .ghCLI, value: token)) }
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
