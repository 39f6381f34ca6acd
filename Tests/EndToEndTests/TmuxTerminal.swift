import Foundation
import TestSupport

/// A real terminal for `doogit ui`: a tmux server of the test's own (its socket in a temp
/// folder, no configuration read), one window of a given size running a shell script, keys typed
/// with `send-keys` and the screen read with `capture-pane`. The window stays after the program
/// exits, so the test reads what the shell printed after it. The server is killed however the
/// test ends.
final class TmuxTerminal {
    private let folder = TemporaryDirectory()
    private var socket: String { folder.path + "/tmux.sock" }

    /// Starts `script` (run by /bin/sh) in a `columns` x `rows` window, with `environment` and
    /// TERM=xterm-256color.
    init(script: String, environment: [String: String], columns: Int = 80, rows: Int = 24) throws {
        let scriptPath = folder.path + "/run.sh"
        var exports = ""
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            exports += "export \(name)='\(value.replacingOccurrences(of: "'", with: "'\\''"))'\n"
        }
        try ChildProcess.writeExecutable("#!/bin/sh\n" + exports + "export TERM=xterm-256color\n" + script + "\n", to: scriptPath)
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "test", scriptPath])
        try tmux(["set-option", "-t", "test", "remain-on-exit", "on"])
    }

    deinit {
        _ = ChildProcess.run("/usr/bin/tmux", ["-S", socket, "kill-server"], environment: ["PATH": "/usr/bin:/bin"])
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = ChildProcess.run("/usr/bin/tmux", ["-S", socket] + arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
        guard result.status == 0 else { throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// Types keys as tmux names them ("j", "Space", "Enter", "Escape", "C-c", "Down").
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "test"] + keys)
    }

    /// Types `text` as it is.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "test", "-l", text])
    }

    /// The screen's text, one string per row (without styles).
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", "test"]).components(separatedBy: "\n")
    }

    /// The screen with its styles, as escape sequences.
    func styledScreen() throws -> String {
        try tmux(["capture-pane", "-p", "-e", "-t", "test"])
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "test", "-x", String(columns), "-y", String(rows)])
    }

    /// Pastes `text` as a terminal does: inside bracketed-paste marks when the program on the
    /// terminal asked for them.
    func paste(_ text: String) throws {
        try tmux(["set-buffer", "-b", "test", text])
        try tmux(["paste-buffer", "-p", "-d", "-b", "test", "-t", "test"])
    }

    /// The pane's modes as tmux keeps them: the alternate screen, mouse reporting (of any
    /// kind), SGR mouse encoding and the cursor shown. "1 1 1 0" while the view runs, "0 0 0 1"
    /// when the terminal is given back.
    func modes() throws -> String {
        try tmux(["display-message", "-p", "-t", "test", "#{alternate_on} #{mouse_any_flag} #{mouse_sgr_flag} #{cursor_flag}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pane's process id (the shell running the script).
    func panePID() throws -> pid_t {
        pid_t(try tmux(["display-message", "-p", "-t", "test", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Waits until the screen satisfies `condition` (each change of the screen is looked at;
    /// the bound is Patience's, reached only by a broken run), and returns it.
    @discardableResult
    func waitFor(_ what: String, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(Patience.seconds)
        var last: [String] = []
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            usleep(20_000)
        }
        throw TmuxError(message: "waited for \(what); the screen was:\n" + last.joined(separator: "\n"))
    }

    /// Waits until some row contains `text`.
    @discardableResult
    func waitFor(_ text: String) throws -> [String] {
        try waitFor("'\(text)'") { rows in rows.contains { $0.contains(text) } }
    }
}

struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
