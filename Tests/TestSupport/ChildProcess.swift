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

/// Runs a program as a user would: posix_spawn with an emptied signal mask and default signal
/// handlers (Swift Testing's worker threads block signals, and a child would inherit that),
/// stdin/stdout/stderr on pipes, and a timeout after which it gets SIGKILL.
public enum ChildProcess {
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                           directory: String? = nil, stdin: String = "", timeoutSeconds: Double = 60) -> ProcessResult {
        guard let child = try? spawn(executable, arguments, environment: environment, directory: directory) else {
            return ProcessResult(status: -1, stdout: "", stderr: "cannot start \(executable)", timedOut: false)
        }
        return child.finish(stdin: stdin, timeoutSeconds: timeoutSeconds)
    }

    public struct SpawnError: Error { public var code: Int32 }

    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             directory: String? = nil) throws -> RunningProcess {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else { throw SpawnError(code: errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for descriptor in input + output + errors { posix_spawn_file_actions_addclose(&actions, descriptor) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // posix_spawn has no portable chdir action: a shell changes directory, then execs.
        var program = executable
        var words = [executable] + arguments
        if let directory {
            program = "/bin/sh"
            words = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory] + words
        }
        let argv = words.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        close(input[0]); close(output[1]); close(errors[1])
        guard code == 0 else {
            close(input[1]); close(output[0]); close(errors[0])
            throw SpawnError(code: code)
        }
        return RunningProcess(pid: pid, stdin: input[1], stdout: output[0], stderr: errors[0])
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
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        return status
    }

    public func finish(stdin text: String = "", timeoutSeconds: Double = 60) -> ProcessResult {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
        close(stdin)
        var out: [UInt8] = [], err: [UInt8] = []
        var open: [Int32] = [stdout, stderr]
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                timedOut = true
                kill()
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            for entry in fds where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, 65536) }
                if count > 0 {
                    if entry.fd == stdout { out += chunk[0..<count] } else { err += chunk[0..<count] }
                } else if count == 0 || (count < 0 && errno != EINTR) {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        close(stdout)
        close(stderr)
        let status = wait()
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProcessResult(status: exitStatus, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: err, as: UTF8.self), timedOut: timedOut)
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
