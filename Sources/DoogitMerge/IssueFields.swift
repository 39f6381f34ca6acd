import DoogitSupport

/// Which GitHub issue a todo is linked to: the user's choice (`todo link`, `unlink`, `promote`,
/// an import), stamped when it was made. What GitHub says of the issue is an observation, kept
/// apart in `IssueObservation`, so no machine's reading of GitHub can link or unlink a todo.
/// A link is valid only while the todo is in that repository (a move made on one machine while
/// another linked the todo leaves a link to the repository the todo left, which is dropped).
public struct LinkedIssue: Equatable, Sendable {
    public var number: Int64
    /// GitHub's id of the repository the issue belongs to.
    public var repository: Int64
    public var url: String

    public init(number: Int64, repository: Int64, url: String) {
        self.number = number
        self.repository = repository
        self.url = url
    }
}

extension LinkedIssue: RegisterValue {
    public static func settles(_ lhs: LinkedIssue, before rhs: LinkedIssue) -> Bool {
        (lhs.repository, lhs.number, lhs.url) < (rhs.repository, rhs.number, rhs.url)
    }
}

/// A linked issue as some machine last saw it on GitHub. It travels as a register stamped with
/// the link it was seen under, so a new link's observations replace an older link's; under one
/// link, the observation of the later GitHub state wins (by `updatedAt`, then, as GitHub's times
/// have whole seconds, by when it was seen). A machine records an observation only when it differs
/// from the one recorded, so an event on GitHub is recorded once.
public struct IssueObservation: Equatable, Sendable {
    public static let states: Set<String> = ["open", "closed"]

    public var number: Int64
    /// "open" or "closed".
    public var state: String
    /// nil: not known (a link made before doogit recorded titles).
    public var title: String?
    public var url: String
    /// GitHub's `updated_at` of the state seen (nil: not known).
    public var updatedAt: Timestamp?
    /// When it was seen, by the machine that saw it (nil: not known).
    public var seenAt: HybridTimestamp?
    /// The names of its labels, sorted (nil: not known, seen by a doogit before labels were kept).
    public var labels: [String]?

    public init(number: Int64, state: String, title: String?, url: String, updatedAt: Timestamp?,
                seenAt: HybridTimestamp? = nil, labels: [String]? = nil) {
        self.labels = labels.map { Array(Set($0)).sorted() }
        self.number = number
        self.state = state
        self.title = title
        self.url = url
        self.updatedAt = updatedAt
        self.seenAt = seenAt
    }

    public var isClosed: Bool { state == "closed" }

    /// Whether two observations saw the issue alike (whenever they were made).
    public func sameIssue(as other: IssueObservation) -> Bool {
        number == other.number && state == other.state && title == other.title && url == other.url
            && updatedAt == other.updatedAt && labels == other.labels
    }
}

extension IssueObservation: RegisterValue {
    public static func settles(_ lhs: IssueObservation, before rhs: IssueObservation) -> Bool {
        // Not known before any time (a time before 1970 included), so that the order is total.
        switch (lhs.updatedAt, rhs.updatedAt) {
        case (nil, _?): return true
        case (_?, nil): return false
        case (let left?, let right?) where left != right: return left < right
        default: break
        }
        let leftSeen = lhs.seenAt ?? .zero, rightSeen = rhs.seenAt ?? .zero
        if leftSeen != rightSeen { return leftSeen < rightSeen }
        let left4 = (lhs.number, lhs.state, lhs.title ?? "", lhs.url), right4 = (rhs.number, rhs.state, rhs.title ?? "", rhs.url)
        if left4 != right4 { return left4 < right4 }
        // Then what tells two observations apart besides (a missing title before an empty one;
        // no labels known before any), so that two copies merge alike in either order.
        if (lhs.title == nil) != (rhs.title == nil) { return lhs.title == nil }
        switch (lhs.labels, rhs.labels) {
        case (nil, nil): return false
        case (nil, _?): return true
        case (_?, nil): return false
        case (let left?, let right?): return left.lexicographicallyPrecedes(right)
        }
    }
}

/// No value (a todo not linked) comes before any value.
extension Optional: RegisterValue where Wrapped: RegisterValue {
    public static func settles(_ lhs: Wrapped?, before rhs: Wrapped?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return false
        case (nil, _?): return true
        case (_?, nil): return false
        case (let left?, let right?): return Wrapped.settles(left, before: right)
        }
    }
}

extension HybridTimestamp {
    /// The machine id of stamps that date something that happened on GitHub (an issue closed, a
    /// commit made) rather than on a machine: every machine that sees the event stamps it alike.
    public static let githubMachine = "000000000000"

    /// The stamp of an event on GitHub at `time`: before any change a machine makes in the same
    /// millisecond, and the same on every machine that sees it.
    public static func event(at time: Timestamp) -> HybridTimestamp {
        HybridTimestamp(wall: max(1, time.millisecondsSinceEpoch), counter: 0, machine: githubMachine)
    }

    /// The stamp of an event on GitHub known to follow the write stamped `stamp` (it was seen
    /// after it): just after it, the same on every machine that sees it.
    public static func event(after stamp: HybridTimestamp) -> HybridTimestamp {
        stamp.next(on: githubMachine)
    }
}

/// What sync does with a repository's issues and commits, the same on every machine: push todo
/// changes to linked issues, import open issues ("off", "assigned" or "all"), finish todos from
/// commit trailers.
public struct SharedSettings: Equatable, Sendable {
    public static let importModes: Set<String> = ["off", "assigned", "all"]
    /// A repository nobody configured: nothing pushed, nothing imported, commits read.
    public static let defaults = SharedSettings(pushIssues: false, importIssues: "off", scanCommits: true)

    public var pushIssues: Bool
    public var importIssues: String
    public var scanCommits: Bool

    public init(pushIssues: Bool, importIssues: String, scanCommits: Bool) {
        self.pushIssues = pushIssues
        self.importIssues = importIssues
        self.scanCommits = scanCommits
    }
}

extension SharedSettings: RegisterValue {
    public static func settles(_ lhs: SharedSettings, before rhs: SharedSettings) -> Bool {
        (lhs.importIssues, lhs.pushIssues ? 1 : 0, lhs.scanCommits ? 1 : 0)
            < (rhs.importIssues, rhs.pushIssues ? 1 : 0, rhs.scanCommits ? 1 : 0)
    }
}
