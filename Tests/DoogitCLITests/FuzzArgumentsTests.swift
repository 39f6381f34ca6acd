import Foundation
import Testing
@testable import DoogitCLI
import DoogitGitHub
@testable import DoogitStore
import DoogitSupport
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Generated command lines run in-process through `Doogit.run`, against a small prepared
/// database, with a transport that refuses every request. For every vector: the exit code is
/// one the contract names; a failure prints exactly one clean `doogit: error: ` line on stderr;
/// a failure leaves the database as it was.
///
/// Each batch runs in a child process (an exit test), so a trap in doogit fails the test with
/// the seed and the input that caused it instead of taking the whole test run down. Every case
/// is derived from (seed, case number) alone: `ArgumentFuzzer.makeCase(seed:index:world:)`
/// rebuilds any reported case.
struct FuzzArgumentsTests {
    static let seeds: [UInt64] = [0x5EED_A001, 0x5EED_A002, 0x5EED_A003, 0x5EED_A004]
    static let casesPerSeed = 800

    @Test(arguments: seeds)
    func generatedCommandLinesKeepTheContract(seed: UInt64) async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success,
                                     "the batch of seed \(FuzzText.hex(seed)) must run to its end without a trap") {
            [seed = seed as UInt64, root = scratch.path as String, progress = progress as String,
             cases = Self.casesPerSeed as Int] in
            do {
                try ArgumentFuzzer.runBatch(seed: seed, cases: cases, root: root, progressPath: progress)
            } catch {
                Issue.record("FuzzArguments seed \(FuzzText.hex(seed)): the batch could not run: \(error)")
            }
        }
        recordUnfinished(finished, "FuzzArguments seed \(FuzzText.hex(seed))", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    // MARK: The harness itself, and a few inputs of each kind checked in-process

    /// The comparison of dumps would miss nothing: every kind of write shows in it, and a reset
    /// brings the prepared rows back.
    @Test func theDumpSeesEveryWrite() throws {
        let root = TemporaryDirectory()
        let world = try ArgumentFuzzWorld(root: root.path)
        let prepared = try world.dump()
        #expect(prepared.count(where: { $0.hasPrefix("repositories: ") }) == 3)
        #expect(prepared.count(where: { $0.hasPrefix("todos: ") }) == 4)
        #expect(prepared.count(where: { $0.hasPrefix("todo_tombstones: ") }) == 1)
        for arguments in [["todo", "done", "1"], ["todo", "undo", "2"], ["todo", "edit", "1", "new", "text"], ["todo", "rm", "3"],
                          ["todo", "add", "-R", "acme/widgets", "more"], ["repo", "rm", "--force", "other/widgets"]] {
            let result = world.run(FuzzCase(arguments: arguments, environment: world.baseEnvironment))
            #expect(result.code == 0, "\(arguments): exit \(result.code), stderr \(result.stderr.debugDescription)")
            #expect(try world.dump() != prepared, "\(arguments) changed nothing the dump shows")
            try world.reset()
            // Todos get new random UUIDs on each reset; everything else is as prepared.
            let again = try world.dump()
            #expect(again.count == prepared.count)
            #expect(again.filter { $0.hasPrefix("repositories: ") } == prepared.filter { $0.hasPrefix("repositories: ") })
        }
    }

    /// Odd and huge IDs are usage errors (exit 2) that change nothing, never a trap on Int64 overflow.
    @Test func hugeAndOddIDsAreUsageErrors() throws {
        let root = TemporaryDirectory()
        let world = try ArgumentFuzzWorld(root: root.path)
        for id in ["99999999999999999999", "9223372036854775808", "-9223372036854775808", "0x1", "1e3", "1.0", "+1",
                   " 1", "１", "٣", "0", "-0"] {
            let before = try world.dump()
            let result = world.run(FuzzCase(arguments: ["todo", "done", id], environment: world.baseEnvironment))
            #expect(result.code == 2, "todo done \(id.debugDescription): exit \(result.code), stderr \(result.stderr.debugDescription)")
            #expect(result.errorLines.count == 1 && result.stderr.hasPrefix("doogit: error: "),
                    "todo done \(id.debugDescription): stderr \(result.stderr.debugDescription)")
            #expect(try world.dump() == before)
        }
    }
}

