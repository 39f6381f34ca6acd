import DoogitStore
import Foundation
import TestSupport

/// One user's world for an end-to-end test: a temp HOME, a fake GitHub on 127.0.0.1, and the
/// built doogit binary run as a child process with a clean environment.
final class Sandbox {
    let home = TemporaryDirectory()
    let github: FakeGitHub
    var environment: [String: String]

    /// `github`: a GitHub shared with other sandboxes (other machines of the same user).
    init(locale: String? = "C.UTF-8", github shared: FakeGitHub? = nil) throws {
        github = try shared ?? FakeGitHub()
        environment = [
            "HOME": home.path,
            "PATH": "/usr/bin:/bin",
            "DOOGIT_API_URL": github.apiURL,
            "GH_TOKEN": github.token,
        ]
        if let locale { environment["LANG"] = locale }
    }

    var databasePath: String { home.path + "/.local/share/doogit/doogit.sqlite3" }

    @discardableResult
    func run(_ arguments: [String], stdin: String = "", directory: String? = nil, timeout: Double = 90) -> ProcessResult {
        ChildProcess.run(DoogitBinary.path, arguments, environment: environment, directory: directory, stdin: stdin,
                         timeoutSeconds: timeout)
    }

    @discardableResult
    func run(_ arguments: String...) -> ProcessResult { run(arguments) }

    /// The time of every rate limit GitHub asked to wait out passes: the next command sends again.
    func letRateLimitsPass() throws {
        guard FileManager.default.fileExists(atPath: databasePath) else { return }
        try Database(path: databasePath).run("DELETE FROM rate_limit_holds")
    }

    /// The database's rows as text, to show that a failed command changed nothing.
    func snapshot() throws -> String {
        guard FileManager.default.fileExists(atPath: databasePath) else { return "(no database)" }
        let database = try Database(path: databasePath)
        var out = ""
        for table in ["repositories", "todos", "todo_tombstones"] {
            out += "\(table):\n"
            out += try database.query("SELECT * FROM \(table) ORDER BY 1") { row in
                (0..<20).map { row.optionalString(Int32($0)) ?? "∅" }.joined(separator: "|")
            }.joined(separator: "\n")
            out += "\n"
        }
        return out
    }
}

extension ProcessResult {
    var stderrLines: [Substring] { stderr.split(separator: "\n") }
}
