import DoogitSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// True when the process was killed because it ran past its timeout.
    public var timedOut: Bool
}

/// Runs a program as a user would (DoogitSupport's Subprocess: an emptied signal mask and default
/// signal handlers, as Swift Testing's worker threads block signals), stdin/stdout/stderr on
/// pipes, and a timeout after which it gets SIGKILL.
public enum ChildProcess {
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                           directory: String? = nil, stdin: String = "", timeoutSeconds: Double = 60) -> ProcessResult {
        guard let child = try? spawn(executable, arguments, environment: environment, directory: directory) else {
            return ProcessResult(status: -1, stdout: "", stderr: "cannot start \(executable)", timedOut: false)
        }
        return child.finish(stdin: stdin, timeoutSeconds: timeoutSeconds)
    }

    public typealias SpawnError = Subprocess.SpawnError

    /// Writes a program (a script) that a test then has doogit run, from a child process: a file
    /// this process held open for writing could be inherited by a child another test forks at
    /// that moment, and executing it would then fail (ETXTBSY) until that child exec'd.
    public static func writeExecutable(_ text: String, to path: String) throws {
        let result = run("/bin/sh", ["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", path], environment: ["PATH": "/usr/bin:/bin"],
                         stdin: text)
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    /// Feeding stdin to a child that has already exited must be an EPIPE, not a SIGPIPE that
    /// kills the test runner. (Children get default signal handlers back in Subprocess.spawn.)
    private static let pipeSignalIgnored: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             directory: String? = nil) throws -> RunningProcess {
        _ = pipeSignalIgnored
        let input = try Subprocess.makePipe()
        let output = try Subprocess.makePipe()
        let errors = try Subprocess.makePipe()
        // posix_spawn has no portable chdir action: a shell changes directory, then execs.
        var program = executable
        var words = [executable] + arguments
        if let directory {
            program = "/bin/sh"
            words = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory] + words
        }
        let started = Result { () throws(Subprocess.SpawnError) in
            try Subprocess.spawn(program, arguments: words, environment: environment, stdin: .descriptor(input.read),
                                 stdout: .descriptor(output.write), stderr: .descriptor(errors.write))
        }
        close(input.read); close(output.write); close(errors.write)
        switch started {
        case .success(let pid):
            return RunningProcess(pid: pid, stdin: input.write, stdout: output.read, stderr: errors.read)
        case .failure(let error):
            close(input.write); close(output.read); close(errors.read)
            throw error
        }
    }
}

/// A started child; `finish` feeds stdin, collects output and reaps it.
public final class RunningProcess: @unchecked Sendable {
    public let pid: pid_t
    private let stdin: Int32
    private let stdout: Int32
    private let stderr: Int32
    private var reaped = false

    init(pid: pid_t, stdin: Int32, stdout: Int32, stderr: Int32) {
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
    }

    deinit {
        if !reaped { kill() ; _ = wait() }
    }

    public func kill(_ signal: Int32 = SIGKILL) {
        Glibc.kill(pid, signal)
    }

    private func wait() -> Int32 {
        reaped = true
        return Subprocess.waitForExit(pid)
    }

    /// Reads standard error until it has said `marker` (true), or until it closes or the time is
    /// up (false): for a server that says when it listens.
    public func waitForStandardError(containing marker: String, timeoutSeconds: Double) -> Bool {
        var said: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: said, as: UTF8.self).contains(marker) {
            var descriptor = pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard left > 0, poll(&descriptor, 1, left) > 0 else { return false }
            let count = read(stderr, &buffer, buffer.count)
            guard count > 0 else { return false }
            said += buffer[..<count]
        }
        return true
    }

    public func finish(stdin text: String = "", timeoutSeconds: Double = 60) -> ProcessResult {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
        close(stdin)
        let deadline = Deadline(millisecondsFromNow: Int(timeoutSeconds * 1000))
        let (outputs, complete) = Subprocess.readUntilClosed([stdout, stderr], deadline: deadline)
        if !complete { kill() }
        close(stdout)
        close(stderr)
        let status = wait()
        return ProcessResult(status: status, stdout: String(decoding: outputs[0], as: UTF8.self),
                             stderr: String(decoding: outputs[1], as: UTF8.self), timedOut: !complete)
    }
}

/// The built `doogit` binary: beside the test bundle in SwiftPM's build folder, or $DOOGIT_BINARY.
public enum DoogitBinary {
    public static let path: String = {
        if let override = ProcessInfo.processInfo.environment["DOOGIT_BINARY"] { return override }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Linux the tests run from <build>/doogitPackageTests.xctest; on macOS from inside a bundle.
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("doogit").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return "doogit"
    }()
}