// MARK: - The fuzzer

/// One generated command line and the world around it.
fileprivate struct FuzzCase {
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
fileprivate final class ArgumentFuzzWorld {
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

fileprivate enum ArgumentFuzzer {
    static let allowedExitCodes: Set<Int32> = [0, 1, 2, 4, 75]
    static let maximumIssuesPerBatch = 20

    /// The generator of case `index` of a batch: a function of the seed and the index alone.
    static func makeCase(seed: UInt64, index: Int, world: ArgumentFuzzWorld) -> FuzzCase {
        var generator = ArgumentVectorGenerator(
            random: SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03)), world: world)
        return generator.makeCase()
    }

    static func runBatch(seed: UInt64, cases: Int, root: String, progressPath: String) throws {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let world = try ArgumentFuzzWorld(root: root + "/world")
        var recorded = 0
        var unrecorded: [String: Int] = [:]
        var exitCodes: [Int32: Int] = [:]
        for index in 0..<cases {
            let fuzzCase = makeCase(seed: seed, index: index, world: world)
            progress.note("FuzzArguments seed \(FuzzText.hex(seed)) case \(index): \(fuzzCase.summary)")
            let before = try world.dump()
            let result = world.run(fuzzCase)
            let after = try world.dump()
            exitCodes[result.code, default: 0] += 1
            let problems = check(fuzzCase, result, changed: before != after)
            if !problems.isEmpty {
                if recorded < maximumIssuesPerBatch {
                    recorded += 1
                    var message = """
                        FuzzArguments seed \(FuzzText.hex(seed)) case \(index): \(problems.joined(separator: "; "))
                          \(fuzzCase.summary)
                          exit \(result.code)
                          stdout \(FuzzText.describe(result.stdout))
                          stderr \(FuzzText.describe(result.stderr))
                        """
                    if before != after {
                        message += "\n  rows before \(before.filter { !after.contains($0) })"
                        message += "\n  rows after \(after.filter { !before.contains($0) })"
                    }
                    Issue.record(Comment(rawValue: message))
                } else {
                    for problem in problems { unrecorded[problem, default: 0] += 1 }
                }
            }
            // Successful commands may change the database; start the next case from the prepared rows.
            if before != after { try world.reset() }
        }
        if !unrecorded.isEmpty {
            Issue.record(Comment(rawValue: "FuzzArguments seed \(FuzzText.hex(seed)): more failures not shown: \(unrecorded)"))
        }
        // A batch of nothing but usage errors would check little: some runs must get past the parser.
        let pastTheParser = cases - (exitCodes[2] ?? 0)
        if exitCodes[0] == nil || pastTheParser < cases / 10 {
            Issue.record(Comment(rawValue: "FuzzArguments seed \(FuzzText.hex(seed)): too few runs got past the argument parser: exit codes \(exitCodes.sorted { $0.key < $1.key })"))
        }
        progress.note("FuzzArguments seed \(FuzzText.hex(seed)): \(cases) cases done; exit codes \(exitCodes.sorted { $0.key < $1.key })")
    }

    /// What is wrong with one run, as short phrases (empty: nothing).
    static func check(_ fuzzCase: FuzzCase, _ result: RunResult, changed: Bool) -> [String] {
        var problems: [String] = []
        if !allowedExitCodes.contains(result.code) { problems.append("exit code \(result.code) is not one of 0, 1, 2, 4, 75") }
        if result.stdout.contains(ArgumentFuzzWorld.token) || result.stderr.contains(ArgumentFuzzWorld.token) {
            problems.append("the token was printed")
        }
        guard result.code != 0 else { return problems }
        if changed { problems.append("a failing command changed the database") }
        if result.code == 2 && !result.stdout.isEmpty { problems.append("a usage error printed on stdout") }
        guard result.stderr.hasSuffix("\n") else {
            problems.append("stderr does not end with a line break")
            return problems
        }
        let lines = result.errorLines
        let errorLines = lines.filter { $0.hasPrefix("doogit: error: ") }
        if fuzzCase.mayBeVerbose {
            if errorLines.count != 1 || lines.last?.hasPrefix("doogit: error: ") != true {
                problems.append("stderr of a verbose failure does not end with exactly one 'doogit: error: ' line")
            }
        } else if lines.count != 1 || errorLines.count != 1 {
            problems.append("stderr is \(lines.count) lines, not one 'doogit: error: ' line")
        }
        for line in lines {
            if let scalar = line.unicodeScalars.first(where: FuzzText.isControl) {
                problems.append("stderr holds the control character U+\(String(scalar.value, radix: 16, uppercase: true))")
                break
            }
            if let scalar = line.unicodeScalars.first(where: FuzzText.isBidiControl) {
                problems.append("stderr holds the bidirectional control U+\(String(scalar.value, radix: 16, uppercase: true))")
                break
            }
        }
        return problems
    }
}

