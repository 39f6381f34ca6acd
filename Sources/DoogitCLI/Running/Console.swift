#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// Where output goes. Text is buffered and written in large pieces when flushed, so a long list
/// costs a few write(2) calls rather than one per line.
public protocol OutputSink: AnyObject {
    func write(_ text: String)
    /// UTF-8 bytes, as a large `--json` document is made.
    func write(bytes: [UInt8])
    func flush()
    /// Why an earlier write failed (an errno value), once one has: the output is incomplete.
    var writeFailure: Int32? { get }
}

extension OutputSink {
    public var writeFailure: Int32? { nil }

    public func write(bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }
}

/// Writes to a file descriptor (stdout, stderr). The first failed write is kept in
/// `writeFailure` and later output is dropped. A reader that went away (EPIPE, only seen when
/// SIGPIPE is ignored; otherwise the kernel stops doogit as it stops `cat`) is not a failure:
/// it asked for no more.
public final class FileDescriptorSink: OutputSink {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var stopped = false
    public private(set) var writeFailure: Int32?

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ text: String) {
        guard !stopped else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(bytes: [UInt8]) {
        guard !stopped else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        var offset = 0
        while offset < buffer.count && !stopped {
            let written = buffer.withUnsafeBytes { bytes in
                systemWrite(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = written == 0 ? EIO : errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {  // a non-blocking stdout that is full: wait
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            stopped = true
            if code != EPIPE { writeFailure = code }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Keeps output in memory, for tests that run the CLI in-process.
public final class CapturingSink: OutputSink {
    public private(set) var text = ""

    public init() {}

    public func write(_ text: String) { self.text += text }
    public func flush() {}
}

/// The terminal doogit talks to: two streams, whether each is a terminal, and the width.
public final class Console {
    public let output: OutputSink
    public let errors: OutputSink
    public let outputIsTerminal: Bool
    public let errorsIsTerminal: Bool
    /// Columns of the terminal, when stdout is one.
    public let width: Int?

    public init(output: OutputSink, errors: OutputSink, outputIsTerminal: Bool = false,
                errorsIsTerminal: Bool = false, width: Int? = nil) {
        self.output = output
        self.errors = errors
        self.outputIsTerminal = outputIsTerminal
        self.errorsIsTerminal = errorsIsTerminal
        self.width = width
    }

    /// The process's own stdout and stderr.
    public static func standard(environment: [String: String]) -> Console {
        let outputIsTerminal = isatty(STDOUT_FILENO) == 1
        var width: Int?
        if outputIsTerminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
                width = Int(size.ws_col)
            } else {
                width = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
            }
        }
        return Console(output: FileDescriptorSink(descriptor: STDOUT_FILENO),
                       errors: FileDescriptorSink(descriptor: STDERR_FILENO),
                       outputIsTerminal: outputIsTerminal, errorsIsTerminal: isatty(STDERR_FILENO) == 1, width: width)
    }

    public func print(_ line: String) {
        output.write(line)
        output.write("\n")
    }

    public func printError(_ line: String) {
        errors.write(line)
        errors.write("\n")
    }

    public func flush() {
        output.flush()
        errors.flush()
    }
}
