import DoogitGitHub
import DoogitStore
import DoogitSupport
import DoogitSync

/// The one place where a failure becomes an exit code and the single stderr line of the
/// contract: `doogit: error: WHAT; HINT`. Messages never contain the token: no layer puts it in
/// an error, and all text is sanitized before it reaches the terminal.
enum ErrorReporter {
    struct Report: Equatable {
        var code: ExitCode
        var message: String
    }

    static func report(_ error: Error, databasePath: String?) -> Report {
        switch error {
        case let usage as UsageError:
            let topic = (["help"] + usage.topic).joined(separator: " ")
            let stop = usage.message.hasSuffix(".") ? "" : "."
            return Report(code: .usage, message: "\(usage.message)\(stop) Run 'doogit \(topic)'.")
        case let failure as CommandFailure:
            return Report(code: .failure, message: failure.message + (failure.hint.map { "; \($0)" } ?? ""))
        case let token as MalformedTokenError:
            return Report(code: .authentication, message: token.message + "; " + token.hint)
        case let output as OutputWriteError:
            return Report(code: .failure, message: "cannot write the output (\(Files.reason(output.code))); anything the command changed is saved, so check where standard output goes before running it again")
        case let store as StoreError:
            return report(store, databasePath: databasePath)
        case let github as GitHubError:
            return report(github)
        case let sync as SyncError:
            switch sync {
            case .incomplete(let summary):
                let first = summary.failures.first.map { "\($0.fullName): \($0.error)" } ?? ""
                let count = summary.failures.count
                return Report(code: .failure, message: "sync finished, but \(count) repositor\(count == 1 ? "y" : "ies") could not be read (\(first)\(count > 1 ? "; and others" : "")); run 'doogit sync -v' for details")
            case .rateLimited(let resetAt, _):
                return Report(code: .temporaryFailure, message: "sync stopped: GitHub's rate limit is used up; "
                    + (resetAt.map { "what was done is kept; try again after \($0.localTimeOfDay)" } ?? "what was done is kept; try again later"))
            case .interrupted(let underlying, _):
                var inner = report(underlying, databasePath: databasePath)
                inner.message = "sync stopped: " + inner.message
                if inner.code == .failure { inner.code = .temporaryFailure }
                return inner
            case .failed(let underlying, _):
                var inner = report(underlying, databasePath: databasePath)
                inner.message = "sync stopped: " + inner.message
                return inner
            }
        case let lock as SyncLockError:
            return Report(code: .failure, message: "cannot use the lock file \(lock.path): \(lock.reason)")
        default:
            return Report(code: .failure, message: "\(error)")
        }
    }

    static func report(_ error: StoreError, databasePath: String?) -> Report {
        let place = databasePath ?? "the database"
        switch error {
        case .unknownTodos(let ids):
            let list = ids.map(String.init).joined(separator: ", ")
            return Report(code: .failure, message: "no todo with ID\(ids.count == 1 ? "" : "s") \(list); nothing was changed. Run 'doogit todo list' to see the IDs")
        case .unknownRepository(let name):
            return Report(code: .failure, message: "repository '\(name)' is not tracked; run 'doogit repo list' to see tracked repositories, or 'doogit repo add \(name)'")
        case .ambiguousRepository(let name, let candidates):
            return Report(code: .failure, message: "'\(name)' names several tracked repositories (\(candidates.joined(separator: ", "))); use OWNER/NAME")
        case .repositoryHasOpenTodos(let fullName, let open):
            return Report(code: .failure, message: "\(fullName) has \(open) open todo\(open == 1 ? "" : "s"); nothing was removed. Complete them first, or use 'doogit repo remove --force' to remove them too")
        case .newerSchema(let found, let known):
            return Report(code: .failure, message: "\(place) was written by a newer doogit (schema \(found); this doogit knows \(known)); it was left untouched. Upgrade doogit")
        case .cannotCreateDirectory(let path, let reason):
            return Report(code: .failure, message: "cannot create the folder \(path): \(reason); check its permissions or use --db PATH")
        case .cannotCreateFile(let path, let reason):
            return Report(code: .failure, message: "cannot create \(path): \(reason); check its permissions or use --db PATH")
        case .unexpectedNull(let column):
            return Report(code: .failure, message: "\(place) has a missing value in '\(column)'; the database may be damaged")
        case .sqlite(let code, let message, _):
            switch code & 0xFF {
            case 5, 6:  // SQLITE_BUSY, SQLITE_LOCKED
                return Report(code: .temporaryFailure, message: "\(place) is busy (another doogit is writing); try again")
            case 26:  // SQLITE_NOTADB
                return Report(code: .failure, message: "\(place) is not a doogit database; use --db to choose another file")
            case 13:  // SQLITE_FULL
                return Report(code: .failure, message: "the disk is full; nothing was changed")
            case 14, 8:  // SQLITE_CANTOPEN, SQLITE_READONLY
                return Report(code: .failure, message: "cannot write \(place): \(message); check its permissions or use --db PATH")
            default:
                return Report(code: .failure, message: "database error in \(place): \(message)")
            }
        }
    }

    static func report(_ error: GitHubError) -> Report {
        switch error {
        case .missingToken:
            return Report(code: .authentication, message: "not signed in to GitHub; set GH_TOKEN, or run 'doogit auth login --with-token' with a token on standard input")
        case .unauthorized(let message):
            return Report(code: .authentication, message: "GitHub rejected the token (\(message)); set a valid GH_TOKEN or run 'doogit auth login --with-token'")
        case .forbidden(let message, let hint):
            return Report(code: .failure, message: "GitHub refused the request: \(message)" + (hint.map { "; \($0)" } ?? ""))
        case .rateLimited(let resetAt):
            let when = resetAt.map { "try again after \($0.localTimeOfDay)" } ?? "try again later"
            return Report(code: .temporaryFailure, message: "GitHub's rate limit is used up; \(when)")
        case .notFound:
            return Report(code: .failure, message: "repository not found on GitHub (or the token cannot see it); check the name")
        case .unavailable(let status, let message):
            return Report(code: .failure, message: "GitHub says the repository is no longer available (HTTP \(status): \(message))")
        case .validationFailed(let message):
            return Report(code: .failure, message: "GitHub refused the request: \(message)")
        case .serverError(let status):
            return Report(code: .temporaryFailure, message: "GitHub is having trouble (HTTP \(status)); try again later")
        case .network(let transport):
            switch transport {
            case .timeout:
                return Report(code: .temporaryFailure, message: "GitHub did not answer in time; check your connection and try again later")
            case .connection(let detail):
                return Report(code: .temporaryFailure, message: "cannot reach GitHub (\(detail)); check your connection and try again later")
            case .protocolError(let detail):
                return Report(code: .temporaryFailure, message: "the connection to GitHub broke off (\(detail)); try again later")
            case .tooLarge:
                return Report(code: .failure, message: "unexpected response from GitHub: the response was too large")
            case .unavailable(let detail):
                return Report(code: .failure, message: "\(detail); doogit needs libcurl to reach GitHub")
            }
        case .unexpectedStatus(let status, let message):
            return Report(code: .failure, message: "unexpected response from GitHub: HTTP \(status) (\(message))")
        case .unexpectedResponse(let detail):
            return Report(code: .failure, message: "unexpected response from GitHub (\(detail))")
        case .tooManyRedirects:
            return Report(code: .failure, message: "unexpected response from GitHub: too many redirects")
        case .invalidAPIURL(let url, let reason):
            return Report(code: .failure, message: "cannot use the API URL '\(url)': \(reason); check DOOGIT_API_URL or GH_HOST")
        }
    }
}
