#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A line of progress on stderr that redraws itself (`\r`, erase to the end of the line). It is
/// drawn only where it can be taken back: stderr is a terminal that understands the erase
/// (not TERM=dumb). While it shows, Ctrl-C first clears it and then stops doogit as Ctrl-C
/// stops any program, so no half-drawn line is left before the shell's prompt.
final class ProgressLine {
    private let console: Console
    private let enabled: Bool
    private var shown = false
    private var previousHandler: sigaction?

    init(console: Console, environment: [String: String], enabled: Bool) {
        self.console = console
        self.enabled = enabled && console.errorsIsTerminal && environment["TERM"] != "dumb"
    }

    deinit { restoreInterruptHandler() }

    func show(_ text: String) {
        guard enabled else { return }
        if !shown {
            shown = true
            installInterruptHandler()
        }
        console.errors.write("\r" + text + "\u{1B}[K")
        console.errors.flush()
    }

    /// Clears the line (when it was drawn) and puts Ctrl-C back as it was.
    func finish() {
        guard shown else { return }
        shown = false
        console.errors.write("\r\u{1B}[K")
        console.errors.flush()
        restoreInterruptHandler()
    }

    private func installInterruptHandler() {
        previousHandler = SignalHandler.install(clearLineAndStop, for: SIGINT)
    }

    private func restoreInterruptHandler() {
        guard let previous = previousHandler else { return }
        previousHandler = nil
        SignalHandler.restore(previous, for: SIGINT)
    }
}

/// Clears the progress line, then lets the signal stop doogit as it would have. Only
/// async-signal-safe calls: write(2) of static bytes, signal(2), raise(3).
private func clearLineAndStop(_ number: Int32) {
    let clear: StaticString = "\r\u{1B}[K"
    _ = write(STDERR_FILENO, clear.utf8Start, clear.utf8CodeUnitCount)
    _ = signal(number, SIG_DFL)
    raise(number)
}
