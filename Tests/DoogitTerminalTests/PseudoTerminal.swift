#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal for the tests: the slave end stands for the user's terminal, and what is
/// written to it is read back at the master end.
final class PseudoTerminal {
    struct Failure: Error {
        var step: String
        var code: Int32
    }

    let master: Int32
    let slave: Int32

    init() throws {
        #if canImport(Glibc)
        // Glibc's module leaves out posix_openpt, grantpt, unlockpt and ptsname; openpty does the
        // same (in libc itself since glibc 2.34).
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw Failure(step: "openpty", code: errno) }
        #else
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure(step: "posix_openpt", code: errno) }
        guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            let code = errno
            close(master)
            throw Failure(step: "grantpt/unlockpt/ptsname", code: code)
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            let code = errno
            close(master)
            throw Failure(step: "open slave", code: code)
        }
        #endif
        self.master = master
        self.slave = slave
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Everything readable at the master end, waiting up to `timeout` milliseconds for the
    /// first byte and a little for more.
    func readOutput(timeout: Int32 = 2000) -> String {
        var bytes: [UInt8] = []
        var wait = timeout
        while true {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, wait) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
            wait = 50
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func attributes() -> termios {
        var attributes = termios()
        _ = tcgetattr(slave, &attributes)
        return attributes
    }

    func setSize(columns: UInt16, rows: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
    }
}

/// Whether two termios are the same, byte for byte.
func sameBytes(_ a: termios, _ b: termios) -> Bool {
    withUnsafeBytes(of: a) { first in withUnsafeBytes(of: b) { second in first.elementsEqual(second) } }
}
