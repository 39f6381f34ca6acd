import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads all of standard input (for `auth login --with-token`).
public enum StandardInput {
    public static func readAll(limit: Int = 1 << 20) -> String {
        String(decoding: Files.readAll(descriptor: STDIN_FILENO, limit: limit) ?? [], as: UTF8.self)
    }
}

/// Runs a helper program (only `gh auth token`) with posix_spawn and reads its stdout. Signals
/// are reset in the child so it behaves as if started from a shell; stderr is discarded.
public enum ProgramRunner {
    public static func run(_ arguments: [String], environment: [String: String]) -> (status: Int32, output: String)? {
        run(arguments, environment: environment, timeoutMilliseconds: 5000)
    }

    /// Nil when the program cannot be started, or did not finish within the timeout.
    public static func run(_ arguments: [String], environment: [String: String], timeoutMilliseconds: Int)
        -> (status: Int32, output: String)?
    {
        guard let program = arguments.first, let path = find(program, in: environment["PATH"] ?? "/usr/bin:/bin") else {
            return nil
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        defer { close(pipeEnds[0]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(pipeEnds[1])
        guard spawned == 0 else { return nil }

        // A helper that hangs (say, on a keyring prompt under cron) or talks without end is
        // stopped: it must not hold up the command.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var finished = false
        var waited = 0
        while bytes.count < 1 << 20 && waited < timeoutMilliseconds {
            var descriptor = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                waited += 100
                continue
            }
            let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, 4096) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                finished = true
                break
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if !finished { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard finished else { return nil }
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, String(decoding: bytes, as: UTF8.self))
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
