import Foundation
import Testing
import TestSupport

/// The ways out of `doogit ui` that do not pass through its loop: a stop from outside (kill
/// -TSTP, not the Ctrl-Z key, which arrives as a key), SIGQUIT and a crash. Each gives the
/// terminal back as q does: the termios as they were, the main screen, mouse reporting and
/// bracketed paste off, the cursor shown.
extension InteractiveViewTests {
    /// What a given-back terminal is, as tmux and stty see it: the modes off, the settings as
    /// before, and a paste arriving as typed text (no bracketed-paste marks), read by the shell's
    /// `read` into `pasted`.
    func expectGivenBack(_ terminal: TmuxTerminal, _ folder: String, sttyAfter: String) throws {
        #expect(try terminal.modes() == "0 0 0 1", "main screen, no mouse reports, cursor shown")
        #expect(try String(contentsOfFile: folder + "/stty-before", encoding: .utf8)
                == String(contentsOfFile: folder + "/" + sttyAfter, encoding: .utf8))
        #expect(!(try terminal.screen().contains { $0.contains("j/k move") }), "the list is not left on the screen")
        try terminal.paste("pasted words")
        try terminal.send("Enter")
        try terminal.waitFor("the shell's read of the paste") { _ in FileManager.default.fileExists(atPath: folder + "/pasted") }
        #expect(try String(contentsOfFile: folder + "/pasted", encoding: .utf8) == "pasted words", "bracketed paste off")
    }

    /// The pid of the view, written by the shell that became it.
    func viewPID(_ folder: String) throws -> String {
        try String(contentsOfFile: folder + "/ui.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func send(_ signal: String, to pid: String) {
        #expect(ChildProcess.run("/bin/kill", ["-\(signal)", pid], environment: ["PATH": "/usr/bin:/bin"]).status == 0)
    }

    /// `kill -TSTP` gives the terminal back and stops, as Ctrl-Z does; `fg` (SIGCONT) takes it
    /// again and redraws, and keys arrive one by one again.
    @Test func aStopFromOutsideGivesTheTerminalBackAndFgTakesItAgain() throws {
        let sandbox = try sandbox()
        let folder = sandbox.home.path
        // A shell with job control, as a user's.
        let script = """
            exec /bin/bash -m -c '
            stty -a > \(folder)/stty-before
            sh -c "echo \\$\\$ > \(folder)/ui.pid; exec \\"\\$0\\" ui" "\(DoogitBinary.path)"
            stty -a > \(folder)/stty-suspended
            echo "suspended"
            read line
            printf "%s" "$line" > \(folder)/pasted
            fg
            echo "$?" > \(folder)/ui.status
            stty -a > \(folder)/stty-after
            echo "shell is back"
            read line'
            """
        let terminal = try TmuxTerminal(script: script, environment: sandbox.environment)
        try terminal.waitFor("open, 0 done")
        #expect(try terminal.modes() == "1 1 1 0")
        send("TSTP", to: try viewPID(folder))
        try terminal.waitFor("suspended")
        try expectGivenBack(terminal, folder, sttyAfter: "stty-suspended")
        // After the paste, the script runs fg.
        try terminal.waitFor("› ○ 1  set up CI")
        #expect(try terminal.modes() == "1 1 1 0", "the view has the terminal again")
        try terminal.send("j", "Space")
        try terminal.waitFor("2 open, 1 done")
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
        #expect(try String(contentsOfFile: folder + "/stty-before", encoding: .utf8)
                == String(contentsOfFile: folder + "/stty-after", encoding: .utf8))
    }

    /// SIGQUIT and the signals of a crash (a Swift trap is SIGILL on x86 and SIGTRAP on arm64; a
    /// bad pointer SIGSEGV or SIGBUS) give the terminal back, then end the view as the signal
    /// does: the shell sees 128 + its number. Sent with kill, they take the handler a real
    /// crash takes (DoogitTerminalTests crashes for real, without a terminal to look at).
    @Test(arguments: [("QUIT", 131), ("ILL", 132), ("TRAP", 133), ("ABRT", 134), ("BUS", 135), ("FPE", 136), ("SEGV", 139)])
    func aQuitOrACrashGivesTheTerminalBack(signal: String, status: Int) throws {
        let sandbox = try sandbox()
        // The Swift runtime's crash report, where it is on, is written after the terminal is
        // given back; it must not wait for a key.
        sandbox.environment["SWIFT_BACKTRACE"] = "interactive=no"
        let folder = sandbox.home.path
        let script = """
            ulimit -c 0
            stty -a > \(folder)/stty-before
            sh -c 'echo $$ > \(folder)/ui.pid; exec "$0" ui' '\(DoogitBinary.path)'
            echo "$?" > \(folder)/ui.status
            stty -a > \(folder)/stty-after
            echo "shell is back"
            read line
            printf '%s' "$line" > \(folder)/pasted
            read line
            """
        let terminal = try TmuxTerminal(script: script, environment: sandbox.environment)
        try terminal.waitFor("open, 0 done")
        #expect(try terminal.modes() == "1 1 1 0")
        send(signal, to: try viewPID(folder))
        #expect(try exitStatus(terminal, folder) == String(status))
        try expectGivenBack(terminal, folder, sttyAfter: "stty-after")
    }
}
