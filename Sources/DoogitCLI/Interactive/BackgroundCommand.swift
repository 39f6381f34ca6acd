#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitSupport

/// A doogit command run by the view while it goes on taking keys: this same program in a child
/// process (so `s` is exactly `doogit sync`), its output collected from a pipe that the view's
/// loop polls, and its exit status when the pipe closes.
final class BackgroundCommand {
    let outputEnd: Int32
    private let pid: pid_t
    private(set) var output: [UInt8] = []
    private(set) var status: Int32?

    init(arguments: [String], environment: [String: String]) throws {
        let pipe = try Subprocess.makePipe()
        defer { close(pipe.write) }
        do {
            pid = try Subprocess.spawn(Self.executable, arguments: ["doogit"] + arguments, environment: environment,
                                       stdin: .nullDevice, stdout: .descriptor(pipe.write), stderr: .descriptor(pipe.write))
        } catch {
            close(pipe.read)
            throw CommandFailure(message: "cannot start doogit again to run '\(arguments.joined(separator: " "))' (\(Files.reason(error.code)))",
                                 hint: "run it in another terminal")
        }
        outputEnd = pipe.read
        _ = fcntl(outputEnd, F_SETFL, fcntl(outputEnd, F_GETFL) | O_NONBLOCK)
    }

    /// Reads what is there; true once the command has ended (its status is then set).
    func readAvailable() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(outputEnd, &buffer, buffer.count)
            if count > 0 {
                if output.count < 1 << 20 { output += buffer[0..<count] }
                continue
            }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return false }
            break
        }
        close(outputEnd)
        status = Subprocess.waitForExit(pid)
        return true
    }

    /// The lines it printed, cleaned for the terminal.
    var lines: [String] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").map { TerminalText.sanitize(String($0)) }
            .filter { !$0.trimmingSpaces.isEmpty }
    }

    /// This program, as the system knows it (not argv[0], which a shell may have found on PATH).
    static var executable: String {
        #if os(Linux)
        return "/proc/self/exe"
        #else
        var size: UInt32 = 4096
        var path = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&path, &size) == 0 else { return CommandLine.arguments.first ?? "doogit" }
        return String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