/// Builds command lines from the words doogit knows, their typos, IDs, repository references,
/// hostile Unicode and very long strings.
fileprivate struct ArgumentVectorGenerator {
    var random: SplitMix64
    let world: ArgumentFuzzWorld

    static let commandPaths: [[String]] = [
        ["todo", "add"], ["todo", "list"], ["todo", "ls"], ["todo", "done"], ["todo", "undo"], ["todo", "edit"],
        ["todo", "rm"], ["todo", "remove"], ["repo", "add"], ["repo", "list"], ["repo", "ls"], ["repo", "remove"],
        ["repo", "rm"], ["repo", "search"], ["sync"], ["auth", "status"], ["auth", "login"], ["auth", "logout"],
        ["help"], ["help", "todo"], ["help", "todo", "add"], ["help", "repo", "search"], ["help", "sync"],
        ["todo"], ["repo"], ["auth"], [],
    ]
    static let commandWords = ["todo", "repo", "sync", "auth", "help", "add", "list", "ls", "done", "undo", "edit",
                               "rm", "remove", "search", "status", "login", "logout"]
    static let flags = ["--json", "--quiet", "-q", "--verbose", "-v", "--help", "-h", "--version", "--force", "-f",
                        "--wait", "--dry-run", "-n", "--open", "--done", "--all-repos", "--ascii", "--with-token",
                        "--", "-", "---", "--=", "-qv", "-vq", "-qf", "-fq", "-nq", "-qn", "-xyz", "-Q", "--JSON",
                        "--colour", "--no-color", "--repo", "-R", "--color", "-hq", "--json=", "--json=true",
                        "--force=yes", "--help=me", "-=", "-R=", "--repo=", "--color=", "-\u{301}", "--\u{1B}[31m"]
    static let optionNames = ["db", "json", "color", "quiet", "verbose", "help", "version", "repo", "force", "wait",
                              "dry-run", "open", "done", "all-repos", "ascii", "with-token"]
    static let colorValues = ["auto", "always", "never", "", "sometimes", "ALWAYS", "never ", "\u{1B}[0m", "always\u{202E}"]
    static let ids = ["0", "1", "2", "3", "4", "5", "6", "7", "42", "-1", "-0", "+1", " 1", "1 ", "01", "00000000001",
                      "99999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                      "18446744073709551616", "1.0", "1.5", "1e3", "0x1", "0b1", "0o7", "1_000", "1,2", "1-3", "１", "٣",
                      "²", "Ⅷ", "", " ", "NaN", "inf", "-inf", "1\u{0}", "1\u{1B}", "３\u{20E3}"]
    static let validReferences = [
        "octocat/Hello-World", "octocat/hello-world", "OCTOCAT/HELLO-WORLD", "Hello-World", "hello-world", "acme/widgets",
        "widgets", "other/widgets", "https://github.com/octocat/Hello-World", "https://github.com/octocat/Hello-World.git",
        "git@github.com:acme/widgets.git", "ssh://git@github.com/acme/widgets.git", "https://www.github.com/acme/widgets/",
        "https://github.com/octocat/Hello-World/issues/3", "nobody/nothing", "ghost", "a/b", "a-b/c.d_e",
    ]
    static let malformedReferences = [
        "a//b", "a/b/c", "a/b/c/d/e/f", "/", "//", "///", "/x", "x/", "owner/", "/name", "https://gitlab.com/a/b",
        "https://github.com.evil.example/a/b", "http://github.com/octocat/Hello-World", "https://github.com/octocat",
        "https://github.com/", "https://github.com", "git@github.com:", "git@gitlab.com:a/b.git", "ssh://git@github.com/",
        "ftp://github.com/a/b", "github.com/a/b", "a b/c", "a/b c", "\ta/b", "a/b\n", "a/b\u{1B}[2J",
        "octocat/Hello-World\u{202E}dlroW", "\u{202E}octocat/x", "a/b\u{7F}", "a/b\u{85}", "a/b\u{9B}31m", "-/x", "-a/b",
        "a/.", "a/..", ".", "..", "a/.git", "https://user:pass@github.com/a/b", "HTTPS://GITHUB.COM/A/B",
        "https://github.com:22/a/b", "git@github.com:a/b/c.git", "a:b", ":", "@", "a@b:c/d", "https://github.com/%2e%2e/x",
        "ｏｃｔｏ/ｘ", "octocat∕x", "a\u{200B}/b", "a/b\u{FEFF}", "javascript:alert(1)", "file:///etc/passwd", "::::",
        "https://", "git@:a/b", "\u{FFFD}/\u{FFFD}", "a/b?x=1", "a/b#frag", "~/x", "$HOME/x", "`id`/x",
        String(repeating: "a", count: 40) + "/x", "x/" + String(repeating: "b", count: 101),
    ]
    static let unicodeWords = [
        "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "漢字", "かな", "한국어", "e\u{301}\u{301}\u{301}", "\u{301}", "Z̸̧̛̖̗a̶l̷g̴o̵", "\u{FFFD}",
        "\u{FFFD}\u{FFFD}", "\u{200D}", "\u{200B}", "\u{FEFF}", "\u{202E}evil\u{202C}", "\u{2066}x\u{2069}", "עברית",
        "العربية", "\u{061C}", "\u{200F}", "Ω", "ß", "ﬁ", "İ", "\u{10FFFF}", "\u{E000}", "\u{1F600}\u{FE0F}", "ǅ",
        "\u{2028}", "\u{2029}", "\u{85}", "\u{A0}", "\u{3000}", "’", "«»", "\\", "\"", "'", "%s%n", "{}", "$(id)",
    ]
    static let textWords = ["write", "docs", "fix", "the", "bug", "release", "notes", "a", "TODO", "-", "--x", "x=y",
                            "done", "add", "todo", "repo", "42", "-3", "#3", "@me"]
    static let controlCharacters: [String] = {
        let values: [UInt32] = Array(0x01...0x1F) + [0x7F] + Array(0x80...0x9F)
        return values.compactMap { Unicode.Scalar($0).map { String(Character($0)) } }
    }()
    /// Strings of about 100,000 characters (no NUL: argv cannot hold one).
    static let longStrings: [String] = [
        String(repeating: "a", count: 100_000),
        String(repeating: "a/", count: 50_000),
        "octocat/" + String(repeating: "x", count: 100_000),
        "https://github.com/" + String(repeating: "o", count: 50_000) + "/" + String(repeating: "n", count: 50_000),
        String(repeating: "é", count: 100_000),
        String(repeating: "\u{1B}[31m", count: 20_000),
        String(repeating: "👍🏽", count: 50_000),
        String(repeating: "1", count: 100_000),
        String(repeating: "word ", count: 20_000),
        String(repeating: "e\u{301}", count: 50_000),
        String(repeating: "\u{202E}漢", count: 50_000),
        "--" + String(repeating: "x", count: 100_000),
        "-" + String(repeating: "q", count: 100_000),
        "--color=" + String(repeating: "z", count: 100_000),
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    mutating func makeCase() -> FuzzCase {
        var arguments: [String]
        switch int(0...99) {
        case 0...44: arguments = wellFormed()
        case 45...74: arguments = structured()
        default: arguments = unstructured()
        }
        arguments = withSafeDatabaseOptions(arguments)
        var environment = world.baseEnvironment
        if chance(0.45) { environment[chance(0.8) ? "GH_TOKEN" : "GITHUB_TOKEN"] = ArgumentFuzzWorld.token }
        if chance(0.1) { environment["GH_REPO"] = chance(0.5) ? pick(Self.validReferences) : pick(Self.malformedReferences) }
        if chance(0.05) {
            environment["DOOGIT_API_URL"] = pick(["http://example.com", "https://127.0.0.1:1", "not a url",
                                                  "https://api.github.com?x=1", "ftp://x", "http://127.0.0.1:9/api",
                                                  "https://[::1]:1", "https://", "https://a@b/"])
        }
        if chance(0.05) { environment["GH_HOST"] = pick(["github.com", "ghe.example.com", "", "evil host", "\u{1B}]0;x\u{7}", "a/b"]) }
        if chance(0.1) { environment[pick(["LANG", "LC_ALL", "LC_CTYPE"])] = pick(["C", "en_US.UTF-8", "POSIX", "tr_TR.UTF-8", ""]) }
        if chance(0.1) { environment[pick(["NO_COLOR", "CLICOLOR_FORCE"])] = pick(["1", "0", ""]) }
        let width: Int? = chance(0.2) ? pick([1, 2, 3, 5, 10, 40, 80, 300, 10_000]) : nil
        return FuzzCase(arguments: arguments, environment: environment, terminalWidth: width)
    }

    /// A command that could well run: the right kinds of arguments, mostly valid values, and
    /// options the command has; so that the runs reach the database and the network code.
    mutating func wellFormed() -> [String] {
        var arguments = pick(Self.runnablePaths)
        let smallIDs = ["1", "2", "3", "4", "5", "6", "1", "2", "3", "42", "0", "-1", "99999999999999999999"]
        func reference(_ generator: inout ArgumentVectorGenerator) -> String {
            generator.chance(0.75) ? generator.pick(Self.validReferences) : generator.referenceToken()
        }
        switch arguments.joined(separator: " ") {
        case "todo add":
            for _ in 0..<int(1...4) { arguments.append(chance(0.8) ? pick(Self.textWords) : textToken()) }
            if chance(0.6) {
                let value = reference(&self)
                arguments += pick([["-R", value], ["--repo", value], ["-R" + value], ["--repo=" + value]])
            }
        case "todo list", "todo ls":
            if chance(0.5) { arguments.append(reference(&self)) }
            for _ in 0..<int(0...2) { arguments.append(pick(["--open", "--done", "--all-repos", "--ascii"])) }
        case "todo done", "todo undo", "todo rm", "todo remove":
            for _ in 0..<int(1...3) { arguments.append(pick(smallIDs)) }
        case "todo edit":
            arguments.append(pick(smallIDs))
            for _ in 0..<int(1...3) { arguments.append(chance(0.8) ? pick(Self.textWords) : textToken()) }
        case "repo add":
            for _ in 0..<int(1...3) { arguments.append(reference(&self)) }
        case "repo remove", "repo rm":
            for _ in 0..<int(1...2) { arguments.append(reference(&self)) }
            if chance(0.5) { arguments.append(pick(["--force", "-f"])) }
        case "repo search":
            if chance(0.6) { arguments.append(pick(["wid", "HELLO", "", "漢", "x y"])) }
        case "sync":
            if chance(0.4) { arguments.append(pick(["--wait", "--dry-run", "-n"])) }
        case "auth login":
            if chance(0.7) { arguments.append("--with-token") }
        default:
            break
        }
        for _ in 0..<int(0...2) {
            let option = pick([["--json"], ["-q"], ["--quiet"], ["-v"], ["--verbose"], ["--color", pick(["auto", "always", "never"])],
                               ["--color=never"], ["--db", "placeholder"], ["-qv"], ["--help"]])
            if chance(0.5) { arguments.insert(contentsOf: option, at: 0) } else { arguments += option }
        }
        return arguments
    }

    static let runnablePaths: [[String]] = [
        ["todo", "add"], ["todo", "add"], ["todo", "list"], ["todo", "ls"], ["todo", "done"], ["todo", "undo"],
        ["todo", "edit"], ["todo", "rm"], ["todo", "remove"], ["repo", "add"], ["repo", "list"], ["repo", "remove"],
        ["repo", "rm"], ["repo", "search"], ["sync"], ["sync"], ["auth", "status"], ["auth", "login"], ["auth", "logout"],
    ]

    /// A command path, arguments of the kinds it takes, options sprinkled in.
    mutating func structured() -> [String] {
        var path = pick(Self.commandPaths)
        if chance(0.12), !path.isEmpty {
            let index = int(0...(path.count - 1))
            path[index] = typo(path[index])
        }
        var arguments = path
        let count = int(0...3)
        switch path.joined(separator: " ") {
        case "todo done", "todo undo", "todo rm", "todo remove":
            for _ in 0..<max(1, count) { arguments.append(chance(0.8) ? pick(Self.ids) : anyToken()) }
        case "todo edit":
            arguments.append(chance(0.8) ? pick(Self.ids) : anyToken())
            for _ in 0..<count { arguments.append(textToken()) }
        case "todo add":
            for _ in 0..<max(1, count) { arguments.append(textToken()) }
        case "repo add", "repo remove", "repo rm", "todo list", "todo ls":
            for _ in 0..<count { arguments.append(referenceToken()) }
        case "repo search":
            for _ in 0..<min(count, 2) { arguments.append(chance(0.5) ? pick(["wid", "HELLO", "", "漢"]) : anyToken()) }
        default:
            for _ in 0..<min(count, 2) { arguments.append(anyToken()) }
        }
        for _ in 0..<int(0...3) {
            let position = int(0...arguments.count)
            arguments.insert(contentsOf: optionTokens(), at: position)
        }
        if chance(0.1) { arguments.insert("--", at: int(0...arguments.count)) }
        return arguments
    }

    /// Anything at all, up to a dozen tokens.
    mutating func unstructured() -> [String] {
        var arguments: [String] = []
        for _ in 0..<int(0...12) {
            if chance(0.2) { arguments += optionTokens() } else { arguments.append(anyToken()) }
        }
        return arguments
    }

    mutating func optionTokens() -> [String] {
        switch int(0...9) {
        case 0...3:
            return [pick(Self.flags)]
        case 4:
            let value = chance(0.8) ? pick(Self.colorValues) : anyToken()
            return chance(0.5) ? ["--color", value] : ["--color=" + value]
        case 5:
            let value = chance(0.85) ? referenceToken() : anyToken()
            switch int(0...5) {
            case 0: return ["-R", value]
            case 1: return ["-R" + value]
            case 2: return ["-R=" + value]
            case 3: return ["--repo=" + value]
            case 4: return ["-qR", value]
            default: return ["--repo", value]
            }
        case 6:
            return chance(0.5) ? ["--db", "placeholder"] : ["--db=placeholder"]
        case 7:
            let cluster = "-" + String((0..<int(1...4)).map { _ in pick(Array("qvhfnRxQ")) })
            return chance(0.5) ? [cluster] : [cluster, anyToken()]
        case 8:
            let name = pick(Self.optionNames)
            return chance(0.5) ? ["--" + typo(name)] : ["--" + name + "=" + anyToken()]
        default:
            return [pick(Self.flags), anyToken()]
        }
    }

    mutating func referenceToken() -> String {
        switch int(0...9) {
        case 0...3: return pick(Self.validReferences)
        case 4...6: return pick(Self.malformedReferences)
        case 7: return "a" + String(repeating: "/", count: int(2...40)) + "b"
        case 8:
            let host = pick(["gitlab.com", "github.com.evil.example", "evil.example", "127.0.0.1", "[::1]", "GITHUB.COM",
                             "github.com:443", "gïthub.com", "api.github.com"])
            return pick(["https://", "http://", "ssh://git@", "git://"]) + host + "/" + pick(["a/b", "octocat/Hello-World", "", "a", "a/b/c"])
        default: return anyToken()
        }
    }

    mutating func textToken() -> String {
        switch int(0...9) {
        case 0...5: return pick(Self.textWords)
        case 6: return pick(Self.unicodeWords)
        case 7: return pick(Self.controlCharacters) + pick(Self.textWords)
        default: return anyToken()
        }
    }

    mutating func anyToken() -> String {
        switch int(0...99) {
        case 0...14: return pick(Self.commandWords)
        case 15...22: return typo(pick(Self.commandWords))
        case 23...32: return pick(Self.flags)
        case 33...44: return pick(Self.ids)
        case 45...52: return pick(Self.validReferences)
        case 53...62: return pick(Self.malformedReferences)
        case 63...72: return pick(Self.unicodeWords)
        case 73...78: return pick(Self.controlCharacters)
        case 79...82: return ""
        case 83...84: return pick([" ", "\t", "\n", "  ", "\r\n"])
        case 85...89: return pick(Self.textWords)
        case 90...92: return pick(Self.longStrings)
        case 93...95: return String(Int64.random(in: Int64.min...Int64.max, using: &random))
        default:
            // A few pieces glued together.
            var text = ""
            for _ in 0..<int(2...4) {
                text += pick([pick(Self.commandWords), pick(Self.ids), pick(Self.unicodeWords), pick(Self.controlCharacters),
                              "/", "=", "-", "--", ":", "@", "."])
            }
            return text
        }
    }

    mutating func typo(_ word: String) -> String {
        var characters = Array(word)
        switch int(0...8) {
        case 0:
            if !characters.isEmpty { characters.remove(at: int(0...(characters.count - 1))) }
        case 1:
            characters.insert(pick(Array("abcdefghijklmnopqrstuvwxyz-_")), at: int(0...characters.count))
        case 2:
            if characters.count >= 2 {
                let index = int(0...(characters.count - 2))
                characters.swapAt(index, index + 1)
            }
        case 3:
            if !characters.isEmpty { characters[int(0...(characters.count - 1))] = pick(Array("aeiouxyz0ß漢")) }
        case 4:
            return word.uppercased()
        case 5:
            return word + pick([" ", "\t", "\u{A0}", "\u{200B}"])
        case 6:
            return pick(["-", "--"]) + word
        case 7:
            return word + pick(["\u{301}", "\u{1B}[0m", "\u{FFFD}", "=", "/"])
        default:
            characters += characters.suffix(1)
        }
        return String(characters)
    }

    /// `--db` must never name a file outside the temp folder (a relative path would land in the
    /// test process's working directory), so every value after or inside a `--db` becomes one
    /// of a few safe paths. Over-eager on purpose: it also rewrites words after a `--`.
    mutating func withSafeDatabaseOptions(_ arguments: [String]) -> [String] {
        var result = arguments
        var index = 0
        while index < result.count {
            if result[index] == "--db" {
                if index + 1 < result.count { result[index + 1] = safeDatabaseValue() }
                index += 2
                continue
            }
            if result[index].hasPrefix("--db=") { result[index] = "--db=" + safeDatabaseValue() }
            index += 1
        }
        return result
    }

    mutating func safeDatabaseValue() -> String {
        switch int(0...9) {
        case 0...4: return world.databasePath
        case 5: return world.otherDatabasePath
        case 6: return world.root
        case 7: return world.notADatabasePath
        case 8: return world.notADatabasePath + "/inside.sqlite3"
        default: return ""
        }
    }
}

// MARK: - Fuzzing helpers (the shared ones are in TestSupport/Fuzzing.swift)

extension FuzzText {
    /// C0 (line breaks included: the caller splits lines first), DEL and C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Characters that reorder text on a terminal.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}

/// After an exit test: when the child process did not end normally, an issue naming the case
/// it had started last (or the watchdog's note).
fileprivate func recordUnfinished(_ finished: ExitTest.Result?, _ label: String, progressPath: String) {
    guard finished == nil else { return }
    Issue.record(Comment(rawValue: "\(label): the child process trapped or hung; the last case it started: \(FuzzProgressLog.lastLine(of: progressPath))"))
}
