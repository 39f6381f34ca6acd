import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
import DoogitSync

/// The `--json` shapes of the contract, written straight from the records (a list of 10,000
/// todos builds no intermediate tree). Fields are only ever added, never renamed or removed.
enum JSONOutput {
    static func repository(_ summary: RepositorySummary, into json: inout JSONStream) {
        let r = summary.repository
        json.beginObject()
        json.key("id"); json.int(r.id)
        json.key("fullName"); json.string(r.fullName)
        json.key("owner"); json.string(r.owner)
        json.key("name"); json.string(r.name)
        json.key("description"); json.string(r.description)
        json.key("url"); json.string(r.url)
        json.key("private"); json.bool(r.isPrivate)
        json.key("archived"); json.bool(r.archived)
        json.key("gone"); json.bool(r.gone)
        json.key("open"); json.int(Int64(summary.open))
        json.key("done"); json.int(Int64(summary.done))
        json.key("syncedAt"); json.timestamp(r.syncedAt)
        json.key("pushIssues"); json.bool(r.settings.pushIssues)
        json.key("importIssues"); json.string(r.settings.importIssues.rawValue)
        json.key("scanCommits"); json.bool(r.settings.scanCommits)
        json.key("shared"); json.bool(summary.shared)
        json.key("sharedUnreadableSince"); json.timestamp(summary.sharedUnreadableSince)
        json.endObject()
    }

    /// A todo as `todo add|done|undo|edit|rm --json` print it.
    static func todo(_ todo: TodoRecord, into json: inout JSONStream) {
        todoObject(todo, withRepository: true, into: &json)
    }

    /// A todo as `next --json` prints it: with its `"urgency"` (a number with two decimals).
    static func ranked(_ ranked: RankedTodo, into json: inout JSONStream) {
        todoObject(ranked.todo, withRepository: true, urgency: ranked.urgency, into: &json)
    }

    /// `todo show --json`: every field of a todo. (Fields are added here as todos gain them.)
    static func todoDetails(_ todo: TodoRecord, into json: inout JSONStream) {
        json.beginObject()
        json.key("id"); json.int(todo.id)
        json.key("uuid"); json.string(todo.uuid)
        json.key("repository"); json.string(todo.repositoryFullName)
        json.key("repositoryId"); json.int(todo.repositoryID)
        json.key("text"); json.string(todo.text)
        json.key("done"); json.bool(todo.done)
        json.key("createdAt"); json.timestamp(todo.createdAt)
        json.key("updatedAt"); json.timestamp(todo.updatedAt)
        json.key("doneAt"); json.timestamp(todo.doneAt)
        issueObject(todo.issue, into: &json)
        detailFields(todo, into: &json)
        json.endObject()
    }

    /// `"issue": {"number", "url", "state"}` of a linked todo, `null` for another; `state` is
    /// null until a sync has seen the issue since it was linked (on another machine).
    private static func issueObject(_ issue: IssueLink?, into json: inout JSONStream) {
        json.key("issue")
        guard let issue else { return json.null() }
        json.beginObject()
        json.key("number"); json.int(issue.number)
        json.key("url"); json.string(issue.url)
        json.key("state"); json.string(issue.state?.rawValue)
        json.endObject()
    }

    /// A todo's fields; inside a section the repository is the section's, so it is left out.
    private static func todoObject(_ todo: TodoRecord, withRepository: Bool, urgency: Urgency? = nil, into json: inout JSONStream) {
        json.beginObject()
        json.key("id"); json.int(todo.id)
        if withRepository { json.key("repository"); json.string(todo.repositoryFullName) }
        json.key("text"); json.string(todo.text)
        json.key("done"); json.bool(todo.done)
        json.key("createdAt"); json.timestamp(todo.createdAt)
        json.key("doneAt"); json.timestamp(todo.doneAt)
        json.key("uuid"); json.string(todo.uuid)
        issueObject(todo.issue, into: &json)
        detailFields(todo, into: &json)
        if let urgency { json.key("urgency"); json.number(urgency.description) }
        json.endObject()
    }

    /// `"due"`, `"priority"`, `"tags"` (its own, sorted without case), `"note"`, null or empty
    /// when not set, `"labels"`: its issue's labels as last seen (null when not linked or not
    /// known), and the GitHub logins `"author"`, `"finishedBy"` and `"assignee"` (null: none, or
    /// not known).
    private static func detailFields(_ todo: TodoRecord, into json: inout JSONStream) {
        json.key("due"); json.string(todo.due?.text)
        json.key("priority"); json.string(todo.priority?.rawValue)
        json.key("tags")
        json.beginArray()
        for tag in todo.tags { json.string(tag) }
        json.endArray()
        json.key("note"); json.string(todo.note)
        json.key("labels")
        if let labels = todo.labels {
            json.beginArray()
            for label in labels { json.string(label) }
            json.endArray()
        } else {
            json.null()
        }
        json.key("author"); json.string(todo.author)
        json.key("finishedBy"); json.string(todo.finishedBy)
        json.key("assignee"); json.string(todo.assignee)
    }

    static func section(_ section: TodoSection, into json: inout JSONStream) {
        let r = section.repository
        json.beginObject()
        json.key("repository")
        json.beginObject()
        json.key("id"); json.int(r.id)
        json.key("fullName"); json.string(r.fullName)
        json.key("description"); json.string(r.description)
        json.key("archived"); json.bool(r.archived)
        json.key("gone"); json.bool(r.gone)
        // False only in `todo list --removed`, for the todos of a repository no longer tracked.
        json.key("tracked"); json.bool(r.tracked)
        json.endObject()
        json.key("todos")
        json.beginArray()
        for todo in section.todos { todoObject(todo, withRepository: false, into: &json) }
        json.endArray()
        json.endObject()
    }

