import DoogitStore
import DoogitSupport

/// Tracked repositories and todo IDs for shell completion, read straight from the database while
/// the user presses Tab: read-only (no migration, no lock taken, a sync running meanwhile is no
/// obstacle), never creating a database, never touching the network. Any problem offers nothing:
/// completion must not print errors into a half-typed command line.
struct CompletionValues {
    let paths: Paths
    /// Whether descriptions may end in `…` rather than `...`.
    let unicode: Bool

    /// Todo texts are shortened to this many columns in the shells that show descriptions.
    static let descriptionWidth = 50

    func candidates(_ kind: ValueKind, databaseOption: String?) -> [Completer.Candidate] {
        guard let store = openStore(databaseOption) else { return [] }
        switch kind {
        case .repository: return (try? repositories(store)) ?? []
        case .todo(let state): return (try? todos(store, state)) ?? []
        case .tag:
            let tags = (try? store.tagsInUse()) ?? []
            return tags.filter { !$0.tag.contains(where: \.isWhitespace) }.map {
                Completer.Candidate(TerminalText.sanitize($0.tag), "\($0.count) todo\($0.count == 1 ? "" : "s")")
            }
        case .text, .file, .choices: return []
        }
    }

    private func openStore(_ databaseOption: String?) -> Store? {
        guard let path = try? paths.database(option: databaseOption), Files.exists(path), !Files.isDirectory(path) else {
            return nil
        }
        // Read-only needs the write-ahead log's index file beside the database; where none can be
        // made, the file is read as it is on disk.
        return (try? Store(database: Database(path: path, access: .readOnly)))
            ?? (try? Store(database: Database(path: path, access: .immutable)))
    }

    /// OWNER/NAME of every tracked repository, and NAME where no other tracked one has it.
    private func repositories(_ store: Store) throws -> [Completer.Candidate] {
        let repositories = try store.repositories().filter { !$0.fullName.contains(where: \.isWhitespace) }
        var nameCounts: [String: Int] = [:]
        for repository in repositories { nameCounts[repository.name.lowercased(), default: 0] += 1 }
        let fullNames = repositories.map { TerminalText.sanitize($0.fullName) }
        let names = repositories.filter { nameCounts[$0.name.lowercased()] == 1 }.map { TerminalText.sanitize($0.name) }
        return (fullNames + names).map { Completer.Candidate($0) }
    }

    private func todos(_ store: Store, _ state: ValueKind.TodoState) throws -> [Completer.Candidate] {
        let todos: [(id: Int64, text: String?)]
        switch state {
        case .open: todos = try store.todoTexts(done: false).map { ($0.id, $0.text) }
        case .done: todos = try store.todoTexts(done: true).map { ($0.id, $0.text) }
        case .removed: todos = try store.restorableTodoIDs().sorted().map { ($0, nil) }
        }
        return todos.map { todo in
            Completer.Candidate(String(todo.id), todo.text.map {
                TextLayout.truncate(TerminalText.sanitize($0), width: Self.descriptionWidth, ellipsis: unicode ? "…" : "...")
            })
        }
    }
}
