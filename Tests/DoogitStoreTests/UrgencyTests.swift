@testable import DoogitStore
import DoogitMerge
import DoogitSupport
import TestSupport
import Testing

/// `next`'s order: Taskwarrior's urgency of due date, priority and age, against the formula
/// written out plainly and as SQL (the bench's peer computes it so); and the filters `next` and
/// the list share.
@Suite struct UrgencyTests {
    static let today = CalendarDate(year: 2026, month: 12, day: 2)!
    /// Midday of `today` in UTC: ages are whole days since a todo was made.
    static let now = Timestamp(secondsSinceEpoch: Int64(today.dayNumber) * 86_400 + 43_200)

    /// The score of each row of the todos' table `t` in hundredths, as SQLite computes it; its two
    /// parameters are today (`YYYY-MM-DD`) and now (RFC 3339), in this order.
    static let sql = """
        CAST(round(100 * (
            CASE WHEN t.due IS NULL THEN 0.0
                 ELSE 12.0 * max(0.2, min(1.0, 0.2 + 0.8 * (julianday(?) - julianday(t.due) + 14.0) / 21.0)) END
            + CASE t.priority WHEN 'H' THEN 6.0 WHEN 'M' THEN 3.9 WHEN 'L' THEN 1.8 ELSE 0.0 END
            + 2.0 * min(365, max(0, CAST(julianday(?) - julianday(t.created_at) AS INTEGER))) / 365.0
        )) AS INTEGER)
        """

    /// The score written out as the docs say it, in hundredths.
    static func expected(dueIn days: Int?, priority: Priority?, ageDays: Int) -> Int64 {
        var score = 0.0
        if let days {
            score += 12.0 * min(1.0, max(0.2, 0.2 + 0.8 * (Double(-days) + 14.0) / 21.0))
        }
        switch priority {
        case .high?: score += 6.0
        case .medium?: score += 3.9
        case .low?: score += 1.8
        case nil: break
        }
        score += 2.0 * Double(min(365, max(0, ageDays))) / 365.0
        return Int64((score * 100).rounded())
    }

    func urgency(dueIn days: Int?, priority: Priority? = nil, ageDays: Int = 0, due: CalendarDate? = nil) throws -> Int64 {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a")])
        let made = Timestamp(secondsSinceEpoch: Self.now.millisecondsSinceEpoch / 1000 - Int64(ageDays) * 86_400)
        _ = try store.addTodo(repositoryID: 1, text: "t", details: DetailsEdit(due: .some(due ?? days.flatMap { Self.today.adding(days: $0) }),
                                                                                 priority: .some(priority)), at: made)
        return try #require(try store.nextTodos(limit: 1, today: Self.today, now: Self.now).first).urgency.hundredths
    }

    @Test(arguments: [
        (0, 880), (-7, 1200), (-30, 1200), (-1, 926), (1, 834), (13, 286), (14, 240), (400, 240),
    ])
    func theDueTermRampsFromTwoWeeksAheadToAWeekOverdue(dueIn: Int, hundredths: Int64) throws {
        #expect(try urgency(dueIn: dueIn) == hundredths)
        #expect(Self.expected(dueIn: dueIn, priority: nil, ageDays: 0) == hundredths)
    }

    @Test func priorityAndAgeAddTaskwarriorsWeights() throws {
        #expect(try urgency(dueIn: nil, priority: .high) == 600)
        #expect(try urgency(dueIn: nil, priority: .medium) == 390)
        #expect(try urgency(dueIn: nil, priority: .low) == 180)
        #expect(try urgency(dueIn: nil) == 0)
        #expect(try urgency(dueIn: nil, ageDays: 100) == 55)
        #expect(try urgency(dueIn: nil, ageDays: 365) == 200)
        #expect(try urgency(dueIn: nil, ageDays: 4000) == 200, "at most a year counts")
        #expect(try urgency(dueIn: nil, ageDays: -3) == 0, "made after now (a clock ahead): no age")
        #expect(try urgency(dueIn: 0, priority: .medium, ageDays: 30) == Self.expected(dueIn: 0, priority: .medium, ageDays: 30))
    }

