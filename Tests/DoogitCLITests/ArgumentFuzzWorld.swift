import Foundation
import Testing
@testable import DoogitCLI
import DoogitGitHub
@testable import DoogitStore
import DoogitSupport
import TestSupport

/// One generated command line and the world around it.
struct FuzzCase {
    var arguments: [String]
    var environment: [String: String]
    /// Columns of stdout when it is a terminal; nil: not a terminal.
    var terminalWidth: Int?

    init(arguments: [String], environment: [String: String], terminalWidth: Int? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.terminalWidth = terminalWidth
    }

    var summary: String {
        var text = "arguments [" + arguments.map(FuzzText.describe).joined(separator: ", ") + "]"
        let extra = environment.filter { $0.key != "HOME" && $0.key != "PATH" }.sorted { $0.key < $1.key }
        if !extra.isEmpty { text += " environment [" + extra.map { "\($0.key)=\(FuzzText.describe($0.value))" }.joined(separator: ", ") + "]" }
        if let terminalWidth { text += " terminal width \(terminalWidth)" }
        return text
    }

    /// Whether `-v`/`--verbose` may be among the options (then request logs may precede the error).
    var mayBeVerbose: Bool {
        arguments.contains { $0 == "--verbose" || ($0.hasPrefix("-") && !$0.hasPrefix("--") && $0.contains("v")) }
    }
}

/// A temp HOME with a database of three repositories, a few todos and a tombstone, and an
/// in-process doogit whose transport refuses every request.
final class ArgumentFuzzWorld {
    static let token = "ghp_FuzzSecretToken0123456789abcdefABCDEF"
    static let tables = ["repositories", "todos", "todo_tombstones", "sqlite_sequence"]

    let root: String
    let home: String
    let databasePath: String
    let otherDatabasePath: String
    let notADatabasePath: String
    private var dumpConnection: Database?
    private var columnCounts: [String: Int32] = [:]
    /// Each new database has a machine id of its own, in every stamp: the dumps leave it out.
    private var machineID = ""
    let transport = RecordingTransport()

    init(root: String) throws {
        self.root = root
        home = root + "/home"
        databasePath = home + "/.local/share/doogit/doogit.sqlite3"
        otherDatabasePath = root + "/other/doogit.sqlite3"
        notADatabasePath = root + "/not-a-database.txt"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "these are not the rows you are looking for\n".write(toFile: notADatabasePath, atomically: true, encoding: .utf8)
        try reset()
    }

    var baseEnvironment: [String: String] { ["HOME": home, "PATH": "/usr/bin:/bin"] }

    /// Puts the database back to its prepared content.
    func reset() throws {
        dumpConnection = nil
        for suffix in ["", "-wal", "-shm", "-journal", ".sync-lock"] {
            try? FileManager.default.removeItem(atPath: databasePath + suffix)
        }
        do {
            let store = try Store.open(path: databasePath)
            let hello = Fixture.helloWorld
            let widgets = Fixture.repository(id: 5, owner: "acme", name: "widgets", description: "Widgets \u{1B}[31mred\u{1B}[0m")
            let otherWidgets = Fixture.repository(id: 7, owner: "other", name: "widgets", description: nil, archived: true)
            try store.saveRepositories([hello, widgets, otherWidgets])
            _ = try store.addTodo(repositoryID: hello.id, text: "write docs", at: Fixture.t0)
            let second = try store.addTodo(repositoryID: hello.id, text: "fix CI", at: Fixture.t1)
            _ = try store.addTodo(repositoryID: widgets.id, text: "ship it", at: Fixture.t1)
            let doomed = try store.addTodo(repositoryID: widgets.id, text: "obsolete", at: Fixture.t2)
            _ = try store.addTodo(repositoryID: otherWidgets.id, text: "review 漢字 👍🏽", at: Fixture.t2)
            _ = try store.setDone([second.id], done: true, at: Fixture.t2)
            _ = try store.removeTodos([doomed.id], at: Fixture.t3)
            machineID = try store.replica.machineID()
        }  // the store closes here, before the dumps' own connection opens
        let connection = try Database(path: databasePath)
        for table in Self.tables {
            let count = try connection.scalarInt("SELECT count(*) FROM pragma_table_info(?)", .text(table)) ?? 0
            columnCounts[table] = Int32(count)
        }
        dumpConnection = connection
    }

    /// Every row of the tables a command may change, as text.
    func dump() throws -> [String] {
        guard let connection = dumpConnection else { return [] }
        var rows: [String] = []
        for table in Self.tables {
            let columns = columnCounts[table] ?? 0
            rows += try connection.query("SELECT * FROM \(table) ORDER BY 1") { row in
                table + ": " + (0..<columns).map { row.isNull($0) ? "NULL" : (row.optionalString($0) ?? "") }
                    .joined(separator: " | ").replacingOccurrences(of: machineID, with: "MACHINE")
            }
        }
        return rows
    }

    /// Runs doogit in-process: stdin empty, `gh` missing, no network, tiny retry delays.
    func run(_ fuzzCase: FuzzCase) -> RunResult {
        let output = CapturingSink()
        let errors = CapturingSink()
        let console = Console(output: output, errors: errors, outputIsTerminal: fuzzCase.terminalWidth != nil,
                              errorsIsTerminal: false, width: fuzzCase.terminalWidth)
        let transport = self.transport
        let context = Context(
            environment: fuzzCase.environment, currentDirectory: root, console: console,
            clock: { Fixture.t3 },
            makeTransport: { transport },
            retryPolicy: RetryPolicy(maximumAttempts: 2, baseDelayMilliseconds: 1, maximumDelayMilliseconds: 2,
                                     longestWaitMilliseconds: 5, deadlineMilliseconds: 2000),
            timeouts: HTTPTimeouts(connectMilliseconds: 50, totalMilliseconds: 50, stallMilliseconds: 50),
            readStandardInput: { "" },
            runProgram: { _, _ in nil },
            readStandardInputBytes: { _ in [] })
        let code = Doogit.run(fuzzCase.arguments, context: context)
        return RunResult(code: code, stdout: output.text, stderr: errors.text)
    }
}
