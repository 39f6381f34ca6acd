import DoogitGitHub
import DoogitMerge
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Foundation
import Testing
import TestSupport

/// The remote repository renamed on GitHub between two syncs: every later exchange works, on
/// every machine, the remote is known by its new name from then on, and each machine's sync
/// says so once.
@Suite(.serialized)
struct RemoteRenamedTests {
    static let renamed = "octocat/todos-home"

    func requestsByFormerName(_ github: FakeGitHub) -> [ReceivedRequest] {
        github.requests.filter { $0.path.hasPrefix("/repos/\(Machine.dataRepository)/") }
    }

    @Test func everyExchangeAfterTheRenameWorksAndSaysTheNewNameOnce() throws {
        let (github, machines) = try RemoteSyncTests().world()
        let (a, b) = (machines[0], machines[1])
        _ = try a.add("before the rename")
        try a.sync()
        try b.sync()
        try a.sync()  // a knows the branch's and the repository's ETags
        github.rename(4242, to: "todos-home")

        _ = try a.add("after the rename")
        github.resetCounters()
        let first = try a.sync()
        #expect(first.remote?.failure == nil, "\(String(describing: first.remote?.failure))")
        #expect(first.remote?.formerName == Machine.dataRepository && first.remote?.repository == Self.renamed)
        #expect(first.remote?.pushed == 1)
        #expect(try a.store.remoteSettings()?.fullName == Self.renamed)
        #expect(github.contents.file(Self.renamed, RemoteSyncTests.todosPath)?.text.contains("after the rename") == true)
        #expect(requestsByFormerName(github).map(\.path) == ["/repos/\(Machine.dataRepository)/git/ref/heads/master"],
                "only the read that found the new name asks by the old one")

        _ = try a.add("later")
        github.resetCounters()
        let later = try a.sync()
        #expect(later.remote?.failure == nil && later.remote?.formerName == nil && later.remote?.pushed == 1)
        #expect(requestsByFormerName(github).map(\.path) == [], "asked by its name now")

        // b knew the former name: it reads what a wrote since, and writes its own.
        _ = try b.add("b's own")
        let joined = try b.sync()
        #expect(joined.remote?.failure == nil, "\(String(describing: joined.remote?.failure))")
        #expect(joined.remote?.formerName == Machine.dataRepository && joined.remote?.repository == Self.renamed)
        #expect(joined.remote?.pulled == 2 && joined.remote?.pushed == 1)
        let settled = try b.sync()
        #expect(settled.remote?.failure == nil && settled.remote?.formerName == nil)
        try a.sync()
        #expect(try a.list() == b.list())
        let texts = try a.store.sections().flatMap(\.todos).map(\.text).sorted()
        #expect(texts == ["after the rename", "b's own", "before the rename", "later"])
    }

    /// A database that recorded the renamed repository's ETag without its name (as doogit did
    /// before it took the name) gets 304 for the repository: the redirected ref read says the
    /// name is stale, and the repository is read whole for it.
    @Test func aNameLeftStaleBesideTheRepositorysETagIsTakenFromTheRedirect() throws {
        let (github, machines) = try RemoteSyncTests().world(1)
        let a = machines[0]
        _ = try a.add("one")
        try a.sync()
        github.rename(4242, to: "todos-home")
        guard case .modified(_, let etag) = try a.client().repository(id: 4242, ifNoneMatch: nil) else {
            Issue.record("no repository")
            return
        }
        try a.store.recordRemoteRepository(etag: etag, isPublic: false, fullName: Machine.dataRepository)
        _ = try a.add("two")
        let summary = try a.sync()
        #expect(summary.remote?.failure == nil, "\(String(describing: summary.remote?.failure))")
        #expect(summary.remote?.formerName == Machine.dataRepository && summary.remote?.pushed == 1)
        #expect(try a.store.remoteSettings()?.fullName == Self.renamed)
        #expect(github.contents.file(Self.renamed, RemoteSyncTests.todosPath)?.text.contains("\"text\":\"two\"") == true)
    }
}
