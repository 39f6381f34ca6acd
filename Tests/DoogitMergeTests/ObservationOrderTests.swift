import DoogitMerge
import DoogitSupport
import Testing

/// Two observations of one issue under one link settle in one order, whichever copy a machine
/// holds: the order is total, so a merge gives the same result in either order.
@Suite struct ObservationOrderTests {
    static func seen(updatedAt: Int64?, state: String = "open") -> IssueObservation {
        IssueObservation(number: 3, state: state, title: "t", url: "https://github.com/octocat/app/issues/3",
                         updatedAt: updatedAt.map { Timestamp(millisecondsSinceEpoch: $0) }, seenAt: nil, labels: nil)
    }

    @Test(arguments: [(nil, -1), (nil, 0), (-1, 0), (nil, 1_700_000_000_000), (-1_000, -1)] as [(Int64?, Int64)])
    func aTimeNotKnownComesBeforeEveryTimeEvenBefore1970(earlier: Int64?, later: Int64) {
        let first = Self.seen(updatedAt: earlier, state: "closed"), second = Self.seen(updatedAt: later)
        #expect(IssueObservation.settles(first, before: second))
        #expect(!IssueObservation.settles(second, before: first))
    }

    @Test func theOrderIsTotalOverTimesAndStates() {
        let times: [Int64?] = [nil, -1, 0, 1, 1_700_000_000_000]
        let all = times.flatMap { time in ["open", "closed"].map { Self.seen(updatedAt: time, state: $0) } }
        for a in all {
            for b in all {
                let before = IssueObservation.settles(a, before: b), after = IssueObservation.settles(b, before: a)
                #expect(a == b ? !before && !after : before != after, "\(a) / \(b)")
            }
        }
    }
}
