import DoogitMerge
import DoogitSupport
import Foundation
import Testing
import TestSupport

@Suite struct TodoFileTests {
    static let stampA = "2023-11-14T22:13:20.000Z/0000/aaaaaaaaaaaa"
    static let stampB = "2023-11-14T22:14:20.000Z/0001/bbbbbbbbbbbb"

    static let sample = """
        {"format":"doogit","version":"4.2"}
        {"type":"repository","id":7,"fullName":"octocat/tools","url":"https://github.com/octocat/tools","tracked":false,"clock":{"name":"\(stampA)","tracked":"\(stampB)"}}
        {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"clock":{"name":"\(stampA)","tracked":"\(stampA)"}}
        {"type":"todo","uuid":"0b1c2d3e-0000-4000-8000-000000000002","repository":7,"text":"old idea","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","removed":true,"clock":{"repository":"\(stampA)","text":"\(stampA)","done":"\(stampA)","removed":"\(stampB)"}}
        {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":1296269,"text":"write the \\"release\\" notes ✓","done":true,"doneAt":"2023-11-14T22:14:20.000Z","createdAt":"2023-11-14T22:13:20.000Z","clock":{"repository":"\(stampA)","text":"\(stampB)","done":"\(stampB)"}}

        """

    @Test func theFileReadsBackAndWritesTheSameBytes() throws {
        let file = try TodoFile.decode(Array(Self.sample.utf8))
        let replica = file.replica
        #expect(file.annotations == ReplicaAnnotations() && file.majorVersion == 4 && file.handEdits == 0)
        #expect(replica.repositories.count == 2 && replica.todos.count == 2)
        let todo = try #require(replica.todos["9f1c2d3e-0000-4000-8000-000000000001"])
        #expect(todo.text.value == "write the \"release\" notes ✓")
        #expect(todo.text.stamp.text == Self.stampB)
        #expect(todo.done.value.doneAt?.rfc3339 == "2023-11-14T22:14:20.000Z")
        #expect(todo.removed == Register(false, at: .zero))
        #expect(replica.todos["0b1c2d3e-0000-4000-8000-000000000002"]?.isRemoved == true)
        #expect(replica.repositories[7]?.tracked.value == false)
        #expect(String(decoding: TodoFile.encode(replica), as: UTF8.self) == Self.sample)
    }

    static let linked = """
        {"format":"doogit","version":"4.2"}
        {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"settings":{"pushIssues":true,"importIssues":"assigned","scanCommits":false},"clock":{"name":"\(stampA)","tracked":"\(stampA)","settings":"\(stampB)"}}
        {"type":"todo","uuid":"0b1c2d3e-0000-4000-8000-000000000002","repository":1296269,"text":"unlinked","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","issue":null,"clock":{"repository":"\(stampA)","text":"\(stampA)","done":"\(stampA)","issue":"\(stampB)"}}
        {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":1296269,"text":"fix the bug","done":true,"doneAt":"2023-11-14T22:14:20.000Z","createdAt":"2023-11-14T22:13:20.000Z","issue":{"number":12,"url":"https://github.com/octocat/Hello-World/issues/12","repository":1296269},"issueSeen":{"number":12,"state":"closed","title":"Fix the bug","url":"https://github.com/octocat/Hello-World/issues/12","updatedAt":"2023-11-14T22:14:00.000Z","seenAt":"\(stampB)"},"commits":["6dcb09b5b57875f334f61aebed695e2e4193db5e","aaaa09b5b57875f334f61aebed695e2e4193db5e"],"clock":{"repository":"\(stampA)","text":"\(stampA)","done":"\(stampB)","issue":"\(stampB)","issueSeen":"\(stampB)"}}

        """

