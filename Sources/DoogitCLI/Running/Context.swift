import DoogitGitHub
import DoogitSupport

/// Everything a run of doogit reads from the outside world, passed in rather than global, so
/// the whole CLI can run in-process in a test.
public struct Context {
    public var environment: [String: String]
    public var currentDirectory: String
    public var console: Console
    public var clock: () -> Timestamp
    public var makeTransport: () -> HTTPTransport
    public var retryPolicy: RetryPolicy
    public var timeouts: HTTPTimeouts
    /// All of standard input, for `auth login --with-token` and `todo add -`.
    public var readStandardInput: () -> String
    /// Standard input as bytes, up to a limit (nil: more than that), for `import -`.
    public var readStandardInputBytes: (Int) -> [UInt8]?
    /// Whether standard input is a terminal (a person typing, not a pipe).
    public var standardInputIsTerminal: Bool
    /// Shows the prompt on the terminal and reads one line without echoing it (a token); nil
    /// when nothing could be read.
    public var readHiddenLine: (String) -> String?
    /// Runs a program found on PATH and returns its exit status and stdout, or nil when it
    /// cannot be started (used for `gh auth token`).
    public var runProgram: ([String], [String: String]) -> (status: Int32, output: String)?

    public init(environment: [String: String], currentDirectory: String, console: Console,
                clock: @escaping () -> Timestamp = Timestamp.now,
                makeTransport: (() -> HTTPTransport)? = nil,
                retryPolicy: RetryPolicy = RetryPolicy(), timeouts: HTTPTimeouts = HTTPTimeouts(),
                readStandardInput: @escaping () -> String = { StandardInput.readAll() },
                standardInputIsTerminal: Bool = false,
                readHiddenLine: @escaping (String) -> String? = HiddenInput.readLine(prompt:),
                runProgram: @escaping ([String], [String: String]) -> (status: Int32, output: String)? = ProgramRunner.run,
                readStandardInputBytes: @escaping (Int) -> [UInt8]? = { StandardInput.readBytes(limit: $0) }) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.console = console
        self.clock = clock
        // By default, trusting the certificates SSL_CERT_FILE and SSL_CERT_DIR name, if any.
        self.makeTransport = makeTransport ?? { CurlTransport(trust: TrustedCertificates(environment: environment)) }
        self.retryPolicy = retryPolicy
        self.timeouts = timeouts
        self.readStandardInput = readStandardInput
        self.standardInputIsTerminal = standardInputIsTerminal
        self.readHiddenLine = readHiddenLine
        self.runProgram = runProgram
        self.readStandardInputBytes = readStandardInputBytes
    }

    /// A variable that is set and not empty.
    func variable(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }
}
