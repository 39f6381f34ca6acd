import DoogitGitHub
import DoogitMerge
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

    /// The token a command used, for a message about GitHub refusing it: where it came from, and
    /// whether the command was signing in with it (then it is not suggested again).
    struct TokenInUse: Equatable {
        var source: TokenSource?
        var signingIn = false
    }

    static func report(_ error: Error, databasePath: String?, token: TokenInUse? = nil) -> Report {
        switch error {
        case let usage as UsageError:
            let topic = (["help"] + usage.topic).joined(separator: " ")
            let stop = usage.message.hasSuffix(".") ? "" : "."
            return Report(code: .usage, message: "\(usage.message)\(stop) Run 'doogit \(topic)'.")
        case let failure as CommandFailure:
            return Report(code: failure.temporary ? .temporaryFailure : .failure, message: failure.message + (failure.hint.map { "; \($0)" } ?? ""))
        case let token as MalformedTokenError:
            return Report(code: .authentication, message: token.message + "; " + token.hint)
        case let file as TokenFileError:
            return Report(code: .authentication, message: "the token file \(file.path) \(file.problem); \(file.hint)")
        case let helper as TokenHelperTimeout:
            return Report(code: .authentication, message: "no token: '\(helper.command)' did not answer within \(helper.seconds) s (gh may be waiting for a keyring); set GH_TOKEN, or run 'doogit auth login --with-token' with a token on standard input")
        case let output as OutputWriteError:
            return Report(code: .failure, message: "cannot write the output (\(Files.reason(output.code))); anything the command changed is saved, so check where standard output goes before running it again")
        case let store as StoreError:
            return report(store, databasePath: databasePath)
        case let github as GitHubError:
            return report(github, token: token)
        case let sync as SyncError:
            return report(sync, databasePath: databasePath, token: token)
        case is SyncAPIURLLooksWrong:
            return Report(code: .failure, message: "every repository answered 404, and so did the signed-in user: the API URL looks wrong, and nothing was flagged gone; check DOOGIT_API_URL or GH_HOST")
        case let link as IssueLinkError:
            return report(link)
        case let add as RepositoryTracker.AddError:
            return report(add, token: token)
        case let failures as RepositoryTracker.AddFailures:
            return report(failures)
        case let remote as RemoteFailure:
            return report(remote, token: token)
        case let lock as FileLockError:
            return Report(code: .failure, message: "cannot use the lock file \(lock.path): \(lock.reason)")
        default:
            return Report(code: .failure, message: "\(error)")
        }
    }

    static func describe(_ error: TodoFileError, in file: String) -> String {
        switch error {
        case .badLine(let line, let reason):
            return "\(file) is not a doogit todo file: line \(line): \(reason)"
        case .newerVersion(let version):
            return "\(file) was written by a newer doogit (format \(version)); upgrade doogit to read it"
        }
    }

    /// A failed `repo add` names the reference that failed (and what a bare NAME stood for),
    /// with the exit code of the underlying GitHub error.
    static func report(_ error: RepositoryTracker.AddError, token: TokenInUse? = nil) -> Report {
        let named = "'\(error.reference)'" + (error.resolved.map { " (\($0))" } ?? "")
        if case .notFound = error.underlying {
            return Report(code: .failure, message: "repository \(named) not found on GitHub, or the token cannot see it; nothing was added. Check the name")
        }
        var inner = report(error.underlying, token: token)
        inner.message = "cannot add \(named), nothing was added: " + inner.message
        return inner
    }

    /// Several repositories of one `repo add` could not be fetched: each is named with its reason,
    /// on the one line (the first ten, then how many more).
    static func report(_ error: RepositoryTracker.AddFailures) -> Report {
        let shown = 10
        var reasons = error.failures.prefix(shown).map { failure in
            let named = "'\(failure.reference)'" + (failure.resolved.map { " (\($0))" } ?? "")
            if case .notFound = failure.underlying { return named + " not found" }
            return named + ": " + report(failure.underlying).message
        }
        if error.failures.count > shown { reasons.append("and \(error.failures.count - shown) more") }
        let code = error.failures.first.map { report($0.underlying).code } ?? .failure
        return Report(code: code, message: "\(error.failures.count) of \(error.asked) repositories cannot be added, so nothing was added: \(reasons.joined(separator: "; ")). Check the names (GitHub answers not found for a repository the token cannot see), or add the others without them")
    }

    static func report(_ error: IssueLinkError) -> Report {
        switch error {
        case .otherRepository(let issue, let repository):
            return Report(code: .failure, message: "\(issue) is not an issue of \(repository), the todo's repository; nothing was changed. Link an issue of \(repository), or move the todo first")
        case .pullRequest(let repository, let number):
            return Report(code: .failure, message: "\(repository)#\(number) is a pull request; only issues can be linked, so nothing was changed")
        case .creationUnknown(let todo, let repository, let request, let reason):
            return Report(code: .temporaryFailure, message: "\(request) may have reached GitHub (\(reason)); todo \(todo) is kept and its issue in \(repository) will not be created twice: run 'doogit todo promote \(todo)' or 'doogit sync' later, which link the issue if GitHub made it, or create it")
        }
    }

    static func report(_ error: StoreError, databasePath: String?) -> Report {
        let place = databasePath ?? "the database"
        func failure(_ message: String) -> Report { Report(code: .failure, message: message) }
        switch error {
        case .unknownTodos(let ids):
            let list = ids.map(String.init).joined(separator: ", ")
            return failure("no todo with ID\(ids.count == 1 ? "" : "s") \(list); nothing was changed. Run 'doogit todo list' to see the IDs")
        case .removedTodos(let removed, let unknown):
            let list = removed.map(String.init).joined(separator: " ")
            let others = unknown.isEmpty ? "" : ", and there is no todo with ID\(unknown.count == 1 ? "" : "s") "
                + unknown.map(String.init).joined(separator: ", ")
            return failure("todo\(removed.count == 1 ? "" : "s") \(removed.map(String.init).joined(separator: ", ")) "
                           + "\(removed.count == 1 ? "was" : "were") removed\(others); nothing was changed. "
                           + "Bring \(removed.count == 1 ? "it" : "them") back with 'doogit todo restore \(list)' "
                           + "(see 'doogit todo list --removed')")
        case .repositoryNotTracked(let ids, let fullName):
            let list = ids.map(String.init).joined(separator: " ")
            return failure("\(fullName) is no longer tracked (stopped with 'repo remove --force', here or on another machine), so its todos cannot come back yet; run 'doogit repo add \(fullName)', then 'doogit todo restore \(list)'; nothing was changed")
        case .notRestorable(let ids):
            let list = ids.map(String.init).joined(separator: ", ")
            return failure("nothing to restore as ID\(ids.count == 1 ? "" : "s") \(list): not a removed todo whose repository is still tracked; nothing was changed")
        case .unknownRepository(let name) where name.hasPrefix("id:"):
            return failure("no tracked repository has \(name); run 'doogit repo list --json' to see their ids")
        case .unknownRepository(let name):
            return failure("repository '\(name)' is not tracked; run 'doogit repo list' to see tracked repositories, or 'doogit repo add \(name)'")
        case .ambiguousRepository(let name, let candidates):
            let list = candidates.map { "\($0.fullName) (id:\($0.id)\($0.gone ? ", gone" : ""))" }.joined(separator: ", ")
            return failure("'\(name)' names several tracked repositories: \(list); name one as OWNER/NAME, or as id:ID")
        case .repositoryHasTodos(let fullName, let open, let done):
            let count = open + done
            return failure("\(fullName) has \(count) todo\(count == 1 ? "" : "s") (\(open) open, \(done) done); nothing was removed. Add --force to remove it with its todos")
        case .todoAlreadyLinked(let todo, let issue):
            return failure("todo \(todo) is linked to issue #\(issue) already; nothing was changed. Run 'doogit todo unlink \(todo)' first to link another")
        case .issueAlreadyLinked(let issue, let todo):
            return failure("issue #\(issue) is linked to todo \(todo) already; nothing was changed. Run 'doogit todo unlink \(todo)' first")
        case .todoNotLinked(let todo):
            return failure("todo \(todo) is not linked to an issue; nothing was changed")
        case .movingLinkedTodo(let todo, let repository, let issue):
            return failure("todo \(todo) is linked to \(repository)#\(issue), which would stay behind; nothing was moved. Add --unlink to move it without its issue")
        case .busy:
            return Report(code: .temporaryFailure, message: "\(place) is busy (another doogit is writing); try again")
        case .readOnlyFiles(let paths):
            let files = paths.map { "'\($0)'" }.joined(separator: " ")
            let what = paths.count == 1 ? "the file is read-only" : "its files are read-only"
            return failure("cannot write \(paths.first ?? place): \(what); make \(paths.count == 1 ? "it" : "them") writable (chmod u+w \(files)) or use --db PATH")
        case .readOnlyFolder(let folder):
            return failure("cannot write in \(folder), where the database keeps its journal files; make the folder writable (chmod u+w '\(folder)') or use --db PATH")
        case .diskFull:
            return failure("the disk holding \(place) is full; nothing was changed. Free some space and try again")
        case .ioError(let reason):
            return failure("cannot read or write \(place): \(reason); check the disk it is on, or use --db PATH")
        case .notADatabase:
            return failure("\(place) is not a doogit database (it is not an SQLite file); use --db to choose another file")
        case .corrupt:
            return failure("\(place) is damaged; restore it from a backup, or move it aside (mv '\(place)' '\(place).damaged') and doogit starts a new one")
        case .isDirectory(let path):
            return failure("\(path) is a folder, not a database file; give --db or DOOGIT_DB a file path such as \(path)/doogit.sqlite3")
        case .cannotOpen(let path, let reason):
            return failure("cannot open the database \(path): \(reason); check the path and its permissions, or use --db PATH")
        case .foreignDatabase:
            return failure("\(place) is another program's SQLite database, so doogit left it untouched; use --db to choose another file")
        case .newerSchema(let found, let known):
            return failure("\(place) was written by a newer doogit (schema \(found); this doogit knows \(known)); it was left untouched. Upgrade doogit")
        case .upgradeNeedsWriteAccess(let found, let known):
            return failure("\(place) must be upgraded (schema \(found) to \(known)) but cannot be written; make it and its folder writable and run doogit again")
        case .cannotCreateDirectory(let path, let reason):
            return failure("cannot create the folder \(path): \(reason); check its permissions or use --db PATH")
        case .cannotCreateFile(let path, let reason):
            return failure("cannot create \(path): \(reason); check its permissions or use --db PATH")
        case .foreignKeyViolation(let table):
            return failure("upgrading \(place) stopped: rows of '\(table)' would lose what they belong to; nothing was changed. Please report this to doogit's developers")
        case .unexpectedNull(let column):
            return failure("\(place) has a missing value in '\(column)'; it may be damaged. Restore it from a backup")
        case .unknownColumn, .bindMismatch:
            return failure("internal error reading \(place) (\(error)); nothing was changed. Please report this to doogit's developers")
        case .sqlite(_, let message, _):
            return failure("database error in \(place): \(message)")
        }
    }

    /// GitHub answered 401: what to do depends on where the token came from. A variable wins over
    /// a saved token, so saving another one would not help; and a token just given to sign in is
    /// not suggested again.
    static func rejectedToken(_ message: String, _ token: TokenInUse?) -> String {
        if token?.signingIn == true {
            return "GitHub rejected that token (\(message)); nothing was saved. Check that it is whole and not expired or revoked (a new one: https://github.com/settings/tokens)"
        }
        switch token?.source {
        case .environment(let name)?:
            return "GitHub rejected the token in \(name) (\(message)); \(name) wins over a saved token, so set it to a valid token or unset it (unset \(name))"
        case .saved(_, let origin)?:
            return "GitHub rejected the token saved by 'doogit auth login' for \(origin) (\(message)); save a valid one with 'doogit auth login --with-token', or set GH_TOKEN"
        case .ghCLI(let hostname)?:
            return "GitHub rejected the GitHub CLI's token for \(hostname) (\(message)); sign in again with 'gh auth login --hostname \(hostname)', or set GH_TOKEN"
        case nil:
            return "GitHub rejected the token (\(message)); set a valid GH_TOKEN or run 'doogit auth login --with-token'"
        }
    }

    /// What GitHub's answer to a secondary rate limit means, in words.
    static let secondaryLimitMet = "GitHub's secondary rate limit was met (too many requests in a short time)"

    /// The time of day GitHub allows requests again, rounded up to the minute (a time of day is
    /// shown to the minute; rounded down, it would be too early).
    static func minuteAfter(_ time: Timestamp) -> String {
        let milliseconds = time.millisecondsSinceEpoch
        let minute: Int64 = 60_000
        // A server may send any time: one too far off to round stays as it is.
        let rounded = milliseconds % minute == 0 || milliseconds > Int64.max - minute ? milliseconds
            : milliseconds - milliseconds % minute + (milliseconds > 0 ? minute : 0)
        return Timestamp(millisecondsSinceEpoch: rounded).localTimeOfDay
    }

    /// What a 404 says, by what the request was about.
    static func notFoundMessage(_ resource: GitHubResource) -> String {
        switch resource {
        case .repository(let name):
            return "repository \(name) not found on GitHub (or the token cannot see it); check the name"
        case .issue(let repository, let number):
            return "issue #\(number) not found in \(repository) on GitHub (or the token cannot see it); check the number"
        case .file(let repository, let path):
            return "file \(path) not found in \(repository) on GitHub; check the path"
        case .gitObject(let repository, let sha):
            return "GitHub does not have the git object \(sha.prefix(12)) of \(repository) (yet: right after a write, GitHub's replicas can lag); try again in a minute"
        case .user:
            return "GitHub does not know the signed-in user; check the token and DOOGIT_API_URL or GH_HOST"
        case .other(let what):
            return "\(what) not found on GitHub (or the token cannot see it)"
        }
    }

    static func report(_ error: GitHubError, token: TokenInUse? = nil) -> Report {
        switch error {
        case .missingToken:
            return Report(code: .authentication, message: "not signed in to GitHub; set GH_TOKEN, or run 'doogit auth login --with-token' with a token on standard input")
        case .unauthorized(let message):
            return Report(code: .authentication, message: rejectedToken(message, token))
        case .refusedWithoutToken(let origin, let message):
            // The token was not sent, so it is not what to change.
            return Report(code: .failure, message: "a request to \(origin), which is not the API's origin, was refused (HTTP 401: \(message)); the token goes only to the API's origin, so it was not sent there. If \(origin) is your GitHub's API, set DOOGIT_API_URL to it")
        case .forbidden(let message, let hint):
            return Report(code: .failure, message: "GitHub refused the request: \(message)" + (hint.map { "; \($0)" } ?? ""))
        case .rateLimited(let resetAt):
            let when = resetAt.map { "try again after \($0.localTimeOfDay)" } ?? "try again later"
            return Report(code: .temporaryFailure, message: "GitHub's rate limit is used up; \(when)")
        case .secondaryRateLimited(let retryAt):
            return Report(code: .temporaryFailure, message: "\(secondaryLimitMet); try again after \(minuteAfter(retryAt))")
        case .notFound(let resource, _):
            return Report(code: .failure, message: notFoundMessage(resource))
        case .unknownRoute:
            return Report(code: .failure, message: "GitHub's API has no such route (HTTP 404), so the API URL looks wrong; check DOOGIT_API_URL or GH_HOST")
        case .unavailable(let status, let message):
            return Report(code: .failure, message: "GitHub says it is no longer available (HTTP \(status): \(message))")
        case .conflict(let message):
            return Report(code: .failure, message: "GitHub refused the change because it conflicts with a newer one (\(message)); read it again and retry")
        case .validationFailed(let message):
            return Report(code: .failure, message: "GitHub refused the request: \(message)")
        case .outcomeUnknown(let request, let reason):
            return Report(code: .failure, message: "\(request) may have reached GitHub (\(reason)); check on GitHub before repeating it")
        case .serverError(let status):
            return Report(code: .temporaryFailure, message: "GitHub is having trouble (HTTP \(status)); try again later")
        case .network(let transport):
            switch transport {
            case .timeout:
                return Report(code: .temporaryFailure, message: "GitHub did not answer in time; check your connection and try again later")
            case .connection(let detail), .cannotConnect(let detail):
                return Report(code: .temporaryFailure, message: "cannot reach GitHub (\(detail)); check your connection and try again later")
            case .optionRefused(let option):
                return Report(code: .failure, message: "libcurl refused option \(option); install a newer libcurl")
            case .untrusted(let detail):
                return Report(code: .failure, message: "cannot verify GitHub's certificate (\(detail)); behind a TLS-inspecting "
                              + "proxy or a GitHub Enterprise with a private CA, set SSL_CERT_FILE to a PEM file of the "
                              + "certificates to trust (or SSL_CERT_DIR to a folder of them)")
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
        case .redirectRefused(let host):
            return Report(code: .failure, message: "GitHub's answer redirected to another host (\(host)), which doogit does not follow; check DOOGIT_API_URL or GH_HOST")
        case .invalidAPIURL(let url, let reason):
            return Report(code: .failure, message: "cannot use the API URL '\(url)': \(reason); check DOOGIT_API_URL or GH_HOST")
        }
    }
}
