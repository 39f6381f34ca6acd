import DoogitSupport

/// The `limit` most urgent of the open todos `next` reads, kept as the rows come: a heap whose top
/// is the least urgent kept, so a row that does not make the cut costs one comparison and
/// nothing is sorted but what is kept.
struct UrgencyRanking {
    /// What orders a todo: the user's own first (`mine`), then its urgency, then as the list
    /// orders (due date, none last, then priority), then the todo made first, then the lower ID.
    struct Entry: Equatable {
        var mine = true
        var urgency: Urgency
        /// The due date's day number; none sorts after every date.
        var dueDay: Int
        var priorityRank: Int
        var made: Timestamp
        var id: Int64

        /// Whether `self` comes before `other` in `next`.
        func precedes(_ other: Entry) -> Bool {
            if mine != other.mine { return mine }
            if urgency != other.urgency { return urgency > other.urgency }
            if dueDay != other.dueDay { return dueDay < other.dueDay }
            if priorityRank != other.priorityRank { return priorityRank < other.priorityRank }
            return made != other.made ? made < other.made : id < other.id
        }
    }

    let limit: Int
    /// Each entry comes after (is less urgent than) its children: the top is the first to go.
    private var heap: [Entry] = []

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    mutating func offer(_ entry: Entry) {
        if heap.count < limit {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent].precedes(heap[child]) else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        } else if let leastUrgent = heap.first, entry.precedes(leastUrgent) {
            heap[0] = entry
            var parent = 0
            while true {
                var child = 2 * parent + 1
                guard child < heap.count else { break }
                if child + 1 < heap.count, heap[child].precedes(heap[child + 1]) { child += 1 }
                guard heap[parent].precedes(heap[child]) else { break }
                heap.swapAt(parent, child)
                parent = child
            }
        }
    }

    /// What is kept, the most urgent first.
    var ranked: [Entry] { heap.sorted { $0.precedes($1) } }
}
