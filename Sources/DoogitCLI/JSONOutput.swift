import DoogitStore
import DoogitSupport

/// The `--json` shapes of the contract. Fields are only ever added, never renamed or removed.
enum JSONOutput {
    static func repository(_ summary: RepositorySummary) -> JSONValue {
        let r = summary.repository
        return .object([
            JSONMember("id", .int(r.id)),
            JSONMember("fullName", .string(r.fullName)),
            JSONMember("owner", .string(r.owner)),
            JSONMember("name", .string(r.name)),
            JSONMember("description", .optional(r.description)),
            JSONMember("url", .string(r.url)),
            JSONMember("private", .bool(r.isPrivate)),
            JSONMember("archived", .bool(r.archived)),
            JSONMember("gone", .bool(r.gone)),
            JSONMember("open", .int(summary.open)),
            JSONMember("done", .int(summary.done)),
            JSONMember("syncedAt", .string(r.syncedAt.rfc3339)),
        ])
    }

    /// A todo as `todo add|done|undo|edit|rm --json` print it.
    static func todo(_ todo: TodoRecord) -> JSONValue {
        .object([
            JSONMember("id", .int(todo.id)),
            JSONMember("repository", .string(todo.repositoryFullName)),
            JSONMember("text", .string(todo.text)),
            JSONMember("done", .bool(todo.done)),
            JSONMember("createdAt", .string(todo.createdAt.rfc3339)),
            JSONMember("doneAt", .optional(todo.doneAt?.rfc3339)),
        ])
    }

    static func section(_ section: TodoSection) -> JSONValue {
        let r = section.repository
        return .object([
            JSONMember("repository", .object([
                JSONMember("id", .int(r.id)),
                JSONMember("fullName", .string(r.fullName)),
                JSONMember("description", .optional(r.description)),
                JSONMember("archived", .bool(r.archived)),
                JSONMember("gone", .bool(r.gone)),
            ])),
            JSONMember("todos", .array(section.todos.map { todo in
                .object([
                    JSONMember("id", .int(todo.id)),
                    JSONMember("text", .string(todo.text)),
                    JSONMember("done", .bool(todo.done)),
                    JSONMember("createdAt", .string(todo.createdAt.rfc3339)),
                    JSONMember("doneAt", .optional(todo.doneAt?.rfc3339)),
                ])
            })),
        ])
    }
}
