import DoogitStore
import DoogitSupport
import DoogitSync

/// `doogit board ...`: the todos as a Markdown task list in issues of the remote repository,
/// which a person ticks, edits and adds to on github.com and in the GitHub app.
enum BoardCommands {
    static let group = CommandSpec(
        name: "board", abstract: "Your todos as a task list on github.com and in the GitHub app",
        discussion: """
            The board is an issue of the remote repository ('doogit remote init'; private, so the board \
            is too) whose body is your todo list: a heading per repository, a line '- [ ] TEXT' per open \
            todo with its due date, priority and tags in the shorthand 'todo add' reads, done todos \
            ticked for 7 days. Tick a line there and the next 'doogit sync' of any machine marks the todo \
            done (closing its issue when pushing is on); untick it, edit it, delete it (the todo is \
            removed, restorable) or add a line '- [ ] TEXT' under a repository's heading, and the sync \
            does the same here. Each sync reads the board right before it writes it, and writes only \
            what changed. Without a subcommand, shows where the board is, when it was last read and \
            written, and what the last read brought.
            """,
        examples: ["doogit board on", "doogit board", "doogit board off"],
        subcommands: [on, off], run: runShow)

    static let on = CommandSpec(
        name: "on", abstract: "Keep the board, on every machine of the remote",
        discussion: """
            Needs a remote ('doogit remote init --create'), which must be private. The board is made by \
            the next 'doogit sync', and every machine that syncs with the remote keeps it from then on.
            """,
        examples: ["doogit board on && doogit sync"],
        run: runOn)

    static let off = CommandSpec(
        name: "off", abstract: "Stop keeping the board (its issues are closed, not deleted)",
        discussion: "Every machine of the remote stops; the next 'doogit sync' closes the board's issues. Your todos stay.",
        examples: ["doogit board off"],
        run: runOff)

    static func runOn(_ invocation: Invocation, _ runtime: Runtime) throws {
        let store = try runtime.store()
        guard let remote = try store.remoteSettings() else {
            throw CommandFailure(message: "the board lives in the remote repository, and no remote is set; nothing was changed",
                                 hint: "set one with 'doogit remote init --create', then 'doogit board on'")
        }
        guard !remote.repositoryPublic else {
            throw CommandFailure(message: "\(remote.fullName) is public, and the board would show your todos to anyone; nothing was changed",
                                 hint: "make it private on GitHub, or choose another remote with 'doogit remote init OWNER/NAME --create'")
        }
        try store.requestBoard(on: true, at: runtime.now())
        if runtime.global.json { return try printJSON(store, runtime) }
        runtime.say("The board will be made by the next sync ('doogit sync'), in an issue of \(TerminalText.sanitize(remote.fullName))")
    }

    static func runOff(_ invocation: Invocation, _ runtime: Runtime) throws {
        let store = try runtime.store()
        guard try store.remoteSettings() != nil else {
            throw CommandFailure(message: "no remote is set, and so no board; nothing was changed", hint: nil)
        }
        try store.requestBoard(on: false, at: runtime.now())
        if runtime.global.json { return try printJSON(store, runtime) }
        runtime.say("The board's issues will be closed by the next sync ('doogit sync'); your todos stay")
    }

    static func runShow(_ invocation: Invocation, _ runtime: Runtime) throws {
        let store = try runtime.readingStore()
        if runtime.global.json { return try printJSON(store, runtime) }
        guard let remote = try store.remoteSettings() else {
            runtime.console.print("No board: it lives in the remote repository, and no remote is set ('doogit remote init --create').")
            return
        }
        let on = try BoardSwitch.isOn(store)
        let state = try store.boardState()
        let name = TerminalText.sanitize(remote.fullName)
        guard on || !(state?.issues.isEmpty ?? true) else {
            runtime.console.print("No board. Keep one in an issue of \(name) with 'doogit board on'.")
            return
        }
        runtime.console.print(on ? "Board: on, in \(name)" : "Board: off (its issues are closed by the next sync)")
        let issues = state?.issues ?? []
        if issues.isEmpty { runtime.console.print("  not made yet: the next 'doogit sync' makes it") }
        for issue in issues {
            runtime.console.print("  " + TerminalText.sanitize(issue.url) + (issues.count > 1 ? "  (part \(issue.part) of \(issues.count))" : ""))
        }
        runtime.console.print("Last read: " + (state?.readAt.map(\.rfc3339) ?? "never"))
        runtime.console.print("Last written: " + (state?.writtenAt.map(\.rfc3339) ?? "never"))
        if let brought = state?.lastRead { runtime.console.print("The last read that brought anything brought: " + brought) }
    }

    /// `board --json`: `{"on", "repository", "issues": [{"part", "number", "url"}], "readAt", "writtenAt", "lastRead"}`.
    static func printJSON(_ store: Store, _ runtime: Runtime) throws {
        let remote = try store.remoteSettings()
        let on = try BoardSwitch.isOn(store)
        let state = try store.boardState()
        runtime.printJSON { json in
            json.beginObject()
            json.key("on"); json.bool(on)
            json.key("repository"); json.string(remote?.fullName)
            json.key("issues")
            json.beginArray()
            for issue in state?.issues ?? [] {
                json.beginObject()
                json.key("part"); json.int(Int64(issue.part))
                json.key("number"); json.int(issue.number)
                json.key("url"); json.string(issue.url)
                json.endObject()
            }
            json.endArray()
            json.key("readAt"); json.string(state?.readAt?.rfc3339)
            json.key("writtenAt"); json.string(state?.writtenAt?.rfc3339)
            json.key("lastRead"); json.string(state?.lastRead)
            json.endObject()
        }
    }
}