    /// `sync --json`: what the sync did (also when it stopped early).
    static func sync(_ summary: SyncSummary, dryRun: Bool, into json: inout JSONStream) {
        json.beginObject()
        json.key("repositories"); json.int(Int64(summary.repositories))
        json.key("updated"); json.int(Int64(summary.updated))
        json.key("renamed"); json.int(Int64(summary.renamed))
        json.key("gone"); json.int(Int64(summary.gone))
        json.key("unchanged"); json.int(Int64(summary.unchanged))
        json.key("requests"); json.int(Int64(summary.requests))
        json.key("rateLimitRemaining")
        if let remaining = summary.rateLimitRemaining { json.int(Int64(remaining)) } else { json.null() }
        json.key("dryRun"); json.bool(dryRun)
        json.key("issues")
        json.beginObject()
        json.key("pulled"); json.int(Int64(summary.issues.pulled))
        json.key("pushed"); json.int(Int64(summary.issues.pushed))
        json.key("imported"); json.int(Int64(summary.issues.imported))
        json.key("closedByCommit"); json.int(Int64(summary.issues.closedByCommit))
        json.key("conflicts"); json.int(Int64(summary.issues.conflicts))
        json.endObject()
        json.key("remote")
        if let remote = summary.remote {
            json.beginObject()
            json.key("pulled"); json.int(Int64(remote.pulled))
            json.key("pushed"); json.int(Int64(remote.pushed))
            json.key("retries"); json.int(Int64(remote.retries))
            json.key("dropped"); json.int(Int64(remote.droppedEdits.count))
            json.key("untracked")
            json.beginArray()
            for untracked in remote.untrackedElsewhere.values.sorted(by: { $0.fullName < $1.fullName }) {
                json.beginObject()
                json.key("repository"); json.string(untracked.fullName)
                json.key("todos"); json.int(Int64(untracked.todos))
                json.endObject()
            }
            json.endArray()
            json.endObject()
        } else {
            json.null()
        }
        json.key("board")
        if let board = summary.board {
            json.beginObject()
            for (key, count) in [("finished", board.finished), ("reopened", board.reopened), ("edited", board.edited),
                                 ("added", board.added), ("removed", board.removed), ("unplaced", board.unplaced.count),
                                 ("written", board.written), ("created", board.created), ("closed", board.closed)] {
                json.key(named: key); json.int(Int64(count))
            }
            json.endObject()
        } else {
            json.null()
        }
        json.key("shares")
        json.beginArray()
        for share in summary.shares {
            json.beginObject()
            json.key("repository"); json.string(share.repository)
            json.key("pulled"); json.int(Int64(share.pulled))
            json.key("pushed"); json.int(Int64(share.pushed))
            json.key("waiting"); json.int(Int64(share.waiting))
            json.key("dropped"); json.int(Int64(share.droppedEdits))
            json.key("failure"); json.string(share.failure?.advice)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// `remote status --json`: where the todos are exchanged, the last exchange, the local
    /// changes waiting (null for a remote just removed), the horizon and the machines as last
    /// read (each with its last exchange); null when no remote is set.
    static func remoteStatus(_ remote: RemoteSettings?, pending: Int64?, meta: RemoteMeta?, machine: String,
                             into json: inout JSONStream) {
        guard let remote else {
            json.null()
            return
        }
        json.beginObject()
        json.key("repository"); json.string(remote.fullName)
        json.key("repositoryId"); json.int(remote.repositoryID)
        json.key("branch"); json.string(remote.branch)
        json.key("path"); json.string(RemoteLayout.stubPath)
        json.key("exchangedAt"); json.string(remote.exchangedAt?.rfc3339)
        json.key("pending")
        if let pending { json.int(pending) } else { json.null() }
        json.key("machine"); json.string(machine)
        json.key("horizonDays"); json.int(remote.horizonDays?.value ?? meta?.horizonDays.value ?? RemoteMeta.defaultHorizonDays)
        json.key("machines")
        json.beginArray()
        for record in (meta?.machines.values).map(Array.init)?.sorted(by: { $0.id < $1.id }) ?? [] {
            json.beginObject()
            json.key("id"); json.string(record.id)
            json.key("name"); json.string(record.name)
            json.key("exchangedAt"); json.string(record.exchangedAt.rfc3339)
            json.key("generation"); json.int(record.generation)
            json.key("forgotten"); json.bool(record.forgotten.value || remote.forget.contains(record.id))
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// A repository found by `repo search --json`, and whether it is tracked; `archived` is null
    /// when GitHub's listing did not say.
    static func searchResult(_ repository: GitHubRepository, tracked: Bool, into json: inout JSONStream) {
        json.beginObject()
        json.key("id"); json.int(repository.id)
        json.key("fullName"); json.string(repository.fullName)
        json.key("description"); json.string(repository.description)
        json.key("private"); json.bool(repository.isPrivate)
        json.key("archived")
        if let archived = repository.archived { json.bool(archived) } else { json.null() }
        json.key("tracked"); json.bool(tracked)
        json.endObject()
    }

    /// `auth status --json`: the API's host and origin, the signed-in login, where the token came
    /// from (never the token), and its scopes when GitHub reports them.
    static func authStatus(host: String, origin: String, user: GitHubUser, tokenSource: String, into json: inout JSONStream) {
        json.beginObject()
        json.key("host"); json.string(host)
        json.key("origin"); json.string(origin)
        json.key("login"); json.string(user.login)
        json.key("source"); json.string(tokenSource)
        json.key("scopes")
        if let scopes = user.scopes {
            json.beginArray()
            for scope in scopes { json.string(scope) }
            json.endArray()
        } else {
            json.null()
        }
        json.endObject()
    }
}
