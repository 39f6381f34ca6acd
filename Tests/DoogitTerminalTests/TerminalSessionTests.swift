#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitTerminal
import Testing

private func flags(_ attributes: termios) -> (echo: Bool, canonical: Bool, signals: Bool) {
    (attributes.c_lflag & tcflag_t(ECHO) != 0, attributes.c_lflag & tcflag_t(ICANON) != 0, attributes.c_lflag & tcflag_t(ISIG) != 0)
}

@Suite("TerminalSession")
struct TerminalSessionTests {
    @Test("enter: raw mode and the alternate screen; leave: all of it undone, termios exactly")
    func enterAndLeave() throws {
        let terminal = try PseudoTerminal()
        let before = terminal.attributes()
        #expect(flags(before) == (true, true, true), "a new terminal echoes and edits lines")
        let session = TerminalSession(input: terminal.slave, output: terminal.slave)
        #expect(!session.isActive)

        try session.enter()
        #expect(session.isActive)
        let raw = terminal.attributes()
        #expect(flags(raw) == (false, false, false))
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        let entered = terminal.readOutput()
        #expect(entered == TerminalSession.enterSequence)
        #expect(entered.hasPrefix("\u{1B}[?1049h"))
        #expect(entered.contains("\u{1B}[?1006h"))
        #expect(entered.contains("\u{1B}[?2004h"))

        session.leave()
        #expect(!session.isActive)
        #expect(sameBytes(terminal.attributes(), before))
        let left = terminal.readOutput()
        #expect(left == TerminalSession.restoreSequence)
        #expect(left.hasSuffix("\u{1B}[?1049l"))
        #expect(left.contains("\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h"))

        session.leave()
        #expect(sameBytes(terminal.attributes(), before))
        #expect(terminal.readOutput(timeout: 100) == "", "leaving twice writes nothing more")
    }

    @Test("entering twice keeps the first saved termios")
    func enterTwice() throws {
        let terminal = try PseudoTerminal()
        let before = terminal.attributes()
        let session = TerminalSession(input: terminal.slave, output: terminal.slave)
        try session.enter()
        try session.enter()
        _ = terminal.readOutput()
        session.leave()
        #expect(sameBytes(terminal.attributes(), before))
    }

    @Test("a session dropped while entered gives the terminal back")
    func deinitLeaves() throws {
        let terminal = try PseudoTerminal()
        let before = terminal.attributes()
        do {
            let session = TerminalSession(input: terminal.slave, output: terminal.slave)
            try session.enter()
        }
        #expect(sameBytes(terminal.attributes(), before))
        #expect(terminal.readOutput().hasSuffix(TerminalSession.restoreSequence))
    }

    @Test("enter fails on what is not a terminal, and changes nothing")
    func notATerminal() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let session = TerminalSession(input: ends[0], output: ends[1])
        #expect(throws: TerminalSession.Failure.self) { try session.enter() }
        #expect(!session.isActive)
        #expect(!TerminalSession.isTerminal(ends[0]))
        #expect(TerminalSession.size(of: ends[0]) == nil)
    }

    @Test("size and isTerminal of a terminal")
    func size() throws {
        let terminal = try PseudoTerminal()
        #expect(TerminalSession.isTerminal(terminal.slave))
        terminal.setSize(columns: 132, rows: 43)
        let size = try #require(TerminalSession.size(of: terminal.slave))
        #expect(size.columns == 132)
        #expect(size.rows == 43)
    }

    @Test("writeAll writes every byte")
    func writeAll() throws {
        let terminal = try PseudoTerminal()
        let session = TerminalSession(input: terminal.slave, output: terminal.slave)
        try session.enter()  // raw: what is written comes back as it was
        _ = terminal.readOutput()
        let text = String(repeating: "abcdefgh日本\u{1B}[1m", count: 50)
        #expect(TerminalOutput.writeAll(terminal.slave, text))
        #expect(terminal.readOutput() == text)
        session.leave()
    }
}
