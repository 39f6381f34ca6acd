#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Starts a program as a shell would and collects what it writes: posix_spawn with an emptied
/// signal mask and default signal handlers (the parent may block signals on its threads, and a
/// child inherits that), its standard descriptors connected as the caller says.
public enum Subprocess {
    /// What one of the child's standard descriptors is connected to.
    public enum Connection {
        /// This descriptor of the parent (a pipe end).
        case descriptor(Int32)
        /// /dev/null, opened for reading (stdin) or writing (stdout, stderr).
        case nullDevice
    }

    public struct SpawnError: Error, Equatable {
        /// The errno value.
        public var code: Int32
    }

    /// A pipe as (read end, write end), both close-on-exec so no other child inherits them.
    public static func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SpawnError(code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Starts `path` with `arguments` as its argv (argv[0] included) and returns its process id.
    /// `newProcessGroup`: the child leads a process group of its own (its id is the child's), so
    /// that a signal to the group also reaches whatever the child starts in turn.
    public static func spawn(_ path: String, arguments: [String], environment: [String: String],
                             stdin: Connection, stdout: Connection, stderr: Connection,
                             newProcessGroup: Bool = false) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, connection) in [(STDIN_FILENO, stdin), (STDOUT_FILENO, stdout), (STDERR_FILENO, stderr)] {
            switch connection {
            case .descriptor(let source):
                // dup2 clears close-on-exec on the copy; the original closes at exec.
                posix_spawn_file_actions_adddup2(&actions, source, target)
            case .nullDevice:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnError(code: code) }
        return pid
    }

    /// Reads `descriptors` until each is closed by the writer, `limit` bytes were read in all, or
    /// the deadline passes. `complete` is false when the read stopped early.
    public static func readUntilClosed(_ descriptors: [Int32], deadline: Deadline, limit: Int = Int.max)
        -> (outputs: [[UInt8]], complete: Bool)
    {
        var outputs = [[UInt8]](repeating: [], count: descriptors.count)
        var open = Array(descriptors.indices)
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let remaining = deadline.remainingMilliseconds
            guard remaining > 0, total < limit else { return (outputs, false) }
            var entries = open.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), Int32(min(remaining, 1000)))
            if ready < 0 && errno != EINTR { return (outputs, false) }
            for (slot, entry) in zip(open, entries) where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { systemRead(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    outputs[slot] += chunk[0..<count]
                    total += count
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == slot }
                }
            }
        }
        return (outputs, true)
    }

    /// Waits for the child to end; its exit status as a shell reports it (128 + N for signal N).
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
