import DoogitSupport

extension RemoteExchange {
    public struct Input: Sendable {
        public var machine: String
        public var machineName: String
        /// GitHub's time, and a stamp of this machine's for changes of the remote's settings.
        public var now: Timestamp
        public var stamp: HybridTimestamp
        /// The remote as this machine knows it once it has read: `remote.jsonl`, `repositories.jsonl`,
        /// and the todos files of the repositories concerned (an empty piece where there is no file).
        public var meta: RemoteMeta
        public var repositories: RemotePiece
        public var todoFiles: [Int64: RemotePiece]
        /// The repositories whose todos files exist there (any of them, concerned or not).
        public var existingTodoFiles: Set<Int64>
        /// This machine's entries: every repository, and every todo of the repositories concerned,
        /// that the files name, or that waits to be sent.
        public var local: Replica
        /// What changed here since it was last sent.
        public var pendingTodos: Set<String>
        public var pendingRepositories: Set<Int64>
        /// What the files read anew held when this machine last read or wrote them: the todos and
        /// repositories it had exchanged, which a removal may have taken from the remote since.
        public var formerlyHeldTodos: Set<String>
        public var formerlyHeldRepositories: Set<Int64>
        /// Whether this machine sent this remote its list before; if not, everything here goes
        /// out, and nothing is taken for removed for being absent there.
        public var exchangedBefore: Bool
        /// Whether this machine's line must be brought up to date even with nothing else to write
        /// (a removal waits for this machine's merge). A machine without a line gets one with its
        /// first write: until then no removal waits for it, and what it holds of one that left is
        /// removed here by the compaction point (`RemovalsThatLeft`), as its merge would have.
        public var reportMerge: Bool
        /// Files to write back whatever the merge gives (values written there by hand, an older version).
        public var rewrite: Set<String>
        /// Changes of the remote's own settings made here.
        public var forget: Set<String>
        public var horizonDays: Register<Int64>?
        /// Whether the board is kept, as asked here (`board on`, `board off`).
        public var board: Register<Bool>?

        public init(machine: String, machineName: String, now: Timestamp, stamp: HybridTimestamp, meta: RemoteMeta,
                    repositories: RemotePiece, todoFiles: [Int64: RemotePiece], existingTodoFiles: Set<Int64>, local: Replica,
                    pendingTodos: Set<String>, pendingRepositories: Set<Int64>, formerlyHeldTodos: Set<String> = [],
                    formerlyHeldRepositories: Set<Int64> = [], exchangedBefore: Bool, reportMerge: Bool, rewrite: Set<String> = [],
                    forget: Set<String> = [], horizonDays: Register<Int64>? = nil, board: Register<Bool>? = nil) {
            self.machine = machine
            self.machineName = machineName
            self.now = now
            self.stamp = stamp
            self.meta = meta
            self.repositories = repositories
            self.todoFiles = todoFiles
            self.existingTodoFiles = existingTodoFiles
            self.local = local
            self.pendingTodos = pendingTodos
            self.pendingRepositories = pendingRepositories
            self.formerlyHeldTodos = formerlyHeldTodos
            self.formerlyHeldRepositories = formerlyHeldRepositories
            self.exchangedBefore = exchangedBefore
            self.reportMerge = reportMerge
            self.rewrite = rewrite
            self.forget = forget
            self.horizonDays = horizonDays
            self.board = board
        }
    }

    public struct Plan: Equatable, Sendable {
        /// This machine's entries after the merge (those of the input, less what is purged).
        public var local: Replica
        /// What leaves this machine for good: it left the remote after a removal everyone merged.
        public var purgedTodos: Set<String> = []
        public var purgedRepositories: Set<Int64> = []
        /// Todos edited here whose removal left the remote meanwhile: removed here, the edit not sent.
        public var dropped: Set<String> = []
        /// The files to write there (nil: remove the file); none when nothing changed.
        public var files: [String: [UInt8]?] = [:]
        /// The remote's files of repositories and todos after the write, by path (nil: removed).
        public var pieces: [String: RemotePiece?] = [:]
        public var meta: RemoteMeta
        /// Lines of repositories and todos the write adds, changes or removes, what this machine
        /// sends; todos it adds, changes and removes (a removal that leaves the remote counts as
        /// none).
        public var changedLines = 0
        /// Lines of removals the write takes out because they left the remote (every machine
        /// merged them, or they passed the horizon): upkeep, not a change anyone made.
        public var droppedLines = 0
        public var added = 0, changed = 0, removed = 0
        /// What goes out because it differs from the remote's (it waits to be sent until it is there).
        public var sending: Set<String> = []
        public var sendingRepositories: Set<Int64> = []
        /// Todos files the plan needs that the input did not give: plan again with them.
        public var needed: Set<Int64> = []
    }
}
