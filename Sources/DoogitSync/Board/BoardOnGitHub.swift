import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport

/// The board's issues as GitHub holds them, read, brought home and written (`BoardPhase`).
struct BoardOnGitHub {
    let settings: RemoteSettings
    let owner: String, name: String
    /// As this machine last read or wrote them, and as GitHub holds them now.
    let known: [BoardIssueRecord]
    private(set) var current: [BoardIssueRecord] = []
    /// Board issues of a part that another holds too (two machines made it at once): closed.
    private var duplicates: [Int64] = []
    private(set) var etag: String?
    private(set) var documents: [Int: BoardDocument] = [:]
    /// Lines to write back as a person left them (`BoardReading.Kept`), from every part.
    private(set) var kept = BoardReading.Kept()

    init(settings: RemoteSettings, session: SyncSession) throws {
        self.settings = settings
        let parts = settings.fullName.split(separator: "/", maxSplits: 1).map(String.init)
        (owner, name) = (parts.first ?? "", parts.last ?? "")
        let state = try session.store.boardState()
        known = state?.issues ?? []
        etag = state?.etag
    }

    /// Reads the board (conditionally) and brings home what a person changed on it.
    mutating func read(_ summary: inout BoardSummary, _ session: inout SyncSession) throws {
        try session.checkBudget()
        let github = session.github
        let first = github.openIssuesURL(owner: owner, name: name)
        var url: String? = first
        var found: [GitHubIssue] = []
        var unchanged = false
        while let page = url {
            switch try github.issuePage(page, ifNoneMatch: page == first ? etag : nil, about: .repository(settings.fullName)) {
            case .notModified:
                unchanged = true
                url = nil
            case .modified(let listing, let tag):
                // A listing of several pages is read whole every time: an unchanged first page says
                // nothing of the others.
                if page == first { etag = listing.nextURL == nil ? tag : nil }
                found += listing.issues
                url = listing.nextURL
            }
        }
        let now = session.github.gitHubNow ?? session.clock()
        current = unchanged ? known : boardIssues(found, now: now)
        // Two machines made a part at once: the first stays (both hold the same lines), the others close.
        for number in duplicates {
            try session.checkBudget()
            _ = try github.updateIssue(owner: owner, name: name, number: number, title: nil, state: .closed)
            summary.closed += 1
        }
        let lastRead = try bringHome(&summary, &session, now: now)
        try session.store.recordBoard(issues: current, etag: etag, readAt: now, lastRead: lastRead)
    }

    /// The open issues that are parts of the board: a body holding its marker (anywhere: a
    /// person may write above it), or an issue this machine knows as a part; a part's first
    /// one kept where two machines made it at once.
    private mutating func boardIssues(_ issues: [GitHubIssue], now: Timestamp) -> [BoardIssueRecord] {
        let knownParts = Dictionary(known.map { ($0.number, $0.part) }) { first, _ in first }
        var byPart: [Int: BoardIssueRecord] = [:]
        for issue in issues.sorted(by: { $0.number < $1.number }) where !issue.isPullRequest {
            guard let part = Self.part(of: issue.body ?? "") ?? knownParts[issue.number], part >= 1 else { continue }
            guard byPart[part] == nil else {
                duplicates.append(issue.number)
                continue
            }
            byPart[part] = Self.record(issue, part: part, now: now)
        }
        return byPart.values.sorted { $0.part < $1.part }
    }

    /// The part a body's marker names, on whichever line it stands.
    static func part(of body: String) -> Int? {
        for line in body.split(separator: "\n") where line.hasPrefix(BoardDocument.marker) {
            return Int(line.dropFirst(BoardDocument.marker.count).prefix { $0.isNumber })
        }
        return nil
    }

    static func record(_ issue: GitHubIssue, part: Int, now: Timestamp) -> BoardIssueRecord {
        BoardIssueRecord(part: part, number: issue.number, url: issue.htmlURL, body: issue.body ?? "",
                         updatedAt: Timestamp(rfc3339: issue.updatedAt) ?? now)
    }

