import DoogitSupport
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal: doogit gets its slave end as stdin and stderr (as in a shell), the test
/// reads what appears on the screen and types on the master end.
final class PseudoTerminal {
    let master: Int32
    private(set) var slave: Int32
    private(set) var screen: [UInt8] = []

    init() throws {
        // posix_openpt, unlockpt and ptsname as Linux's ioctls (Glibc's module exports none of
        // them): TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int).
        let TIOCSPTLCK: UInt = 0x4004_5431
        let TIOCGPTN: UInt = 0x8004_5430
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, TIOCSPTLCK, &unlock) == 0, ioctl(master, TIOCGPTN, &number) == 0 else {
            throw POSIXError(.ENOTTY)
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENOTTY) }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        close(master)
        if slave >= 0 { close(slave) }
    }

    var text: String { String(decoding: screen, as: UTF8.self) }

    /// Closes the test's own slave end (once doogit has exited, the terminal then hangs up).
    func closeSlave() {
        guard slave >= 0 else { return }
        close(slave)
        slave = -1
    }

    /// Whether the terminal echoes what is typed.
    var echoes: Bool {
        var settings = termios()
        return tcgetattr(slave, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
            && settings.c_lflag & tcflag_t(ICANON) != 0
    }

    func type(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what the terminal shows until `condition` holds or `seconds` pass; whether it held.
    @discardableResult
    func waitFor(seconds: Double = Patience.seconds, _ condition: (String) -> Bool) -> Bool {
        let deadline = Deadline(millisecondsFromNow: Int(seconds * 1000))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !condition(text) {
            let remaining = deadline.remainingMilliseconds
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(min(remaining, 1000))) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { return condition(text) }  // EIO: every slave end is closed
            screen += chunk[0..<count]
        }
        return true
    }
}

/// doogit on a terminal: the progress line of `sync` and the hidden token prompt.
@Suite(.serialized)
struct TerminalTests {
    /// Starts doogit with stdin and stderr on the terminal and stdout on a pipe.
    func start(_ arguments: [String], sandbox: Sandbox, terminal: PseudoTerminal) throws -> (pid: pid_t, stdout: Int32) {
        let output = try Subprocess.makePipe()
        let pid = try Subprocess.spawn(DoogitBinary.path, arguments: [DoogitBinary.path] + arguments,
                                       environment: sandbox.environment, stdin: .descriptor(terminal.slave),
                                       stdout: .descriptor(output.write), stderr: .descriptor(terminal.slave))
        close(output.write)
        return (pid, output.read)
    }

    /// Waits for the child within a timeout (SIGKILL after it) and returns its status as a shell shows it.
    func finish(_ pid: pid_t, stdout: Int32, seconds: Double = Patience.seconds) -> (status: Int32, stdout: String) {
        let (outputs, complete) = Subprocess.readUntilClosed([stdout], deadline: Deadline(millisecondsFromNow: Int(seconds * 1000)))
        if !complete { kill(pid, SIGKILL) }
        close(stdout)
        return (Subprocess.waitForExit(pid), String(decoding: outputs[0], as: UTF8.self))
    }

    /// Ctrl-C in the middle of a sync: the progress line is cleared before doogit stops, so the
    /// shell's prompt does not land after a half-drawn "syncing 1/2".
    @Test func ctrlCLeavesNoHalfDrawnProgressLine() throws {
        let sandbox = try Sandbox()
        sandbox.environment["TERM"] = "xterm"
        sandbox.github.addRepository(id: 1, owner: "other", name: "one", description: nil)
        sandbox.github.addRepository(id: 2, owner: "other", name: "two", description: nil)
        #expect(sandbox.run("repo", "add", "other/one", "other/two").status == 0)
        sandbox.github.setDelay(milliseconds: 60_000)  // the sync waits on GitHub until stopped
        defer { sandbox.github.stop() }

        let terminal = try PseudoTerminal()
        let child = try start(["sync"], sandbox: sandbox, terminal: terminal)
        #expect(terminal.waitFor { $0.contains("syncing 1/2") }, "progress shows: \(terminal.text.debugDescription)")
        kill(child.pid, SIGINT)
        let ended = finish(child.pid, stdout: child.stdout)
        terminal.closeSlave()
        terminal.waitFor { _ in false }  // what is left on the screen, until the hang-up
        #expect(ended.status == 130, "stopped as Ctrl-C stops a program")
        #expect(terminal.text.hasSuffix("syncing 1/2\u{1B}[K\r\u{1B}[K"), "\(terminal.text.debugDescription)")
    }

    /// `auth login --with-token` on a terminal asks for the token and does not show it.
    @Test func loginAsksForTheTokenWithoutEchoingIt() throws {
        let sandbox = try Sandbox()
        sandbox.environment["GH_TOKEN"] = nil
        sandbox.environment["XDG_CONFIG_HOME"] = sandbox.home.path + "/config"
        let terminal = try PseudoTerminal()
        let child = try start(["auth", "login", "--with-token"], sandbox: sandbox, terminal: terminal)
        #expect(terminal.waitFor { $0.contains("Paste a GitHub token (it is not shown), then press Enter: ") },
                "\(terminal.text.debugDescription)")
        terminal.type(sandbox.github.token + "\r")
        let ended = finish(child.pid, stdout: child.stdout)
        #expect(terminal.echoes, "the terminal echoes again afterwards")
        terminal.closeSlave()
        terminal.waitFor { _ in false }
        #expect(ended.status == 0, "\(terminal.text)")
        #expect(ended.stdout.hasPrefix("Signed in to "))
        #expect(!terminal.text.contains(sandbox.github.token), "the token is not echoed: \(terminal.text.debugDescription)")
        let saved = try String(contentsOfFile: sandbox.home.path + "/config/doogit/tokens", encoding: .utf8)
        #expect(saved.hasSuffix("\n\(sandbox.github.apiURL) \(sandbox.github.token)\n"), "\(saved)")
    }

    /// Ctrl-C at the prompt puts the terminal back (echo on) before doogit stops.
    @Test func ctrlCAtThePromptRestoresTheTerminal() throws {
        let sandbox = try Sandbox()
        let terminal = try PseudoTerminal()
        let child = try start(["auth", "login", "--with-token"], sandbox: sandbox, terminal: terminal)
        #expect(terminal.waitFor { $0.contains("then press Enter: ") })
        terminal.type("ghp_half\u{03}")
        let ended = finish(child.pid, stdout: child.stdout)
        #expect(ended.status == 130)
        #expect(terminal.echoes, "echo is on again")
        terminal.closeSlave()
        terminal.waitFor { _ in false }
        #expect(!terminal.text.contains("ghp_half"))
    }
}
