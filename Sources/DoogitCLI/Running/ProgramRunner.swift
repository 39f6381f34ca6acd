import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads all of standard input (for `auth login --with-token`).
public enum StandardInput {
    /// Reading stops after about this many bytes.
    public static let defaultLimit = 1 << 20

    public static func readAll(limit: Int = defaultLimit) -> String {
        String(decoding: Files.readAll(descriptor: STDIN_FILENO, limit: limit) ?? [], as: UTF8.self)
    }

    /// All of standard input, or nil when it is longer than `limit` or cannot be read.
    public static func readBytes(limit: Int) -> [UInt8]? {
        guard let bytes = Files.readAll(descriptor: STDIN_FILENO, limit: limit + 1), bytes.count <= limit else { return nil }
        return bytes
    }
}

/// Runs a helper program (only `gh auth token`) and reads its stdout. Signals are reset in the
/// child so it behaves as if started from a shell; stdin and stderr are /dev/null.
public enum ProgramRunner {
    /// How long a helper may take, from its start.
    public static let timeoutMilliseconds = 5000
    /// The status of a helper that did not finish in time and was stopped (a real exit status
    /// is never negative).
    public static let timedOut: Int32 = -1

    public static func run(_ arguments: [String], environment: [String: String]) -> (status: Int32, output: String)? {
        run(arguments, environment: environment, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Nil when the program cannot be started; status `timedOut` when it did not finish within
    /// the timeout, which counts from the start: a helper that trickles output is stopped as one
    /// that is silent.
    public static func run(_ arguments: [String], environment: [String: String], timeoutMilliseconds: Int)
        -> (status: Int32, output: String)?
    {
        let deadline = Deadline(millisecondsFromNow: timeoutMilliseconds)
        guard let program = arguments.first, let path = find(program, in: environment["PATH"] ?? "/usr/bin:/bin"),
              let output = try? Subprocess.makePipe()
        else { return nil }
        defer { close(output.read) }
        let started = try? Subprocess.spawn(path, arguments: arguments, environment: environment,
                                            stdin: .nullDevice, stdout: .descriptor(output.write), stderr: .nullDevice)
        close(output.write)
        guard let pid = started else { return nil }

        // A helper that hangs (say, on a keyring prompt under cron) or talks without end is
        // stopped: it must not hold up the command.
        let (outputs, finished) = Subprocess.readUntilClosed([output.read], deadline: deadline, limit: 1 << 20)
        if !finished { kill(pid, SIGKILL) }
        let status = Subprocess.waitForExit(pid)
        guard finished else { return (timedOut, "") }
        return (status, String(decoding: outputs[0], as: UTF8.self))
    }

    static func find(_ program: String, in searchPath: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
