#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DoogitStore
import DoogitSupport
import DoogitTerminal

/// `doogit ui`: the todo list as a full screen to move in, with the commands' actions on keys.
enum InteractiveCommand {
    static let spec = CommandSpec(
        name: "ui", abstract: "Browse and change the todo list in a full-screen view",
        arguments: ArgumentSpec(display: "[REPO...]", minimum: 0, maximum: nil, values: [.repository]),
        discussion: """
            Opens the list on the terminal's alternate screen: the sections and lines of 'doogit todo \
            list', a status line and as many key hints as the width holds. Keys (vi keys and arrows alike): j/k or \
            down/up move, g/G first/last, PgDn/PgUp a page, Tab/Shift-Tab the next/previous section; \
            space or x marks the todo done or not done; a adds to the section under the cursor (one \
            line, read as 'doogit todo add' reads TEXT: +tag, due:fri, pri:H); e edits the text; t \
            tags (+tag adds, -tag removes), d sets the due date, p the priority; n edits the note in \
            $VISUAL or $EDITOR; D or Delete removes; P promotes to a GitHub issue (as 'doogit todo promote', in the \
            background); o opens the todo's issue, or the repository, in $BROWSER (else xdg-open); u \
            takes back the last change made in the view (a toggle toggles back, an add is removed, a \
            removal restored, an edit edited back: a new change, synced like any; a promote cannot be); z or Enter folds a section; / filters as you type (as --grep; \
            Esc clears it); s syncs in the background ('doogit sync', its summary or error in the \
            status line); ? lists the keys; q or Ctrl-C leaves, with the terminal as it was (so do \
            SIGINT, SIGTERM and SIGHUP; SIGQUIT and a crash give it back too); Ctrl-Z (or SIGTSTP) \
            suspends. A click selects, a click on a circle \
            toggles it and one on a section's [+] adds; the wheel scrolls. r opens the repository \
            screen: your repositories on GitHub (the last listing at once, a new one read in the \
            background), filtered as you type (as 'doogit repo search'), tracked ones marked; Enter or \
            a click tracks one ('doogit repo add') or stops tracking it ('doogit repo remove', asking \
            first when it has todos); Esc clears the search, and on an empty one goes back. Changes that another \
            process makes (a cron sync, another terminal) show within a second. Every change is the \
            command's: a todo finished here is 'doogit todo done'. REPO shows only those \
            repositories, named as 'doogit todo list' takes them; as there, repositories without \
            todos are left out, except one emptied or tracked in the view, and every one while none \
            has a todo. It reads only what the screen shows, at any number of todos. It needs a terminal on standard \
            input and output and a TERM other than dumb.
            """,
        examples: ["doogit ui", "doogit ui octocat/Hello-World", "doogit ui ."],
        run: run)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        guard TerminalSession.isTerminal(STDIN_FILENO), TerminalSession.isTerminal(STDOUT_FILENO) else {
            throw UsageError(message: "'doogit ui' needs a terminal on standard input and output; use 'doogit todo list' for a list to read or pipe",
                             topic: invocation.path)
        }
        if let term = runtime.context.variable("TERM"), term == "dumb" {
            throw UsageError(message: "'doogit ui' needs a terminal that can move the cursor, and TERM is dumb; use 'doogit todo list', or set TERM to your terminal's (xterm-256color)",
                             topic: invocation.path)
        }
        var repositories: [Int64] = []
        for text in invocation.positionals {
            let repository = try TodoCommands.namedRepository(text, invocation, runtime, reading: false)
            if !repositories.contains(repository.id) { repositories.append(repository.id) }
        }
        let session = InteractiveSession(runtime: runtime, store: try runtime.store(),
                                         repositoryIDs: repositories.isEmpty ? nil : repositories)
        try session.run()
    }
}
