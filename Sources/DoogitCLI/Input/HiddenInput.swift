#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a secret (a token) typed on the terminal without showing it: the prompt on stderr,
/// echo off while reading, the terminal's settings restored afterwards. The terminal is put in
/// non-canonical mode with signals off, so that Ctrl-C is seen here and the settings are
/// restored before doogit stops as Ctrl-C stops it; backspace and Ctrl-U still edit the line.
public enum HiddenInput {
    public static func readLine(prompt: String) -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        // Echo goes off before the prompt shows, so nothing typed after it can be echoed.
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0 else { return nil }
        writeError(prompt)
        var line: [UInt8] = []
        var interrupted = false
        reading: while true {
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { break }
            switch byte {
            case 0x0A, 0x0D, 0x04: break reading  // Enter, Ctrl-D
            case 0x03:  // Ctrl-C
                interrupted = true
                break reading
            case 0x7F, 0x08: if !line.isEmpty { line.removeLast() }  // backspace
            case 0x15: line.removeAll()  // Ctrl-U
            default: line.append(byte)
            }
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        writeError("\n")
        if interrupted {
            // Stop as Ctrl-C stops any program, now that the terminal is as it was.
            signal(SIGINT, SIG_DFL)
            raise(SIGINT)
        }
        return String(decoding: line, as: UTF8.self)
    }

    private static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
