import DoogitStore

/// `repo list`: a line per tracked repository.
extension ListRenderer {
    /// `[shared]`, or `[shared, unreadable since DATE]` once GitHub no longer shows it.
    func sharing(_ summary: RepositorySummary) -> (shown: String, plain: String) {
        guard summary.shared else { return ("", "") }
        let plain = summary.sharedUnreadableSince.map { "[shared, unreadable since \($0.rfc3339.prefix(10))]" } ?? "[shared]"
        return (summary.sharedUnreadableSince == nil ? plain : style.red(plain), plain)
    }

    func repositoryList(_ summaries: [RepositorySummary]) -> String {
        let nameWidth = Self.nameWidth(summaries.map(\.repository.fullName))
        var out = ""
        for summary in summaries {
            let counts = "\(summary.open) open, \(summary.done) done"
            out += repositoryLine(fullName: summary.repository.fullName, nameWidth: nameWidth,
                                  columns: [(counts, counts), flags(isPrivate: summary.repository.isPrivate,
                                                                    gone: summary.repository.gone,
                                                                    archived: summary.repository.archived),
                                            settings(summary.repository.settings), sharing(summary)],
                                  description: summary.repository.description) + "\n"
        }
        return out
    }
}
