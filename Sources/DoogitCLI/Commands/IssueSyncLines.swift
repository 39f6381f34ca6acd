import DoogitSupport
import DoogitSync

extension SyncCommand {
    /// The line of a change to a todo or its issue; `prefix` is "would be " in a dry run.
    static func issueLine(for change: SyncChange, prefix: String) -> String {
        let clean = TerminalText.sanitize
        switch change {
        case .issuePulled(let name, let number, let todo, let what):
            let issue = "\(clean(name))#\(number)"
            switch what {
            case .closed: return "\(issue): closed on GitHub; todo \(todo) \(prefix)marked done"
            case .reopened: return "\(issue): reopened on GitHub; todo \(todo) \(prefix)marked open"
            case .retitled(let title): return "\(issue): retitled on GitHub; todo \(todo) \(prefix)changed to \(quoted(clean(title)))"
            case .relabelled(let labels): return "\(issue): labels changed on GitHub to \(tagList(labels)) (todo \(todo)'s own tags stay)"
            case .labelsChanged: return ""
            }
        case .issuePushed(let name, let number, let todo, let what):
            let issue = "\(clean(name))#\(number)"
            switch what {
            case .closed: return "\(issue): \(prefix)closed as completed (todo \(todo) is done)"
            case .reopened: return "\(issue): \(prefix)reopened (todo \(todo) is open)"
            case .retitled(let title): return "\(issue): \(prefix)retitled \(quoted(clean(title))) (todo \(todo) was edited)"
            case .relabelled(let labels): return "\(issue): \(prefix)labelled \(tagList(labels)) (todo \(todo)'s tags)"
            case .labelsChanged(let added, let removed):
                let parts = (added.isEmpty ? [] : ["\(prefix)labelled \(tagList(added))"])
                    + (removed.isEmpty ? [] : ["\(prefix)unlabelled \(tagList(removed))"])
                return "\(issue): " + parts.joined(separator: ", ") + " (todo \(todo)'s tags)"
            }
        case .issueImported(let name, let number, let todo, let title):
            let made = todo.map { "imported as todo \($0)" } ?? "\(prefix)imported"
            return "\(clean(name))#\(number): \(made): \(clean(title))"
        case .issueConflict(let name, let number, let todo, let field, let keptGitHub):
            let onGitHub = field == .text ? "title" : "state"
            let kept = keptGitHub ? "kept GitHub's \(onGitHub)" : "kept todo \(todo)'s \(field.rawValue)"
            return "\(clean(name))#\(number): the \(onGitHub) changed on GitHub and todo \(todo)'s \(field.rawValue) here since the last sync; \(kept), the later change"
        case .issueLinked(let name, let number, let todo, let foundEarlier):
            return foundEarlier ? "\(clean(name))#\(number): linked to todo \(todo) (it was made for it earlier)"
                : "\(clean(name))#\(number): created for todo \(todo)"
        case .doneByCommit(let name, let todo, let sha):
            return "\(clean(name)): todo \(todo) \(prefix)marked done by commit \(clean(String(sha.prefix(7))))"
        case .ambiguousTrailer(let name, let sha, let digits):
            return "\(clean(name)): commit \(clean(String(sha.prefix(7)))) says Doogit-Done: \(clean(digits)), which fits several todos; ignored"
        case .trailerOutranked(let name, let todo, let sha):
            return "\(clean(name)): commit \(clean(String(sha.prefix(7)))) says todo \(todo) is done, but it was reopened after that commit; left open"
        case .duplicateIssue(let name, let number, let kept, let todo, let closed, let relinked):
            let linked = relinked ? "todo \(todo) \(prefix)linked to #\(kept) instead, the first made" : "todo \(todo) is linked to #\(kept)"
            let done = closed ? "\(prefix)closed as a duplicate" : "a duplicate to close on GitHub (pushing is off)"
            return "\(clean(name))#\(number): made for todo \(todo) twice; \(done); \(linked)"
        default:
            return ""
        }
    }

    /// Tags or labels as a list: `"ci", "release"`, or `(none)`.
    static func tagList(_ names: [String]) -> String {
        names.isEmpty ? "(none)" : names.map { quoted(TerminalText.sanitize($0)) }.joined(separator: ", ")
    }
}