    @Test func aDateFarOffComesAfterAnUndatedHighPriority() throws {
        let farthest = try urgency(dueIn: nil, ageDays: 4000, due: CalendarDate(year: 9999, month: 12, day: 31))
        #expect(farthest == 440, "12 x 0.2 + 2: the most a far date and a year's age give")
        #expect(try urgency(dueIn: nil, priority: .high) > farthest)
        #expect(try urgency(dueIn: nil, due: CalendarDate(year: 1, month: 1, day: 1)) == 1200, "an old date from an older doogit")
        #expect(Urgency(hundredths: 440).description == "4.40" && Urgency(hundredths: 1200).description == "12.00"
                && Urgency(hundredths: 5).description == "0.05")
    }

    @Test("next on random lists: the highest score first, ties as the list orders, then the first made", arguments: 0..<8)
    func randomLists(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a"), repository(2, "two/b")])
        var todos: [(id: Int64, score: Int64, due: CalendarDate?, rank: Int, made: Timestamp)] = []
        for index in 0..<Int.random(in: 1...80, using: &random) {
            let days: Int? = Bool.random(using: &random) ? Int.random(in: -10...20, using: &random) : nil
            let priority: Priority? = Bool.random(using: &random) ? [Priority.high, .medium, .low].randomElement(using: &random) : nil
            let age = Int.random(in: 0...3, using: &random) * 120
            let made = Timestamp(secondsSinceEpoch: Self.now.millisecondsSinceEpoch / 1000 - Int64(age) * 86_400 - Int64(index))
            let due = days.flatMap { Self.today.adding(days: $0) }
            let todo = try store.addTodo(repositoryID: Int64.random(in: 1...2, using: &random), text: "t\(index)",
                                         details: DetailsEdit(due: .some(due), priority: .some(priority)), at: made)
            if Int.random(in: 0..<5, using: &random) == 0 {
                _ = try store.setDone([todo.id], done: true, at: made)
                continue
            }
            todos.append((todo.id, Self.expected(dueIn: days, priority: priority, ageDays: age), due, priority?.rank ?? 3, made))
        }
        let expected = todos.sorted { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            if (lhs.due == nil) != (rhs.due == nil) { return lhs.due != nil }
            if let a = lhs.due, let b = rhs.due, a != b { return a < b }
            if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
            return lhs.made != rhs.made ? lhs.made < rhs.made : lhs.id < rhs.id
        }
        let ranked = try store.nextTodos(limit: 100, today: Self.today, now: Self.now)
        #expect(ranked.map(\.todo.id) == expected.map(\.id))
        #expect(ranked.map(\.urgency.hundredths) == expected.map(\.score))
        #expect(try store.nextTodos(limit: 100, repositoryIDs: [2], today: Self.today, now: Self.now).allSatisfy { $0.todo.repositoryID == 2 })
    }

    @Test("the score is SQLite's for the same formula, at whole days and a millisecond either side", arguments: 0..<4)
    func sameAsSQLite(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a")])
        let now = Timestamp(millisecondsSinceEpoch: Self.now.millisecondsSinceEpoch + Int64.random(in: 0..<86_400_000, using: &random))
        for index in 0..<300 {
            let due: CalendarDate? = Bool.random(using: &random) ? Self.today.adding(days: Int.random(in: -40...40, using: &random)) : nil
            let priority: Priority? = [Priority.high, .medium, .low, nil].randomElement(using: &random) ?? nil
            let days = Int64.random(in: -2...800, using: &random), nudge = Int64.random(in: -1...1, using: &random)
            let made = Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch - days * 86_400_000 + nudge)
            _ = try store.addTodo(repositoryID: 1, text: "t\(index)", details: DetailsEdit(due: .some(due), priority: .some(priority)), at: made)
        }
        let rows = try store.database.query("SELECT \(Self.sql), t.due, t.priority, t.created_at FROM todos t",
                                            [.text(Self.today.text), .text(now.rfc3339)]) { row throws(StoreError) in
            (sql: try row.int64(0), swift: Urgency(due: row.optionalString(1).flatMap(CalendarDate.init(text:)),
                                                   priority: row.optionalString(2).flatMap(Priority.init(rawValue:)),
                                                   made: try row.timestamp(3), today: Self.today, now: now).hundredths)
        }
        #expect(rows.count == 300)
        #expect(rows.filter { $0.sql != $0.swift }.isEmpty)
    }

    @Test("the ranking keeps the most urgent, as sorting every entry and taking the first would", arguments: 0..<8)
    func rankingKeepsTheBest(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let entries = (0..<Int.random(in: 0...300, using: &random)).map { index in
            UrgencyRanking.Entry(urgency: Urgency(hundredths: Int64.random(in: 0...4, using: &random)),
                                 dueDay: [Int.max, 3, 5].randomElement(using: &random) ?? .max,
                                 priorityRank: Int.random(in: 0...3, using: &random),
                                 made: moment(Int64.random(in: 0...2, using: &random)), id: Int64(index))
        }.shuffled(using: &random)
        let sorted = entries.sorted { $0.precedes($1) }
        for limit in [0, 1, 2, 10, 299, 400] {
            var ranking = UrgencyRanking(limit: limit)
            entries.forEach { ranking.offer($0) }
            #expect(ranking.ranked == Array(sorted.prefix(limit)), "limit \(limit)")
        }
    }

    @Test func overdueIsOpenAndDueBeforeToday() throws {
        let store = try memoryStore()
        try store.saveRepositories([repository(1, "one/a")])
        let late = try #require(Self.today.adding(days: -31))
        let done = try store.addTodo(repositoryID: 1, text: "done", details: DetailsEdit(due: .some(late)), at: moment(1))
        _ = try store.setDone([done.id], done: true, at: moment(2))
        _ = try store.addTodo(repositoryID: 1, text: "open", details: DetailsEdit(due: .some(late)), at: moment(3))
        _ = try store.addTodo(repositoryID: 1, text: "today", details: DetailsEdit(due: .some(Self.today)), at: moment(4))
        func texts(_ dues: [DueFilter]) throws -> [String] {
            try store.sections(details: DetailsFilter(dues: dues, today: Self.today)).flatMap(\.todos).map(\.text)
        }
        #expect(try texts([.overdue]) == ["open"])
        #expect(try texts([.by(Self.today)]) == ["open", "today", "done"], "due by a day: the done one too, as a date")
        #expect(try texts([.overdue, .by(Self.today)]) == ["open", "today", "done"])
    }
}
