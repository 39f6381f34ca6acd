import DoogitMerge
import DoogitStore
import DoogitSupport
import DoogitSync

/// `remote status`, and the remote's own settings: machines forgotten, the horizon.
enum RemoteStatus {
    static let status = CommandSpec(
        name: "status", abstract: "Show the remote, changes waiting, the machines",
        discussion: """
            Reads only this machine's database (the machines as the last sync read them: those that have \\
            written there; one that has only read is listed from its first change); 'doogit sync' talks \\
            to GitHub.
            """,
        examples: ["doogit remote status", "doogit remote status --json"],
        run: run)

    static let forget = CommandSpec(
        name: "forget", abstract: "Stop waiting for a machine that no longer syncs",
        arguments: ArgumentSpec(display: "MACHINE", minimum: 1, maximum: 1),
        discussion: """
            A removal leaves the remote once every machine that has written there has merged it, or once \\
            it is older than the horizon ('doogit remote set --horizon'). MACHINE is an id from 'doogit \\
            remote status', of a machine that no longer syncs. If it syncs again, what was removed \\
            meanwhile is removed there too, and what it made meanwhile is sent; its edits of todos \\
            removed meanwhile are dropped (the removal wins), and its sync says so. Takes effect at the \\
            next 'doogit sync'.
            """,
        examples: ["doogit remote forget 3f2a9c1b7d4e"],
        run: runForget)

    static let set = CommandSpec(
        name: "set", abstract: "Choose how long removals wait for machines",
        options: [OptionSpec("horizon", value: "DAYS", help: "days a removal waits (default 90)")],
        discussion: """
            Every machine keeps the same horizon (the latest setting wins). Takes effect at the next \\
            'doogit sync'.
            """,
        examples: ["doogit remote set --horizon 30"],
        run: runSet)

    static func run(_ invocation: Invocation, _ runtime: Runtime) throws {
        if runtime.global.json { return try print(runtime) }
        let store = try runtime.readingStore()
        guard let remote = try store.remoteSettings() else {
            runtime.console.print("No remote: this machine's todos are kept only here. Set one with 'doogit remote init --create'.")
            return
        }
        let pending = try RemoteWaiting.count(store: store, settings: remote, now: runtime.now())
        let machine = try store.replica.machineID()
        let meta = try RemoteWaiting.meta(store: store)
        runtime.console.print("Remote: \(TerminalText.sanitize(remote.fullName)) (on \(TerminalText.sanitize(remote.branch)))")
        runtime.console.print("Last exchange: " + (remote.exchangedAt.map(\.rfc3339) ?? "never"))
        runtime.console.print(pending > 0 ? "Waiting: \(pending) local change\(pending == 1 ? "" : "s"); run 'doogit sync'" : "Waiting: nothing")
        let horizon = remote.horizonDays?.value ?? meta?.horizonDays.value ?? RemoteMeta.defaultHorizonDays
        runtime.console.print("Removals wait: \(Counted.text(horizon, "day")) for a machine that does not sync"
                              + (remote.horizonDays != nil ? " (from the next sync)" : ""))
        if let meta, !meta.machines.isEmpty {
            runtime.console.print("Machines:")
            for record in meta.machines.values.sorted(by: { $0.exchangedAt > $1.exchangedAt }) {
                var notes: [String] = []
                if record.id == machine { notes.append("this machine") }
                if record.forgotten.value { notes.append("forgotten") }
                if remote.forget.contains(record.id) { notes.append("forgotten at the next sync") }
                let name = TerminalText.sanitize(record.name)
                runtime.console.print("  \(record.id)  \(name.isEmpty ? "-" : name)  exchanged \(record.exchangedAt.rfc3339)"
                                      + (notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))"))
            }
        }
        let unlisted = remote.exchangedAt != nil && meta?.machines[machine] == nil
        runtime.console.print("This machine: \(machine)" + (unlisted ? "  (listed there from its first change)" : ""))
    }

    static func print(_ runtime: Runtime) throws {
        let store = try runtime.readingStore()
        let remote = try store.remoteSettings()
        let pending = Int64(try remote.map { try RemoteWaiting.count(store: store, settings: $0, now: runtime.now()) } ?? 0)
        let meta = try RemoteWaiting.meta(store: store)
        let machine = try store.replica.machineID()
        runtime.printJSON { json in JSONOutput.remoteStatus(remote, pending: pending, meta: meta, machine: machine, into: &json) }
    }

    static func runForget(_ invocation: Invocation, _ runtime: Runtime) throws {
        let id = invocation.positionals[0].lowercased()
        guard HybridTimestamp.isMachineID(id) else {
            throw UsageError(message: "'\(TerminalText.sanitize(id))' is not a machine id (12 hex digits, from 'doogit remote status')",
                             topic: invocation.path)
        }
        let store = try runtime.store()
        guard try store.remoteSettings() != nil else { throw CommandFailure(message: "no remote is set; nothing was changed", hint: nil) }
        guard id != (try store.replica.machineID()) else {
            throw CommandFailure(message: "\(id) is this machine; nothing was changed",
                                 hint: "forget a machine that no longer syncs, from another one")
        }
        guard try RemoteWaiting.meta(store: store)?.machines[id] != nil else {
            throw CommandFailure(message: "no machine \(id) uses the remote, as this machine last read it; nothing was changed",
                                 hint: "run 'doogit sync', then see the machines with 'doogit remote status'")
        }
        try store.requestRemoteSettings(forget: [id], horizonDays: nil, at: runtime.now())
        if runtime.global.json { return try print(runtime) }
        runtime.say("Machine \(id) will be forgotten at the next sync ('doogit sync')")
    }

    static func runSet(_ invocation: Invocation, _ runtime: Runtime) throws {
        guard let text = invocation.value("horizon") else {
            throw UsageError(message: "'doogit remote set' needs --horizon DAYS", topic: invocation.path)
        }
        guard let days = Int64(text), RemoteMeta.horizonDaysRange.contains(days) else {
            throw UsageError(message: "--horizon takes a number of days from 1 to 3650, not '\(TerminalText.sanitize(text))'",
                             topic: invocation.path)
        }
        let store = try runtime.store()
        guard try store.remoteSettings() != nil else { throw CommandFailure(message: "no remote is set; nothing was changed", hint: nil) }
        try store.requestRemoteSettings(forget: [], horizonDays: days, at: runtime.now())
        if runtime.global.json { return try print(runtime) }
        runtime.say("Removals will wait \(Counted.text(days, "day")) for a machine that does not sync, from the next sync ('doogit sync')")
    }
}
