#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import CTerminalRestore

/// The terminal taken over for a full-screen view, and given back as it was.
///
/// `enter()` saves the input's termios and puts it in raw mode: no echo, no line editing, and no
/// signals from keys (ISIG off), so Ctrl-C, Ctrl-Z and Ctrl-\ arrive as keys and the view quits
/// on its own terms rather than being stopped with the terminal still raw; Ctrl-S and Ctrl-Q
/// (IXON) and Ctrl-V (IEXTEN) arrive too, and Enter comes as CR (no ICRNL). Output processing
/// stays on, so a stray line written by anyone still starts at the left edge. It then switches
/// to the alternate screen (the shell's screen comes back untouched), hides the cursor and
/// turns on SGR mouse reports and bracketed paste. `leave()` undoes all of it in reverse order.
///
/// A signal that ends the process in good order (SIGINT, SIGTERM, SIGHUP) is the caller's to
/// notice (a self-pipe, say) and to follow with `leave()`. The signals that cannot wait for
/// that are given back at once by a session made with `givesBackOnSignals`: a stop from outside
/// (SIGTSTP) gives the terminal back and stops, and after SIGCONT the caller enters again;
/// SIGQUIT and a crash give it back and then end the process as they would have.
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
    /// Whether a stop from outside, SIGQUIT and a crash give this terminal back.
    public let givesBackOnSignals: Bool

    // The termios to give back and the bytes that undo the screen, prepared before they are
    // needed, in C: leaving allocates nothing, and a signal handler gives them back the same way.
    private let state: UnsafeMutablePointer<terminal_restore_state>

    /// A session on `input` and `output`. With `givesBackOnSignals`, it is the process's one
    /// terminal that signals give back (a later such session takes its place).
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, givesBackOnSignals: Bool = false) {
        self.input = input
        self.output = output
        self.givesBackOnSignals = givesBackOnSignals
        state = .allocate(capacity: 1)
        state.initialize(to: terminal_restore_state())
        let bytes = Array(Self.restoreSequence.utf8)
        terminal_restore_init(state, input, output, bytes, bytes.count)
    }

    deinit {
        leave()
        if givesBackOnSignals { terminal_restore_unwatch(state) }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Whether the terminal is taken over (entered and not given back).
    public var isActive: Bool { terminal_restore_is_taken(state) != 0 }

    /// Takes the terminal over; nothing happens if it already is. Throws, changing nothing,
    /// when `input` is not a terminal.
    public func enter() throws(Failure) {
        guard !isActive else { return }
        // A stop in the middle would give back a terminal half taken, and leave it marked
        // given back when raw mode comes after it: it waits until the terminal is taken.
        let held = Self.holdStops()
        defer { Self.release(held) }
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { throw Failure(code: errno) }
        if givesBackOnSignals { _ = terminal_restore_watch(state) }
        // Saved before raw mode starts, so a signal from now on finds what to restore.
        terminal_restore_take(state, &original)
        var raw = Self.raw(original)
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            let code = errno
            terminal_restore_forget(state)
            throw Failure(code: code)
        }
        TerminalOutput.writeAll(output, Self.enterSequence)
    }

    /// Gives the terminal back as it was at `enter()`: the screen, the cursor and the termios.
    /// Calling it again, or without `enter()`, does nothing.
    public func leave() {
        guard isActive else { return }
        let held = Self.holdStops()
        defer { Self.release(held) }
        terminal_restore_give_back(state)
    }

    /// Blocks SIGTSTP in this thread (the view has only one), returning the mask to put back.
    private static func holdStops() -> sigset_t {
        var stops = sigset_t()
        var previous = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGTSTP)
        sigprocmask(SIG_BLOCK, &stops, &previous)
        return previous
    }

    /// Puts back the mask `holdStops` changed: a stop that came meanwhile happens now.
    private static func release(_ previous: sigset_t) {
        var previous = previous
        sigprocmask(SIG_SETMASK, &previous, nil)
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
