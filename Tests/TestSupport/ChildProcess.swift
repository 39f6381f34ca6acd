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
/// pipes, and a timeout after which it gets SIGKILL. Each child leads a process group of its own,
/// so that stopping it also stops what it started (a shell's commands): a test stops what it
/// starts, however it ends.
public enum ChildProcess {
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                           directory: String? = nil, stdin: String = "", timeoutSeconds: Double = Patience.seconds) -> ProcessResult {
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

    /// Starts a child; the `RunningProcess` returned owns it, and stops it (SIGKILL to its process
    /// group) when it is released unfinished. `ownProcessGroup: false` keeps it in the test
    /// runner's group, for a server that starts nothing itself: a Ctrl-C of the run then stops it
    /// too, where nothing else would.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             directory: String? = nil, ownProcessGroup: Bool = true) throws -> RunningProcess {
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
                                 stdout: .descriptor(output.write), stderr: .descriptor(errors.write),
                                 newProcessGroup: ownProcessGroup)
        }
        close(input.read); close(output.write); close(errors.write)
        switch started {
        case .success(let pid):
            return RunningProcess(pid: pid, leadsGroup: ownProcessGroup, stdin: input.write, stdout: output.read, stderr: errors.read)
        case .failure(let error):
            close(input.write); close(output.read); close(errors.read)
            throw error
        }
    }
}

/// A started child; `finish` feeds stdin, collects output and reaps it, `stop` kills it. One
/// released unfinished is stopped: an early `try #require`, a thrown error or a failed wait
/// leaves no process behind.
public final class RunningProcess: @unchecked Sendable {
    public let pid: pid_t
    private let leadsGroup: Bool
    private let stdout: Int32
    private let stderr: Int32
    private let lock = NSLock()
    /// The write end of its stdin until `finish` closes it (-1 then).
    private var stdin: Int32
    private var reaped = false
    private var outputsClosed = false

    init(pid: pid_t, leadsGroup: Bool, stdin: Int32, stdout: Int32, stderr: Int32) {
        self.pid = pid
        self.leadsGroup = leadsGroup
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
    }

    deinit {
        stop()
    }

    /// Sends `signal` to the child and to everything in its process group; nothing once it has
    /// been reaped (its id may then be another process's).
    public func kill(_ signal: Int32 = SIGKILL) {
        lock.lock()
        defer { lock.unlock() }
        guard !reaped else { return }
        Glibc.kill(leadsGroup ? -pid : pid, signal)
    }

    /// Whether the child has ended (it is not reaped here: `finish` still reports how).
    public var hasEnded: Bool {
        guard !lock.withLock({ reaped }) else { return true }
        // Linux leaves the zeroed siginfo_t as it is when no child has ended.
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// Kills the child (and its group) unless it has ended, reaps it and closes its pipes.
    public func stop() {
        kill()
        closeDescriptors()
        _ = wait()
    }

    private func closeInput() {
        lock.lock()
        defer { lock.unlock() }
        if stdin >= 0 { close(stdin) }
        stdin = -1
    }

    private func closeDescriptors() {
        closeInput()
        lock.lock()
        defer { lock.unlock() }
        guard !outputsClosed else { return }
        outputsClosed = true
        close(stdout)
        close(stderr)
    }

    /// The exit status as a shell shows it; once reaped, -1. It waits for the end without reaping
    /// first, then reaps under the lock: `kill` from another thread never meets a reused id.
    private func wait() -> Int32 {
        guard !lock.withLock({ reaped }) else { return -1 }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        lock.lock()
        defer { lock.unlock() }
        guard !reaped else { return -1 }
        reaped = true
        return Subprocess.waitForExit(pid)
    }

    /// Reads standard error until it has said `marker` (true), or until it closes or the time is
    /// up (false): for a server that says when it listens.
    public func waitForStandardError(containing marker: String, timeoutSeconds: Double = Patience.seconds) -> Bool {
        read(stderr, until: { $0.contains(marker) }, timeoutSeconds: timeoutSeconds) != nil
    }

    /// Reads standard output until `said` holds for what it said: that text, or nil when it
    /// closes or the time is up first. For a server that says where it listens.
    public func readStandardOutput(until said: (String) -> Bool, timeoutSeconds: Double = Patience.seconds) -> String? {
        read(stdout, until: said, timeoutSeconds: timeoutSeconds)
    }

    private func read(_ descriptor: Int32, until said: (String) -> Bool, timeoutSeconds: Double) -> String? {
        var bytes: [UInt8] = []
        let deadline = Deadline(millisecondsFromNow: Int(timeoutSeconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !said(String(decoding: bytes, as: UTF8.self)) {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline.remainingMilliseconds
            guard left > 0 else { return nil }
            let ready = poll(&entry, 1, Int32(min(left, 1000)))
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public func finish(stdin text: String = "", timeoutSeconds: Double = Patience.seconds) -> ProcessResult {
        let bytes = Array(text.utf8)
        let input = lock.withLock { stdin }
        if input >= 0 { _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) } }
        closeInput()
        let deadline = Deadline(millisecondsFromNow: Int(timeoutSeconds * 1000))
        let (outputs, complete) = Subprocess.readUntilClosed([stdout, stderr], deadline: deadline)
        if !complete { kill() }
        closeDescriptors()
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
