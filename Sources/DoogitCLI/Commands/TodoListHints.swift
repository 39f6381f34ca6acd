import DoogitStore
import DoogitSupport

extension TodoCommands {
    /// What an empty list says on a terminal: how to start when nothing is tracked, how to add a
    /// todo when there are none, and that nothing matched when a filter left nothing.
    static func emptyListHint(store: Store, repositories: [RepositoryRecord], filter: TodoFilter,
                              grep: String?) throws -> String {
        if repositories.isEmpty, try store.repositories().isEmpty {
            return "nothing is tracked yet; start with 'doogit repo add OWNER/NAME' (or 'doogit repo search' to find one), then 'doogit add -R OWNER/NAME TEXT'"
        }
        let place: String
        switch repositories.count {
        case 0: place = ""
        case 1: place = " in " + TerminalText.sanitize(repositories[0].fullName)
        default: place = " in these repositories"
        }
        if let grep { return "no \(filterName(filter))todo\(place) contains '\(TerminalText.sanitize(grep))'" }
        if filter != .all { return "no \(filterName(filter))todos\(place)" }
        let target = repositories.count == 1 ? TerminalText.sanitize(repositories[0].fullName) : "OWNER/NAME"
        return "no todos\(place) yet; add one with 'doogit add -R \(target) TEXT'"
    }

    private static func filterName(_ filter: TodoFilter) -> String {
        switch filter {
        case .all: ""
        case .open: "open "
        case .done: "done "
        }
    }
}
