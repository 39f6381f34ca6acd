import Foundation
import Testing
@testable import DoogitCLI
import DoogitGitHub
@testable import DoogitStore
import DoogitSupport
import TestSupport

/// What one in-process run of doogit produced.
struct RunResult {
    var code: Int32
    var stdout: String
    var stderr: String

    /// The lines of stderr (without the final newline).
    var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// A transport that records every request and refuses it: unit tests never reach a network.
final class RecordingTransport: HTTPTransport {
    private(set) var requests: [HTTPRequest] = []

    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        requests.append(request)
        throw .connection("unit tests have no network")
    }
}

/// One user's world for an in-process test: a fresh temp folder as HOME (so the default database
/// lives in it), a transport that refuses requests, and a fake `gh` that is never really started.
final class CLIHarness {
    let directory = TemporaryDirectory()
    var environment: [String: String]
    let transport = RecordingTransport()
    private(set) var transportsMade = 0
    private(set) var programCalls: [[String]] = []
    /// What the fake `gh auth token` answers; nil: gh is not installed.
    var programResult: (status: Int32, output: String)?
    /// What standard input holds, and whether it is a terminal (then `typed` is what a person
    /// types at the hidden prompt, and `prompts` what they were asked).
    var standardInput = ""
    /// Standard input as bytes, where it is not UTF-8 text; nil: `standardInput`'s.
    var standardInputBytes: [UInt8]? = nil
    var standardInputIsTerminal = false
    var typed: String? = nil
    private(set) var prompts: [String] = []

    /// What the clock says while doogit runs.
    var now = Timestamp(secondsSinceEpoch: 1_700_000_000)

    init(environment extra: [String: String] = [:]) {
        environment = ["HOME": directory.path + "/home", "PATH": "/usr/bin:/bin"]
        environment.merge(extra) { _, new in new }
    }

    var home: String { directory.path + "/home" }
    /// Where the database goes with only HOME set.
    var defaultDatabasePath: String { home + "/.local/share/doogit/doogit.sqlite3" }

    func context(console: Console, currentDirectory: String? = nil) -> Context {
        Context(
            environment: environment, currentDirectory: currentDirectory ?? directory.path, console: console,
            clock: { [self] in now },
            makeTransport: { [self] in
                transportsMade += 1
                return transport
            },
            retryPolicy: RetryPolicy(), timeouts: HTTPTimeouts(),
            readStandardInput: { [self] in standardInput },
            standardInputIsTerminal: standardInputIsTerminal,
            readHiddenLine: { [self] prompt in
                prompts.append(prompt)
                return typed
            },
            runProgram: { [self] arguments, _ in
                programCalls.append(arguments)
                return programResult
            },
            readStandardInputBytes: { [self] limit in
                let bytes = standardInputBytes ?? Array(standardInput.utf8)
                return bytes.count <= limit ? bytes : nil
            })
    }

    /// Runs doogit in-process; `width` set means stdout is a terminal of that many columns.
    func run(_ arguments: [String], terminal: Bool = false, width: Int? = nil, currentDirectory: String? = nil,
             errorsIsTerminal: Bool = false) -> RunResult {
        let output = CapturingSink()
        let errors = CapturingSink()
        let console = Console(output: output, errors: errors, outputIsTerminal: terminal, errorsIsTerminal: errorsIsTerminal,
                              width: width)
        let code = Doogit.run(arguments, context: context(console: console, currentDirectory: currentDirectory))
        return RunResult(code: code, stdout: output.text, stderr: errors.text)
    }

    func run(_ arguments: String...) -> RunResult { run(arguments) }

    /// The store at the default database path, for preparing data and checking results.
    func openStore() throws -> Store {
        try Store.open(path: defaultDatabasePath)
    }

    /// Creates a folder (and its parents) inside the temp folder and returns its path.
    @discardableResult
    func makeDirectory(_ relative: String) throws -> String {
        let path = directory.path + "/" + relative
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes a file inside the temp folder (parents created) and returns its path.
    @discardableResult
    func writeFile(_ relative: String, _ text: String) throws -> String {
        let path = directory.path + "/" + relative
        let parent = String(path[..<path.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// Records for tests, with fixed times so that output is stable.
enum Fixture {
    static let t0 = Timestamp(secondsSinceEpoch: 1_700_000_000)  // 2023-11-14T22:13:20.000Z
    static let t1 = Timestamp(secondsSinceEpoch: 1_700_000_060)  // 2023-11-14T22:14:20.000Z
    static let t2 = Timestamp(secondsSinceEpoch: 1_700_000_120)  // 2023-11-14T22:15:20.000Z
    static let t3 = Timestamp(secondsSinceEpoch: 1_700_003_600)  // 2023-11-14T23:13:20.000Z

    static func repository(id: Int64, owner: String, name: String, description: String?, archived: Bool = false,
                           gone: Bool = false, isPrivate: Bool = false) -> RepositoryRecord {
        RepositoryRecord(id: id, owner: owner, name: name, fullName: "\(owner)/\(name)", description: description,
                         url: "https://github.com/\(owner)/\(name)", isPrivate: isPrivate, archived: archived,
                         gone: gone, addedAt: t0, syncedAt: t0)
    }

    static let helloWorld = repository(id: 1_296_269, owner: "octocat", name: "Hello-World",
                                       description: "My first repository on GitHub!")

    static func todo(id: Int64, text: String, done: Bool = false, repository: RepositoryRecord = helloWorld) -> TodoRecord {
        TodoRecord(id: id, uuid: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - String(id).count) + String(id),
                   repositoryID: repository.id, repositoryFullName: repository.fullName, text: text, done: done,
                   position: id, createdAt: t0, updatedAt: t0, doneAt: done ? t1 : nil)
    }
}

/// Checks the contract's shape of a usage error: exit 2, nothing on stdout, exactly one line on
/// stderr, `doogit: error: ...` ending with the hint that names the help topic.
func expectUsageError(_ result: RunResult, topic: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.code == 2, "exit code", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasSuffix("\n"), sourceLocation: sourceLocation)
    #expect(result.errorLines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("doogit: error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    let hint = topic.isEmpty ? "Run 'doogit help'." : "Run 'doogit help \(topic)'."
    #expect(result.stderr.hasSuffix(hint + "\n"), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
}

/// The text without ANSI escape sequences, line by line, for measuring what a terminal shows.
func visible(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0)) }
        .joined(separator: "\n")
}

enum FileManagerCheck {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
