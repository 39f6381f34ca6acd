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
    /// Lines whose edit cannot be read, by their todo's digits: written back as they are.
    private(set) var verbatim: [String: String] = [:]

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
        var url: String? = github.openIssuesURL(owner: owner, name: name)
        var found: [GitHubIssue] = []
        var unchanged = false
        while let page = url {
            switch try github.issuePage(page, ifNoneMatch: found.isEmpty && url == github.openIssuesURL(owner: owner, name: name) ? etag : nil,
                                        about: .repository(settings.fullName)) {
            case .notModified:
                unchanged = true
                url = nil
            case .modified(let listing, let tag):
                if found.isEmpty { etag = tag }
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

    /// The open issues that are parts of the board (their body opens with its marker), a part's
    /// first one kept where two machines made it at once.
    private mutating func boardIssues(_ issues: [GitHubIssue], now: Timestamp) -> [BoardIssueRecord] {
        var byPart: [Int: BoardIssueRecord] = [:]
        for issue in issues.sorted(by: { $0.number < $1.number }) where !issue.isPullRequest {
            guard let body = issue.body, body.hasPrefix(BoardDocument.marker),
                  let part = Int(body.dropFirst(BoardDocument.marker.count).prefix { $0.isNumber }), part >= 1 else { continue }
            guard byPart[part] == nil else {
                duplicates.append(issue.number)
                continue
            }
            byPart[part] = Self.record(issue, part: part, now: now)
        }
        return byPart.values.sorted { $0.part < $1.part }
    }

    static func record(_ issue: GitHubIssue, part: Int, now: Timestamp) -> BoardIssueRecord {
        BoardIssueRecord(part: part, number: issue.number, url: issue.htmlURL, body: issue.body ?? "",
                         updatedAt: Timestamp(rfc3339: issue.updatedAt) ?? now)
    }

    /// What a person changed on each body, applied as their intent; what was new since this
    /// machine last knew a body is told in the summary. Returns it in words, when there was any.
    private mutating func bringHome(_ summary: inout BoardSummary, _ session: inout SyncSession, now: Timestamp) throws -> String? {
        let store = session.store
        var repositories: [String: Int64] = [:]
        for repository in try store.repositories() { repositories[repository.fullName.lowercased()] = repository.id }
        for issue in current { documents[issue.part] = BoardDocument.read(issue.body) { repositories[$0.lowercased()] != nil } }
        let shown = Set(documents.values.flatMap { $0.lines.map(\.prefix) })
        let entries = try store.replica.entries(withPrefixes: shown.union(documents.values.flatMap(\.listed)))
        let byPrefix = Dictionary(grouping: entries) { String($0.uuid.prefix(8)) }
        let live = try store.sections().flatMap(\.todos)
        // Relative dates a person types (`due:fri`) count from today here; GitHub's own date, should
        // the local calendar not tell it.
        guard let today = CalendarDate.local(at: now) ?? CalendarDate(dayNumber: Int(now.millisecondsSinceEpoch / 86_400_000)) else {
            return nil
        }
        let reading = BoardReading(
            remoteID: settings.repositoryID, today: today,
            repositories: repositories,
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
                }))
        var changes: [TodoChange] = []
        var brought = BoardSummary()
        for issue in current {
            guard let document = documents[issue.part] else { continue }
            let read = reading.read(document, issue: issue.number, updatedAt: issue.updatedAt)
            changes += read.changes
            verbatim.merge(read.verbatim) { first, _ in first }
            // Told once: what is new since this machine last knew the body.
            let knownBody = known.first { $0.number == issue.number }?.body
            guard knownBody != issue.body else { continue }
            let knownLines = Set((knownBody ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingSpaces })
            // A person's lines kept as written (a note, a heading of no tracked repository) count too.
            let unplaced = read.report.unplaced + document.kept
            brought.add(read.report, unplaced: unplaced.filter { !knownLines.contains($0.trimmingSpaces) })
        }
        if !changes.isEmpty { try store.replica.apply(ReplicaChanges(todos: changes), at: session.clock(), asLocalChange: true) }
        summary.add(brought)
        return brought.words
    }
}
