import Foundation

/// The most requests a test server was answering at the same moment.
public final class ConcurrencyGauge: @unchecked Sendable {
    public init() {}

    private let condition = NSCondition()
    private var current = 0
    public private(set) var peak = 0

    public func enter() {
        condition.lock()
        current += 1
        peak = max(peak, current)
        condition.broadcast()
        condition.unlock()
    }

    public func leave() {
        condition.lock()
        current -= 1
        condition.unlock()
    }

    /// Waits until `count` requests have been in at once (false on timeout).
    public func wait(untilAtOnce count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while peak < count {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }
}
