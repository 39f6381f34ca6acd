#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One sync at a time per database: an exclusive `flock` on a file beside it. The kernel drops
/// the lock when the process ends, however it ends, so a killed sync never leaves it stuck.
public final class SyncLock {
    private let descriptor: Int32

    /// Takes the lock; nil when another process holds it and `wait` is false.
    public init?(path: String, wait: Bool) throws {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SyncLockError(path: path, reason: String(cString: strerror(errno))) }
        while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            let failure = errno
            close(descriptor)
            if failure == EWOULDBLOCK { return nil }
            throw SyncLockError(path: path, reason: String(cString: strerror(failure)))
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

public struct SyncLockError: Error, Equatable {
    public var path: String
    public var reason: String
}
