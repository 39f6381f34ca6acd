/// A todo's link to a GitHub issue, as machines exchange it: the issue's number, the GitHub id of
/// the repository it belongs to, its state as last seen, and its address. A link is valid only
/// while the todo is in that repository (a move made on one machine while another linked the
/// todo leaves a link to the repository the todo left, which the store does not take).
public struct LinkedIssue: Equatable, Sendable {
    public static let states: Set<String> = ["open", "closed"]

    public var number: Int64
    public var repository: Int64
    /// "open" or "closed".
    public var state: String
    public var url: String

    public init(number: Int64, repository: Int64, state: String, url: String) {
        self.number = number
        self.repository = repository
        self.state = state
        self.url = url
    }
}

extension LinkedIssue: RegisterValue {
    public static func settles(_ lhs: LinkedIssue, before rhs: LinkedIssue) -> Bool {
        (lhs.repository, lhs.number, lhs.state, lhs.url) < (rhs.repository, rhs.number, rhs.state, rhs.url)
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
