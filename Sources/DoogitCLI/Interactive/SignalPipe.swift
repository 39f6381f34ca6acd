#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitSupport

/// Signals as bytes on a pipe, so that the view's loop, waiting in poll(2), reads them as it
/// reads keys: a handler only writes the signal's number (async-signal-safe) and the loop does
/// the rest (gives the terminal back, redraws on a resize).
final class SignalPipe {
    let readEnd: Int32
    private let writeEnd: Int32
    private var previous: [Int32: sigaction] = [:]

    init(_ signals: [Int32]) throws {
        let ends = try Subprocess.makePipe()
        readEnd = ends.read
        writeEnd = ends.write
        for end in [readEnd, writeEnd] { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        signalPipeWriteEnd = writeEnd
        for number in signals {
            if let old = SignalHandler.install(writeSignalNumber, for: number) { previous[number] = old }
        }
    }

    /// The signals that arrived since the last call, in order.
    func drain() -> [Int32] {
        var bytes = [UInt8](repeating: 0, count: 64)
        var found: [Int32] = []
        while true {
            let count = read(readEnd, &bytes, bytes.count)
            guard count > 0 else { break }
            found += bytes[0..<count].map(Int32.init)
        }
        return found
    }

    /// Puts back the handlers there were.
    func restore() {
        for (number, action) in previous { SignalHandler.restore(action, for: number) }
        previous = [:]
    }

    deinit {
        restore()
        signalPipeWriteEnd = -1
        close(readEnd)
        close(writeEnd)
    }
}

/// The pipe's write end, for the handler (which cannot capture anything).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

private func writeSignalNumber(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    let saved = errno
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
