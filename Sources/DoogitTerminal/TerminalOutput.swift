#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to the terminal. A frame goes out in one write when the kernel takes it, so the
/// terminal does not show half of it.
public enum TerminalOutput {
    /// Writes every byte, again after a partial write or an interrupted one (EINTR), waiting
    /// for room on a non-blocking descriptor. False if the descriptor failed (the terminal went
    /// away, EIO or EPIPE).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// The same for bytes; uses only write(2) and poll(2), so a signal handler may call it.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var next = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, next, remaining)
            if written > 0 {
                next += written
                remaining -= written
                continue
            }
            guard written < 0 else { return false }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&room, 1, -1)
            default:
                return false
            }
        }
        return true
    }
}