    @Test func linksWhatWasSeenAndSettingsReadBackAndWriteTheSameBytes() throws {
        let replica = try TodoFile.decode(Array(Self.linked.utf8)).replica
        let stampB = try #require(HybridTimestamp(text: Self.stampB))
        #expect(replica.repositories[1_296_269]?.settings == Register(
            SharedSettings(pushIssues: true, importIssues: "assigned", scanCommits: false), at: stampB))
        let todo = try #require(replica.todos["9f1c2d3e-0000-4000-8000-000000000001"])
        let url = "https://github.com/octocat/Hello-World/issues/12"
        #expect(todo.issue == Register(LinkedIssue(number: 12, repository: 1_296_269, url: url), at: stampB))
        #expect(todo.seen == Register(IssueObservation(number: 12, state: "closed", title: "Fix the bug", url: url,
                                                       updatedAt: Timestamp(rfc3339: "2023-11-14T22:14:00.000Z"), seenAt: stampB),
                                      at: stampB))
        #expect(todo.observation?.isClosed == true, "seen under the present link")
        #expect(todo.commits == ["6dcb09b5b57875f334f61aebed695e2e4193db5e", "aaaa09b5b57875f334f61aebed695e2e4193db5e"])
        #expect(replica.todos["0b1c2d3e-0000-4000-8000-000000000002"]?.issue == Register(nil, at: stampB), "unlinked, with its stamp")
        #expect(replica.todos.values.allSatisfy { $0.unknown.isEmpty } && replica.repositories.values.allSatisfy { $0.unknown.isEmpty })
        #expect(String(decoding: TodoFile.encode(replica), as: UTF8.self) == Self.linked)
        // Never linked, never configured, never finished by a commit: no key at all.
        let plain = try TodoFile.decode(Array(Self.sample.utf8)).replica
        let text = String(decoding: TodoFile.encode(plain), as: UTF8.self)
        #expect(!text.contains(#""issue"#) && !text.contains("commits") && !Self.sample.contains("settings"))
    }

    /// A file of version 1 (its link held the issue's state) reads as the link and the state seen
    /// under it, and is written as this version.
    @Test func aFileOfVersionOneReadsAndIsWrittenAsVersionTwo() throws {
        let legacy = """
            {"format":"doogit","version":"1.2"}
            {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"clock":{"name":"\(Self.stampA)","tracked":"\(Self.stampA)"}}
            {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":1296269,"text":"fix the bug","done":true,"doneAt":"2023-11-14T22:14:20.000Z","createdAt":"2023-11-14T22:13:20.000Z","issue":{"number":12,"state":"closed","url":"https://github.com/octocat/Hello-World/issues/12","repository":1296269},"clock":{"repository":"\(Self.stampA)","text":"\(Self.stampA)","done":"\(Self.stampB)","issue":"\(Self.stampB)"}}

            """
        let file = try TodoFile.decode(Array(legacy.utf8))
        #expect(file.majorVersion == 1 && file.replica.formatMinor == 0)
        let todo = try #require(file.replica.todos["9f1c2d3e-0000-4000-8000-000000000001"])
        #expect(todo.issue.value == LinkedIssue(number: 12, repository: 1_296_269, url: "https://github.com/octocat/Hello-World/issues/12"))
        #expect(todo.observation == IssueObservation(number: 12, state: "closed", title: nil,
                                                     url: "https://github.com/octocat/Hello-World/issues/12", updatedAt: nil))
        let written = String(decoding: TodoFile.encode(file.replica), as: UTF8.self)
        #expect(written.hasPrefix(#"{"format":"doogit","version":"4.2"}"#))
        #expect(written.contains(#""issue":{"number":12,"url":"https://github.com/octocat/Hello-World/issues/12","repository":1296269},"issueSeen":{"number":12,"state":"closed","title":null,"url":"https://github.com/octocat/Hello-World/issues/12","updatedAt":null,"seenAt":null}"#))
        var expected = file.replica
        expected.formatMinor = TodoFile.minorVersion
        #expect(try TodoFile.decode(Array(written.utf8)).replica == expected)
    }

    /// GitHub's web editor shows the file: values changed there lose nothing. A value without its
    /// stamp is read as written at the hand edit's stamp; `done` without `doneAt` is done then.
    @Test func valuesWrittenByHandAreReadWithTheHandEditsStamp() throws {
        let hand = HybridTimestamp(wall: 1_700_000_500_000, counter: 0, machine: "cccccccccccc")
        let edited = Self.sample
            .replacingOccurrences(of: #""text":"old idea","done":false,"doneAt":null"#, with: #""text":"old idea","done":true,"doneAt":null"#)
            .replacingOccurrences(of: #","clock":{"name":"\#(Self.stampA)","tracked":"\#(Self.stampB)"}"#, with: "")
        #expect(throws: TodoFileError.self) { try TodoFile.decode(Array(edited.utf8)) }
        let file = try TodoFile.decode(Array(edited.utf8), handEdit: hand)
        #expect(file.handEdits == 2, "the repository line's two stamps; done is taken as it says")
        #expect(file.replica.repositories[7]?.name.stamp == hand && file.replica.repositories[7]?.tracked.stamp == hand)
        #expect(file.replica.todos["0b1c2d3e-0000-4000-8000-000000000002"]?.done.value.doneAt == hand.timestamp)
    }

    /// A value changed by hand keeps its old stamp: a copy that has that stamp with the old value
    /// tells the edit, which is restamped as made when it was read.
    @Test func aValueChangedByHandWithoutItsStampIsRestamped() throws {
        let known = try TodoFile.decode(Array(Self.sample.utf8)).replica
        let edited = Self.sample.replacingOccurrences(of: #""text":"write the \"release\" notes ✓""#,
                                                      with: #""text":"write the release notes, edited on GitHub""#)
        let remote = try TodoFile.decode(Array(edited.utf8)).replica
        let hand = HybridTimestamp(wall: 1_700_000_500_000, counter: 0, machine: "cccccccccccc")
        let (restamped, edits) = remote.restampingHandEdits(against: [known], at: hand)
        #expect(edits == 1)
        let todo = try #require(restamped.todos["9f1c2d3e-0000-4000-8000-000000000001"])
        #expect(todo.text == Register("write the release notes, edited on GitHub", at: hand))
        #expect(merge(known, restamped).todos["9f1c2d3e-0000-4000-8000-000000000001"]?.text.value == "write the release notes, edited on GitHub")
        #expect(remote.restampingHandEdits(against: [remote], at: hand).edits == 0, "an unchanged copy has none")
        // A hand edit of a field changed here since is weighed by time, as any other change.
        let earlier = HybridTimestamp(wall: 1_700_000_000_000, counter: 0, machine: "cccccccccccc")
        let (before, _) = remote.restampingHandEdits(against: [known], at: earlier)
        #expect(before.todos["9f1c2d3e-0000-4000-8000-000000000001"]?.text.stamp.wall == 1_700_000_060_000,
                "never earlier than the stamp it replaced")
    }

    /// Two machines that saw an issue closed and reopened in one second date both alike (GitHub's
    /// times have whole seconds): the file's value differs from this machine's at the same
    /// stamp, yet nobody edited it by hand.
    @Test func valuesDatedByAnEventOnGitHubAreNeverTakenForHandEdits() {
        let uuid = "9f1c2d3e-0000-4000-8000-000000000001"
        let created = HybridTimestamp(wall: 1_700_000_000_000, counter: 0, machine: "aaaaaaaaaaaa")
        let event = HybridTimestamp.event(at: Timestamp(millisecondsSinceEpoch: 1_700_000_060_999))
        var here = Replica(), there = Replica()
        here.todos[uuid] = TodoEntry(uuid: uuid, repository: 1, text: "ship it", createdAt: created.timestamp, stamp: created)
        there.todos[uuid] = here.todos[uuid]
        here.todos[uuid]?.done = Register(DoneState(doneAt: Timestamp(millisecondsSinceEpoch: 1_700_000_060_000)), at: event)
        there.todos[uuid]?.done = Register(DoneState(doneAt: nil), at: event)
        let hand = HybridTimestamp(wall: 1_700_000_500_000, counter: 0, machine: "cccccccccccc")
        let (restamped, edits) = there.restampingHandEdits(against: [here], at: hand)
        #expect(edits == 0)
        #expect(restamped == there)
    }

    @Test func randomReplicasRoundTripAndOneReplicaAlwaysGivesTheSameBytes() throws {
        var generator = SplitMix64(seed: 77)
        for _ in 0..<60 {
            var history = MergePropertyTests.History(seed: generator.next())
            for _ in 0..<30 { history.step() }
            for replica in history.machines.map(\.replica) + [history.file] {
                let bytes = TodoFile.encode(replica)
                let decoded = try TodoFile.decode(bytes).replica
                // A newer minor version read is written back so.
                var expected = replica
                expected.formatMinor = max(replica.formatMinor, decoded.formatMinor)
                #expect(decoded == expected && decoded.formatMinor <= max(replica.formatMinor, 2))
                #expect(TodoFile.encode(decoded) == bytes)
                // A copy built in another order writes the same bytes.
                var rebuilt = Replica()
                for key in replica.todos.keys.sorted().reversed() { rebuilt.todos[key] = replica.todos[key] }
                for key in replica.repositories.keys.sorted().reversed() { rebuilt.repositories[key] = replica.repositories[key] }
                #expect(TodoFile.encode(rebuilt) == bytes)
            }
        }
    }

    @Test func unknownKeysLinesAndANewerMinorVersionAreKept() throws {
        let newer = """
            {"format":"doogit","version":"4.3","machines":3}
            {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"topics":["cli"],"clock":{"name":"\(Self.stampA)","tracked":"\(Self.stampA)","topics":"\(Self.stampB)"}}
            {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":1296269,"text":"x","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","estimate":{"hours":2},"urgency":"high","clock":{"repository":"\(Self.stampA)","text":"\(Self.stampA)","done":"\(Self.stampA)","colour":"\(Self.stampB)","estimate":"\(Self.stampB)"}}
            {"type":"label","name":"urgent","color":"red"}

            """
        let replica = try TodoFile.decode(Array(newer.utf8)).replica
        let todo = try #require(replica.todos["9f1c2d3e-0000-4000-8000-000000000001"])
        #expect(todo.unknown["estimate"]?.stamp?.text == Self.stampB)
        #expect(todo.unknown["urgency"] == UnknownFields.Field(value: .string("high"), stamp: nil))
        #expect(todo.unknown["colour"] == UnknownFields.Field(value: nil, stamp: HybridTimestamp(text: Self.stampB)))
        #expect(replica.formatMinor == 3)
        #expect(String(decoding: TodoFile.encode(replica), as: UTF8.self) == newer)
    }

    /// Format 4.1: who added, finished and is assigned a todo, each with its stamp; a login
    /// that is no GitHub login (a control character, a space) names its line.
    @Test func whoReadsBackWithItsStampsAndALoginThatIsNoneIsRefused() throws {
        let who = """
            {"format":"doogit","version":"4.2"}
            {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"clock":{"name":"\(Self.stampA)","tracked":"\(Self.stampA)"}}
            {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":1296269,"text":"review","done":true,"doneAt":"2023-11-14T22:14:20.000Z","createdAt":"2023-11-14T22:13:20.000Z","author":"octocat","finishedBy":"user_corp","assignee":null,"clock":{"repository":"\(Self.stampA)","text":"\(Self.stampA)","done":"\(Self.stampB)","author":"\(Self.stampA)","finishedBy":"\(Self.stampB)","assignee":"\(Self.stampB)"}}

            """
        let replica = try TodoFile.decode(Array(who.utf8)).replica
        let todo = try #require(replica.todos["9f1c2d3e-0000-4000-8000-000000000001"])
        let (a, b) = (try #require(HybridTimestamp(text: Self.stampA)), try #require(HybridTimestamp(text: Self.stampB)))
        #expect(todo.details.author == Register("octocat", at: a))
        #expect(todo.details.finishedBy == Register("user_corp", at: b))
        #expect(todo.details.assignee == Register(nil, at: b), "assigned to nobody, with its stamp")
        #expect(todo.unknown.isEmpty)
        #expect(String(decoding: TodoFile.encode(replica), as: UTF8.self) == who)
        // A file of 4.0 (no one known) is written as 4.2, with no key for who or privacy.
        let older = try TodoFile.decode(Array(Self.sample.utf8)).replica
        let written = String(decoding: TodoFile.encode(older), as: UTF8.self)
        #expect(written.hasPrefix(#"{"format":"doogit","version":"4.2"}"#) && !written.contains("author") && !written.contains("private"))
        for (good, bad) in [(#""author":"octocat""#, #""author":"octo cat""#), (#""assignee":null"#, #""assignee":"\u001b[2J""#),
                            (#""finishedBy":"user_corp""#, #""finishedBy":"-x""#), (#""assignee":null"#, #""assignee":7"#),
                            (#""author":"octocat""#, #""author":"\#(String(repeating: "a", count: 101))""#)] {
            let text = who.replacingOccurrences(of: good, with: bad)
            #expect(text != who)
            #expect(throws: TodoFileError.self, "\(bad)") { try TodoFile.decode(Array(text.utf8)) }
        }
    }

    /// Format 4.2: whether a todo is kept private, with its stamp; anything but true or false
    /// names its line.
    @Test func privacyReadsBackWithItsStampAndAValueThatIsNoneIsRefused() throws {
        let kept = """
            {"format":"doogit","version":"4.2"}
            {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"clock":{"name":"\(Self.stampA)","tracked":"\(Self.stampA)"}}
            {"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":1296269,"text":"a gift","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","private":true,"clock":{"repository":"\(Self.stampA)","text":"\(Self.stampA)","done":"\(Self.stampA)","private":"\(Self.stampB)"}}

            """
        let replica = try TodoFile.decode(Array(kept.utf8)).replica
        let todo = try #require(replica.todos["9f1c2d3e-0000-4000-8000-000000000001"])
        #expect(todo.details.keptPrivate == Register(true, at: try #require(HybridTimestamp(text: Self.stampB))))
        #expect(todo.unknown.isEmpty)
        #expect(String(decoding: TodoFile.encode(replica), as: UTF8.self) == kept)
        for bad in [#""private":"yes""#, #""private":1"#, #""private":null"#] {
            let text = kept.replacingOccurrences(of: #""private":true"#, with: bad)
            #expect(throws: TodoFileError.self, "\(bad)") { try TodoFile.decode(Array(text.utf8)) }
        }
        let unstamped = kept.replacingOccurrences(of: #","private":"\#(Self.stampB)""#, with: "")
        #expect(unstamped != kept)
        #expect(throws: TodoFileError.self) { try TodoFile.decode(Array(unstamped.utf8)) }
    }

    @Test func aNewerMajorVersionIsRefused() {
        #expect(throws: TodoFileError.newerVersion("5.0")) {
            try TodoFile.decode(Array(#"{"format":"doogit","version":"5.0"}"#.utf8))
        }
    }

    @Test(arguments: [
        (#"{"format":"other","version":"1.0"}"#, 1, "not a doogit file"),
        ("", 1, "empty file"),
        (#"{"format":"doogit","version":"one"}"#, 1, "is not MAJOR.MINOR"),
        (#"{"format":"doogit","version":"1.0"}\#n[1,2]"#, 2, "not a JSON object"),
        (#"{"format":"doogit","version":"1.0"}\#n{"id":1}"#, 2, "no \"type\""),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"x","url":"u","tracked":true,"clock":{}}"#, 2, "is not OWNER/NAME"),
        // Names go into API paths: only names GitHub gives.
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"../user","url":"u","tracked":true,"clock":{}}"#, 2, "is not OWNER/NAME"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"a/b?x=","url":"u","tracked":true,"clock":{}}"#, 2, "is not OWNER/NAME"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"a/b/c","url":"u","tracked":true,"clock":{}}"#, 2, "is not OWNER/NAME"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"a/..","url":"u","tracked":true,"clock":{}}"#, 2, "is not OWNER/NAME"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"a/b\u001b[2J","url":"u","tracked":true,"clock":{}}"#, 2, "is not OWNER/NAME"),
        (#"{"format":"doogit","version":"1.0"}\#n\#n{"type":"repository","id":1,"fullName":"o/n","url":"u","tracked":true,"clock":{"name":"bad","tracked":"bad"}}"#, 3, "is not a stamp"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"todo","uuid":"x"}"#, 2, "is not a lowercase UUID"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":5,"text":"t","done":true,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","clock":{}}"#, 2, "disagree"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":5,"text":"t","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","clock":{"repository":"\#(TodoFileTests.stampA)","text":"\#(TodoFileTests.stampA)","done":"\#(TodoFileTests.stampA)"}}"#, 2, "repository 5 has no line of its own"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"o/n","url":"u","tracked":true,"settings":{"pushIssues":true,"importIssues":"some","scanCommits":true},"clock":{"name":"\#(TodoFileTests.stampA)","tracked":"\#(TodoFileTests.stampA)","settings":"\#(TodoFileTests.stampA)"}}"#, 2, "is not off, assigned or all"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"repository","id":1,"fullName":"o/n","url":"u","tracked":true,"settings":{"pushIssues":true,"importIssues":"all","scanCommits":true},"clock":{"name":"\#(TodoFileTests.stampA)","tracked":"\#(TodoFileTests.stampA)"}}"#, 2, "\"settings\" is missing"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":5,"text":"t","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","issue":{"number":1,"state":"merged","url":"u","repository":5},"clock":{"repository":"\#(TodoFileTests.stampA)","text":"\#(TodoFileTests.stampA)","done":"\#(TodoFileTests.stampA)","issue":"\#(TodoFileTests.stampA)"}}"#, 2, "is not open or closed"),
        (#"{"format":"doogit","version":"1.0"}\#n{"type":"todo","uuid":"9f1c2d3e-0000-4000-8000-000000000001","repository":5,"text":"t","done":false,"doneAt":null,"createdAt":"2023-11-14T22:13:20.000Z","issue":12,"clock":{"repository":"\#(TodoFileTests.stampA)","text":"\#(TodoFileTests.stampA)","done":"\#(TodoFileTests.stampA)","issue":"\#(TodoFileTests.stampA)"}}"#, 2, "is not an object or null"),
    ])
    func aBadFileNamesItsFirstBadLine(text: String, line: Int, reason: String) {
        do {
            _ = try TodoFile.decode(Array(text.utf8))
            Issue.record("accepted: \(text)")
        } catch {
            guard case .badLine(let number, let why) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(number == line)
            #expect(why.contains(reason), "\(why)")
        }
    }

    @Test func anExportCarriesLocalIDsAndRepositoryDetailsThatTheFileOnGitHubNeverHolds() throws {
        let replica = try TodoFile.decode(Array(Self.sample.utf8)).replica
        let annotations = ReplicaAnnotations(
            localIDs: ["9f1c2d3e-0000-4000-8000-000000000001": 3, "0b1c2d3e-0000-4000-8000-000000000002": 1],
            repositories: [1_296_269: RepositoryDetails(description: "My first repository", isPrivate: false,
                                                                   archived: true, gone: false)])
        let exported = TodoFile.encode(replica, annotations: annotations)
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains(#""removed":true,"localID":1,"clock""#))
        #expect(text.contains(#""tracked":true,"description":"My first repository","private":false,"archived":true,"gone":false,"clock""#))
        let back = try TodoFile.decode(exported)
        #expect(back.replica == replica)
        #expect(back.annotations == annotations)
        #expect(!String(decoding: TodoFile.encode(back.replica), as: UTF8.self).contains("localID"))
    }

    @Test func windowsLineEndsAndTrailingBlankLinesAreAccepted() throws {
        let crlf = Self.sample.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n\n"
        #expect(try TodoFile.decode(Array(crlf.utf8)).replica == TodoFile.decode(Array(Self.sample.utf8)).replica)
    }
}
