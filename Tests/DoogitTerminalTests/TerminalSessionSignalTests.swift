#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitTerminal
import Foundation
import Testing

/// A crash of the kind a program has: a bad pointer, a runaway recursion (whose handler needs a
/// stack of its own), and a Swift trap (a failed precondition, an index out of range), which is
/// SIGILL on x86 and SIGTRAP on arm64.
enum Crash: String, Codable, Sendable, CaseIterable {
    case badPointer
    case runawayRecursion
    case trap

    var signal: Int32 {
        switch self {
        case .badPointer, .runawayRecursion: return SIGSEGV
        case .trap:
            #if arch(arm64)
            return SIGTRAP
            #else
            return SIGILL
            #endif
        }
    }

    func happen() {
        switch self {
        case .badPointer:
            // A page no program maps: the write faults.
            UnsafeMutablePointer<Int>(bitPattern: 16)?.pointee = 1
        case .runawayRecursion:
            _ = Self.deeper(0)
        case .trap:
            fatalError("a crash on purpose")
        }
    }

    /// Calls itself until the stack runs out (a depth never reached decides it for the compiler).
    private static func deeper(_ depth: Int) -> Int {
        depth == Int.max ? depth : deeper(depth + 1) &+ 1
    }
}

@Suite("TerminalSession and signals")
struct TerminalSessionSignalTests {
    /// A crash for real (not a signal sent, which the tmux tests send): the handler gives the
    /// terminal back, then the fault happens again and ends the process as it would have.
    @Test("a crash gives the terminal back, then ends the process by its signal", arguments: Crash.allCases)
    func aCrashGivesTheTerminalBack(crash: Crash) async throws {
        let path = FileManager.default.temporaryDirectory.path + "/doogit-crash-\(UUID().uuidString)"
        defer { unlink(path) }
        await #expect(processExitsWith: .signal(crash.signal)) { [path = path as String, crash = crash as Crash] in
            let terminal = try PseudoTerminal()
            // The screen's bytes go to a file, to be read once the process is gone.
            let output = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let session = TerminalSession(input: terminal.slave, output: output, givesBackOnSignals: true)
            try session.enter()
            crash.happen()
            withExtendedLifetime(session) {}
        }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == TerminalSession.enterSequence + TerminalSession.restoreSequence)
    }

    @Test("a session that gives back on signals puts back the handlers there were when it goes")
    func handlersPutBack() throws {
        // What decides a signal's handling: the handler (or SIG_DFL, SIG_IGN) and the flags
        // a program sets (the C library adds one of its own as it pleases).
        let flags = Int32(SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER) | Int32(bitPattern: UInt32(SA_RESETHAND))
        func disposition(_ number: Int32) -> [UInt8] {
            var action = sigaction()
            sigaction(number, nil, &action)
            #if canImport(Glibc)
            let handler = withUnsafeBytes(of: action.__sigaction_handler) { Array($0) }
            #else
            let handler = withUnsafeBytes(of: action.__sigaction_u) { Array($0) }
            #endif
            return handler + withUnsafeBytes(of: action.sa_flags & flags) { Array($0) }
        }
        let numbers = [SIGTSTP, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]
        let before = numbers.map(disposition)
        do {
            let terminal = try PseudoTerminal()
            let session = TerminalSession(input: terminal.slave, output: terminal.slave, givesBackOnSignals: true)
            try session.enter()
            #expect(numbers.map(disposition) != before, "its handlers are installed")
            session.leave()
        }
        #expect(numbers.map(disposition) == before)
    }
}
