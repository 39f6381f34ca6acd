#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitStore
import DoogitSupport
import DoogitTerminal

/// Other programs on the terminal: the shell after Ctrl-Z, the note's editor, the browser.
extension InteractiveSession {
    /// `o`: the page in $BROWSER, else the system's opener, out of the view's way (its output
    /// goes nowhere, and the view does not wait for it).
    func openInBrowser(_ url: String) {
        // Links travel in other machines' files: only GitHub's own pages go to a browser.
        guard (try? runtime.endpoint().isWebPage(url, alsoOn: runtime.webHosts)) == true else {
            view.message = "Not opening \(TerminalText.sanitize(url)): not an https:// page of GitHub"
            return
        }
        guard let opener = Self.browser(runtime.context.environment) else {
            view.message = "No browser found to open \(TerminalText.sanitize(url)): set BROWSER"
            return
        }
        do {
            let pid = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", opener + " \"$1\"", "sh", url],
                                           environment: runtime.context.environment,
                                           stdin: .nullDevice, stdout: .nullDevice, stderr: .nullDevice, newProcessGroup: true)
            openers.append(pid)
            view.message = "Opening " + TerminalText.sanitize(url)
        } catch {
            view.message = "Cannot start \(TerminalText.sanitize(opener)) to open \(TerminalText.sanitize(url)); set BROWSER"
        }
    }


    /// The command that opens a page: the first of `BROWSER`'s (a `:`-separated list, as other
    /// programs read it) whose program is there, else the system's opener; nil when none is.
    static func browser(_ environment: [String: String]) -> String? {
        #if os(macOS)
        let system = "open"
        #else
        let system = "xdg-open"
        #endif
        let candidates = (environment["BROWSER"].map { $0.split(separator: ":").map(String.init) } ?? []) + [system]
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return candidates.first { candidate in
            guard let program = candidate.split(separator: " ").first.map(String.init) else { return false }
            if program.contains("/") { return access(program, X_OK) == 0 }
            return path.contains { access($0 + "/" + program, X_OK) == 0 }
        }
    }

    func reapOpeners() {
        openers.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }

    // MARK: Leaving the screen for a while

    func suspend() throws {
        terminal.leave()
        // The whole process group, as a shell's Ctrl-Z would: a script that started doogit
        // stops too, and the shell gets its terminal back. This process stops in the terminal's
        // SIGTSTP handler, which finds the terminal already given back.
        kill(0, SIGTSTP)
        // Here again after `fg`.
        try enterTerminal()
        resize()
    }

    func enterTerminal() throws {
        do {
            try terminal.enter()
        } catch {
            terminal.leave()
            throw CommandFailure(message: "cannot set up the terminal (\(Files.reason(error.code)))",
                                 hint: "run 'doogit ui' in a terminal, or use 'doogit todo list'")
        }
    }

    /// `n`: the note in $VISUAL or $EDITOR (else vi), on the terminal as it was.
    func editNote(_ id: Int64) throws {
        guard let before = view.todo(id) else { return }
        let directory = runtime.context.variable("TMPDIR") ?? "/tmp"
        var template = Array("\(directory)/doogit-note-XXXXXX.txt".utf8CString)
        let descriptor = mkstemps(&template, 4)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot make a file for the note in \(directory) (\(Files.reason(errno)))", hint: "set TMPDIR to a folder you can write")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        _ = TerminalOutput.writeAll(descriptor, before.note.map { $0 + "\n" } ?? "")
        close(descriptor)
        let editor = runtime.context.variable("VISUAL") ?? runtime.context.variable("EDITOR") ?? "vi"
        terminal.leave()
        let status = Result { try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", editor + " \"$1\"", "sh", path],
                                                   environment: runtime.context.environment,
                                                   stdin: .descriptor(STDIN_FILENO), stdout: .descriptor(STDOUT_FILENO),
                                                   stderr: .descriptor(STDERR_FILENO)) }
            .map(Subprocess.waitForExit)
        // A Ctrl-C typed in the editor was the editor's: it does not end the view; a SIGTERM or
        // SIGHUP meanwhile does.
        for number in signals?.drain() ?? [] {
            if number == SIGWINCH { resize() }
            if number == SIGTERM || number == SIGHUP { ending = number }
        }
        try enterTerminal()
        screen.invalidate()
        guard case .success(0) = status else {
            view.message = "The editor (\(TerminalText.sanitize(editor))) failed; the note is as it was"
            return
        }
        guard let bytes = Files.readBytes(path) else {
            view.message = "Cannot read the note back; it is as it was"
            return
        }
        let text: String
        do { text = try UTF8Text.decodeFile(bytes) } catch {
            view.message = "The note's line \(error.line) is not UTF-8 text (\(error.found)); it is as it was"
            return
        }
        let note = NoteInput.clean(text)
        guard note != before.note else {
            view.message = "The note is as it was"
            return
        }
        if let note, !NoteInput.fits(note) {
            view.message = "The note is \(NoteInput.tooLong); it is as it was"
            return
        }
        try show(try changes.editNote(id, note: note, before: before, actions()))
    }
}
