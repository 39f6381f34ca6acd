#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal taken over for a full-screen view, and given back as it was.
///
/// `enter()` saves the input's termios and puts it in raw mode: no echo, no line editing, and no
/// signals from keys (ISIG off), so Ctrl-C, Ctrl-Z and Ctrl-\ arrive as keys and the view quits
/// on its own terms rather than being stopped with the terminal still raw; Ctrl-S and Ctrl-Q
/// (IXON) and Ctrl-V (IEXTEN) arrive too, and Enter comes as CR (no ICRNL). Output processing
/// stays on, so a stray line written by anyone still starts at the left edge. It then switches
/// to the alternate screen (the shell's screen comes back untouched), hides the cursor and
/// turns on SGR mouse reports and bracketed paste. `leave()` undoes all of it in reverse order.
/// A signal that ends the process is the caller's to notice (a self-pipe, say) and to follow
/// with `leave()` before it ends.
public final class TerminalSession {
    public struct Failure: Error, Equatable {
        /// The errno value (ENOTTY: the descriptor is not a terminal).
        public var code: Int32
    }

    /// Alternate screen, cursor hidden, mouse clicks and wheel reported (SGR encoding), pastes
    /// bracketed.
    public static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h"
    /// `enterSequence` undone in reverse order, after ending a synchronized update and resetting
    /// the style, in case a frame was cut off half-written.
    public static let restoreSequence = "\u{1B}[?2026l\u{1B}[0m\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"

    /// Where keys are read and whose termios is changed.
    public let input: Int32
    /// Where the screen is written.
    public let output: Int32

    // The termios to give back and the bytes that undo the screen, prepared before they are
    // needed: leaving allocates nothing.
    private let savedTermios: UnsafeMutablePointer<termios>
    private let active: UnsafeMutablePointer<Int32>
    private let restoreBytes: UnsafeMutableRawBufferPointer

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
        savedTermios = .allocate(capacity: 1)
        savedTermios.initialize(to: termios())
        active = .allocate(capacity: 1)
        active.initialize(to: 0)
        let bytes = Array(Self.restoreSequence.utf8)
        restoreBytes = .allocate(byteCount: bytes.count, alignment: 1)
        restoreBytes.copyBytes(from: bytes)
    }

    deinit {
        leave()
        savedTermios.deallocate()
        active.deallocate()
        restoreBytes.deallocate()
    }

    /// Whether the terminal is taken over (entered and not left).
    public var isActive: Bool { active.pointee != 0 }

    /// Takes the terminal over; nothing happens if it already is. Throws, changing nothing,
    /// when `input` is not a terminal.
    public func enter() throws(Failure) {
        guard !isActive else { return }
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { throw Failure(code: errno) }
        // Saved before raw mode starts, so a signal from now on finds what to restore.
        savedTermios.pointee = original
        active.pointee = 1
        var raw = Self.raw(original)
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            let code = errno
            active.pointee = 0
            throw Failure(code: code)
        }
        TerminalOutput.writeAll(output, Self.enterSequence)
    }

    /// Gives the terminal back as it was at `enter()`: the screen, the cursor and the termios.
    /// Calling it again, or without `enter()`, does nothing.
    public func leave() {
        guard isActive else { return }
        TerminalOutput.writeAll(output, UnsafeRawBufferPointer(restoreBytes))
        // TCSADRAIN: the sequences above are sent before the modes change.
        _ = tcsetattr(input, TCSADRAIN, savedTermios)
        active.pointee = 0
    }

    /// The termios of raw mode, as cfmakeraw(3) makes it but with output processing kept.
    static func raw(_ original: termios) -> termios {
        var raw = original
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        // A read returns as soon as one byte is there.
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        return raw
    }

    /// The terminal's size in columns and rows, nil if `fd` is not a terminal or does not know.
    public static func size(of fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) { ioctl(fd, UInt(TIOCGWINSZ), $0) }
        guard result == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}
