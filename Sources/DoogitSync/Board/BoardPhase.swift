import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// Keeps the board (`board on`): issues of the remote repository whose bodies are the todo list
/// as a Markdown task list, which a person ticks and edits on github.com or in the GitHub app.
///
/// It runs twice in a sync. Reading, before the issues: what a person changed on the board
/// comes home as their intent (`BoardReading`), so that a tick closes a linked issue in the
/// same sync. Writing, after them: the board is read again right before it is written (one
/// conditional request, a free 304 when nobody changed it), what changed since is taken first,
/// and only the bodies whose lines changed are written. GitHub has no compare-and-swap on an
/// issue's body: a change made on GitHub within that one round trip is written over (see
/// docs/board.md). A failure of the board fails the board, not the sync.
struct BoardPhase: SyncPhase {
    let writing: Bool
    /// How long a todo done stays on the board, ticked.
    static let doneDays: Int64 = 7

    func run(_ session: inout SyncSession) throws {
        guard !session.dryRun, let settings = try session.store.remoteSettings() else { return }
        var summary = session.summary.board ?? BoardSummary()
        defer {
            let on = (try? BoardSwitch.isOn(session.store)) ?? false
            session.summary.board = on || summary != BoardSummary() ? summary : nil
        }
        do {
            if try BoardSwitch.isOn(session.store) {
                // A public remote is written nowhere, the board included: every sync says so.
                guard !settings.repositoryPublic else { return }
                var board = try BoardOnGitHub(settings: settings, session: session)
                try board.read(&summary, &session)
                if writing { try board.write(&summary, &session) }
            } else if writing {
                var board = try BoardOnGitHub(settings: settings, session: session)
                try board.closeAll(&summary, &session)
            }
        } catch let error as GitHubError {
            if let stop = SyncSession.stop(for: error) { throw stop }
            session.summary.failures.append(SyncFailure(fullName: settings.fullName + " (the board)", error: Self.describe(error),
                                                        wrote: writing))
        } catch let stop as SyncStop {
            throw stop
        } catch {
            // Whatever else failed (the database, say) fails the board, not the rest of the sync.
            session.summary.failures.append(SyncFailure(fullName: settings.fullName + " (the board)", error: "\(error)", wrote: writing))
        }
    }

    /// Why the board could not be kept, in words; a token that may not write issues is told so.
    static func describe(_ error: GitHubError) -> String {
        if case .forbidden(let message, _) = error {
            return "\(message): the token may not write issues there (a fine-grained token needs the permission "
                + "'Issues: Read and write' on that repository)"
        }
        return RepositoryPhase.describe(error)
    }
}
