import DoogitSupport

/// The todo list on GitHub as files (format 3), so that an exchange reads and writes only what
/// changed, and each file reads well in GitHub's web view:
///
///     todos.jsonl                  the header alone: a doogit of format 2 refuses to write here
///     remote.jsonl                 the remote's generation, compaction point and horizon; the machines
///     repositories.jsonl           one line per repository
///     todos/<bucket>/<id>.jsonl    one repository's todos (the bucket, a hex digit of its id, keeps
///                                  each folder of the tree short, so a change reads little of it)
///
/// Every file starts with the header line; the lines are those of `TodoFile`. A removed todo or an
/// untracked repository also says when it came into the remote in that form (`since`, a
/// generation), so that it can leave once every machine has merged it (`RemoteExchange`).
public enum RemoteLayout {
    public static let stubPath = TodoFile.fileName
    public static let metaPath = "remote.jsonl"
    public static let repositoriesPath = "repositories.jsonl"
    public static let todosFolder = "todos"
    /// The last major version of the single file `todos.jsonl` that held every todo.
    public static let singleFileVersion = 2
    static let buckets: Int64 = 16

    /// The file of one repository's todos.
    public static func todosPath(_ repository: Int64) -> String {
        "\(todosFolder)/\(String(((repository % buckets) + buckets) % buckets, radix: 16))/\(repository).jsonl"
    }

    /// Whether a file is read as a piece of the list: the repositories' file or a file of todos.
    public static func isPiece(_ path: String) -> Bool {
        path == repositoriesPath || repository(ofTodosPath: path) != nil
    }

    /// The repository whose todos a path holds (nil: not such a file).
    public static func repository(ofTodosPath path: String) -> Int64? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == todosFolder, parts[2].hasSuffix(".jsonl"),
              let id = Int64(parts[2].dropLast(6)), todosPath(id) == path else { return nil }
        return id
    }

    /// The stub at the old file's place: the header alone, of this major version. It says only
    /// which doogit may write here, so a minor version leaves its bytes (and its git name) as
    /// they were: no machine rewrites it for one.
    public static let stub = Array("{\"format\":\"\(TodoFile.formatName)\",\"version\":\"\(TodoFile.majorVersion).0\"}\n".utf8)
    /// Its git name.
    public static let stubName = GitHash.blob(stub)
}

/// One file of the remote that holds repositories or todos, as read: its entries, and for each
/// removed one the generation since which the remote holds it removed.
public struct RemotePiece: Equatable, Sendable {
    public var replica: Replica
    public var todoSince: [String: Int64]
    public var repositorySince: [Int64: Int64]

    public init(replica: Replica = Replica(), todoSince: [String: Int64] = [:], repositorySince: [Int64: Int64] = [:]) {
        self.replica = replica
        self.todoSince = todoSince
        self.repositorySince = repositorySince
    }

    static let sinceKey = "since"

    /// Reads a file of the remote; see `TodoFile.decode` for `handEdit`.
    public static func decode(_ bytes: [UInt8], handEdit: HybridTimestamp? = nil) throws(TodoFileError)
        -> (piece: RemotePiece, handEdits: Int, majorVersion: Int) {
        let contents = try TodoFile.decode(bytes, handEdit: handEdit, piece: true)
        var piece = RemotePiece(replica: contents.replica)
        for (uuid, var entry) in piece.replica.todos {
            guard let field = entry.unknown[sinceKey] else { continue }
            entry.unknown[sinceKey] = nil
            piece.replica.todos[uuid] = entry
            if let since = generation(field), entry.isRemoved { piece.todoSince[uuid] = since }
        }
        for (id, var entry) in piece.replica.repositories {
            guard let field = entry.unknown[sinceKey] else { continue }
            entry.unknown[sinceKey] = nil
            piece.replica.repositories[id] = entry
            if let since = generation(field), !entry.tracked.value { piece.repositorySince[id] = since }
        }
        return (piece, contents.handEdits, contents.majorVersion)
    }

    private static func generation(_ field: UnknownFields.Field) -> Int64? {
        guard case .number(let text)? = field.value, let since = Int64(text), RemoteMeta.generationRange.contains(since) else {
            return nil
        }
        return since
    }

    /// The file's bytes; `title` names its repository in the header, for a reader of the file.
    public func encode(title: String? = nil) -> [UInt8] {
        var replica = self.replica
        for (uuid, since) in todoSince {
            replica.todos[uuid]?.unknown[Self.sinceKey] = UnknownFields.Field(value: .int(since), stamp: nil)
        }
        for (id, since) in repositorySince {
            replica.repositories[id]?.unknown[Self.sinceKey] = UnknownFields.Field(value: .int(since), stamp: nil)
        }
        if let title { replica.headerUnknown["repository"] = UnknownFields.Field(value: .string(title), stamp: nil) }
        return TodoFile.encode(replica)
    }

    /// What waits to leave the remote here: the first and last generation of the removals it
    /// holds, and when the oldest was made (nil: it holds none).
    public var removals: (first: Int64, last: Int64, oldest: Timestamp)? {
        var first: Int64?, last: Int64?, oldest: Int64?
        func add(_ generation: Int64, _ stamp: HybridTimestamp) {
            first = min(first ?? generation, generation)
            last = max(last ?? generation, generation)
            oldest = min(oldest ?? stamp.wall, stamp.wall)
        }
        for (uuid, generation) in todoSince { if let entry = replica.todos[uuid] { add(generation, entry.removed.stamp) } }
        for (id, generation) in repositorySince { if let entry = replica.repositories[id] { add(generation, entry.tracked.stamp) } }
        guard let first, let last, let oldest else { return nil }
        return (first, last, Timestamp(millisecondsSinceEpoch: oldest))
    }
}
