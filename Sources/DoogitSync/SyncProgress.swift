/// How far a sync has gone, for a progress line: the step it is at, and how many of that
/// step's repositories it has done out of how many.
public struct SyncProgress: Equatable, Sendable {
    public enum Step: String, Sendable {
        /// Reading the tracked repositories themselves.
        case repositories
        /// Reading the default branches and their new commits (`Doogit-Done:` trailers).
        case commits
        /// Reading (and pushing to) the issues of repositories with linked todos or import on.
        case issues
    }

    public var step: Step
    public var done: Int
    public var total: Int

    public init(_ step: Step, done: Int, total: Int) {
        self.step = step
        self.done = done
        self.total = total
    }
}