    /// What a person changed on each body, applied as their intent; what was new since this
    /// machine last knew a body is told in the summary. Returns it in words, when there was any.
    private mutating func bringHome(_ summary: inout BoardSummary, _ session: inout SyncSession, now: Timestamp) throws -> String? {
        let store = session.store
        // Tracked repositories by name in lower case, and by their former names (a repository
        // renamed on GitHub keeps its heading until doogit writes the board again).
        var repositories: [String: Int64] = [:], sections: [String: String] = [:]
        for repository in try store.repositories() {
            let name = repository.fullName.lowercased()
            repositories[name] = repository.id
            sections[name] = name
            for former in try store.formerNames(ofRepository: repository.id) where sections[former.lowercased()] == nil {
                sections[former.lowercased()] = name
            }
        }
        for issue in current { documents[issue.part] = BoardDocument.read(issue.body) { sections[$0.lowercased()] } }
        let shown = Set(documents.values.flatMap { $0.lines.map(\.prefix) })
        let entries = try store.replica.entries(withPrefixes: shown.union(documents.values.flatMap(\.listed)))
        let byPrefix = Dictionary(grouping: entries) { String($0.uuid.prefix(8)) }
        let live = try store.sections().flatMap(\.todos)
        // What doogit wrote on each line, as this machine last read or wrote it: what an edit is told against.
        var written: [String: String] = [:]
        for issue in known {
            for line in BoardDocument.read(issue.body, section: { _ in nil }).lines {
                written[line.prefix + line.writtenFingerprint] = line.content
            }
        }
        // Relative dates a person types (`due:fri`) count from today here; GitHub's own date, should
        // the local calendar not tell it.
        guard let today = CalendarDate.local(at: now) ?? CalendarDate(dayNumber: Int(now.millisecondsSinceEpoch / 86_400_000)) else {
            return nil
        }
        let reading = BoardReading(
            remoteID: settings.repositoryID, today: today, repositories: repositories,
            todos: BoardReading.Todos(
                byPrefix: { prefix, repository in
                    let found = byPrefix[prefix] ?? []
                    if found.count == 1 { return found.first }
                    let there = found.filter { $0.repository.value == repository }
                    return there.count == 1 ? there.first : nil
                },
                byUUID: { (try? store.entry(uuid: $0))?.entry },
                unshown: { repository, text in
                    live.first { $0.repositoryID == repository && $0.text == text && !shown.contains(String($0.uuid.prefix(8))) }
                        .flatMap { (try? store.entry(uuid: $0.uuid))?.entry }
                },
                written: { prefix, fingerprint in written[prefix + fingerprint].flatMap { BoardMarkdown.fingerprint($0) == fingerprint ? $0 : nil } }))
        var changes: [TodoChange] = []
        var brought = BoardSummary()
        for issue in current {
            guard let document = documents[issue.part] else { continue }
            let read = reading.read(document, issue: issue.number, updatedAt: issue.updatedAt)
            changes += read.changes
            kept.verbatim.merge(read.kept.verbatim) { first, _ in first }
            kept.added.merge(read.kept.added) { $0 + $1 }
            // Told once: what is new since this machine last knew the body.
            let knownBody = known.first { $0.number == issue.number }?.body
            guard knownBody != issue.body else { continue }
            let knownLines = Set((knownBody ?? "").split(separator: "\n").map { $0.trimmingSpaces })
            // A person's lines kept as written (a note, a heading of no tracked repository) count too.
            let unplaced = read.report.unplaced + document.kept
            brought.add(read.report, unplaced: unplaced.filter { !knownLines.contains($0.trimmingSpaces) })
        }
        if !changes.isEmpty { try store.replica.apply(ReplicaChanges(todos: changes), at: session.clock(), asLocalChange: true) }
        summary.add(brought)
        return brought.words
    }
}
