#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a file beside the database: one sync at a time per database
/// (`.sync-lock`), and one issue creation at a time, never while a sync settles creations
/// (`.issue-lock`). The kernel drops the lock when the process ends, however it ends, so a
/// killed doogit never leaves it stuck.
public final class FileLock {
    private let descriptor: Int32

    /// Takes the lock; nil when another process holds it and `wait` is false.
    public init?(path: String, wait: Bool) throws {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileLockError(path: path, reason: String(cString: strerror(errno))) }
        while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            let failure = errno
            close(descriptor)
            if failure == EWOULDBLOCK { return nil }
            throw FileLockError(path: path, reason: String(cString: strerror(failure)))
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

public struct FileLockError: Error, Equatable {
    public var path: String
    public var reason: String
}

/// The lock issue creations take for one database (`.issue-lock` beside it): `todo promote` and
/// `todo add --issue` hold it while their POST is out, and sync settles the creations recorded
/// here only when it is free, so a creation on the wire is never settled (posted again) by a
/// sync that meets it half-way. A database in memory (tests) needs none.
public final class CreationLock {
    private let file: FileLock?

    private init(file: FileLock?) {
        self.file = file
    }

    /// Takes the lock; nil when another process holds it and `wait` is false.
    public static func take(databasePath: String, wait: Bool) throws -> CreationLock? {
        guard databasePath != ":memory:" else { return CreationLock(file: nil) }
        return try FileLock(path: databasePath + ".issue-lock", wait: wait).map { CreationLock(file: $0) }
    }
}
