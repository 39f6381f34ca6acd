import DoogitMerge
import DoogitStore
import DoogitSupport

/// What importing another program's file (Taskwarrior's, todo.txt) does here: the todos to add,
/// each given its repository (the one its project names, else `--repo`'s); the todos here that a
/// Taskwarrior task changed since (`TaskwarriorUpdate`) or a todo.txt line shows otherwise
/// (`TodoTxtUpdate`); and those recognised and left as they are: by UUID, or, for a todo.txt
/// line without one, by repository, text and creation date.
struct ForeignImport {
    var added: [NewTodo] = []
    var updates: [TodoUpdate] = []
    /// Recognised and left as they are (removed here ones too: they stay removed).
    var unchanged = 0
    /// The places of todo.txt lines without a UUID that are todos here already, by repository,
    /// text and creation date (an export of an older doogit, or of todo.txt itself).
    var recognised: [String] = []

    init(_ todos: [ForeignTodo], from format: ImportFormat, name: String, _ invocation: Invocation, _ runtime: Runtime,
         at now: Timestamp) throws {
        let store = try runtime.store()
        let fallback = try invocation.value("repo").map { try runtime.trackedRepository($0, topic: invocation.path) }
        let entries = try store.replica.read().replica.todos
        var live: [String: TodoRecord] = [:]
        var byContent: [ContentKey: [TodoRecord]] = [:]
        for todo in try store.sections().flatMap(\.todos) {
            live[todo.uuid] = todo
            byContent[ContentKey(todo), default: []].append(todo)
        }
        var byProject: [String: Result<RepositoryRecord, StoreError>] = [:]
        var seen: Set<String> = []
        for todo in todos where seen.insert(todo.uuid).inserted {
            if let entry = entries[todo.uuid] {
                let update = live[todo.uuid].flatMap { record in
                    format == .taskwarrior ? TaskwarriorUpdate.update(of: record, entry: entry, by: todo)
                        : TodoTxtUpdate.update(of: record, by: todo, at: now) { Self.names($0, store: store, cache: &byProject) }
                }
                if let update {
                    updates.append(update)
                } else {
                    unchanged += 1
                }
                continue
            }
            let repository = try Self.repository(of: todo, fallback: fallback, name: name, store: store, cache: &byProject)
            if todo.madeUUID, let createdAt = todo.createdAt,
               let index = byContent[ContentKey(repository.id, todo.text, createdAt)]?.indices.first {
                // One todo here for each such line: a second line alike is a second todo.
                byContent[ContentKey(repository.id, todo.text, createdAt)]?.remove(at: index)
                recognised.append(todo.place)
                unchanged += 1
                continue
            }
            var issue: Int64?, text = todo.text
            if let link = todo.issue {
                if link.repository.lowercased() == repository.fullName.lowercased() { issue = link.number } else { text += " " + link.word }
            }
            added.append(NewTodo(uuid: todo.uuid, repositoryID: repository.id, text: text,
                                 doneAt: todo.done ? (todo.doneAt ?? now) : nil, createdAt: todo.createdAt ?? now, issue: issue,
                                 details: todo.details))
        }
    }

    /// A todo as a todo.txt line without a UUID recognises it: its repository, its text as the
    /// line says it, and the day it was made (todo.txt's creation date, a day of UTC as the
    /// export writes it).
    private struct ContentKey: Hashable {
        var repository: Int64
        var text: String
        var day: String

        init(_ repository: Int64, _ text: String, _ createdAt: Timestamp) {
            self.repository = repository
            self.text = text
            day = String(createdAt.rfc3339.prefix(10))
        }

        init(_ todo: TodoRecord) {
            self.init(todo.repositoryID, TodoTxtExport.text(todo.text), todo.createdAt)
        }
    }

    /// The repository of a todo the file brings: the tracked one its project names, else
    /// `fallback` (`--repo`); one that names none, or several, is an error naming it.
    private static func repository(of todo: ForeignTodo, fallback: RepositoryRecord?, name: String, store: Store,
                                   cache: inout [String: Result<RepositoryRecord, StoreError>]) throws -> RepositoryRecord {
        if let project = todo.project {
            let found = try cache[project] ?? lookUp(project, store)
            cache[project] = found
            switch found {
            case .success(let record):
                return record
            case .failure(let problem) where fallback == nil:
                let what: String, fix: String
                if case .ambiguousRepository(_, let candidates) = problem {
                    what = "names several tracked repositories (\(candidates.map(\.fullName).joined(separator: ", ")))"
                    fix = "name one as OWNER/NAME in the file"
                } else {
                    what = "names no tracked repository"
                    fix = "track it with 'doogit repo add \(TerminalText.sanitize(project))'"
                }
                throw CommandFailure(message: "project '\(TerminalText.sanitize(project))' (\(name), \(todo.place)) \(what); nothing was imported",
                                     hint: fix + ", or put such todos in one with --repo REPO")
            case .failure:
                break
            }
        }
        guard let fallback else {
            throw CommandFailure(message: "\(name), \(todo.place): the todo has no project; nothing was imported",
                                 hint: "choose the repository for such todos with --repo REPO")
        }
        return fallback
    }

    /// Whether a project names a tracked repository.
    private static func names(_ project: String, store: Store, cache: inout [String: Result<RepositoryRecord, StoreError>]) -> Bool {
        guard let found = cache[project] ?? (try? lookUp(project, store)) else { return false }
        cache[project] = found
        return (try? found.get()) != nil
    }

    /// The tracked repository a project names (NAME or OWNER/NAME), or why none.
    static func lookUp(_ project: String, _ store: Store) throws -> Result<RepositoryRecord, StoreError> {
        let parts = project.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        do {
            return .success(parts.count == 2 ? try store.findRepository(owner: parts[0], name: parts[1])
                : try store.findRepository(owner: nil, name: project))
        } catch let error as StoreError {
            switch error {
            case .unknownRepository, .ambiguousRepository: return .failure(error)
            default: throw error
            }
        }
    }

    /// The note that says which lines were recognised by their content, naming the first few.
    static func recognisedNote(_ places: [String], in name: String) -> String? {
        guard !places.isEmpty else { return nil }
        let named = places.prefix(3).joined(separator: ", ") + (places.count > 3 ? " and \(places.count - 3) more" : "")
        let count = places.count == 1 ? "1 line" : "\(places.count) lines"
        return "\(name): skipped \(count) without a uuid: word that \(places.count == 1 ? "is a todo" : "are todos") here already "
            + "(the same repository, text and creation date): \(named)"
    }
}
