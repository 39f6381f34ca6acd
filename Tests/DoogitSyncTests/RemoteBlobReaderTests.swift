import DoogitGitHub
import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// The remote's files read within the rate-limit budget: a read that stops part-way (the budget
/// at its reserve, a failure) keeps what it read, and the next asks only for the others.
@Suite(.serialized)
struct RemoteBlobReaderTests {
    let repository = "octocat/doogit-data"

    /// A remote of `count` files, and their blobs' names.
    func remote(_ count: Int) throws -> (FakeGitHub, [String: String]) {
        let github = try FakeGitHub()
        github.addRepository(id: 4242, name: "doogit-data", description: nil, isPrivate: true)
        var files: [String: String?] = [:]
        for index in 0..<count { files["todos/\(index % 16)/\(index).jsonl"] = "file \(index)\n" }
        github.contents.commitFiles(repository, files)
        var names: [String: String] = [:]
        for index in 0..<count { names[GitHash.blob(Array("file \(index)\n".utf8))] = "file \(index)\n" }
        return (github, names)
    }

    func blobRequests(_ github: FakeGitHub) -> [String] {
        github.requests.filter { $0.path.contains("/git/blobs/") }.map { String($0.path.split(separator: "/").last ?? "") }
    }

    struct Stop: Error {}

    @Test func aReadStoppedAtTheReserveGoesOnWhereItStoppedNextTime() throws {
        let (github, names) = try remote(30)
        let folder = TemporaryDirectory()
        let store = try Store.open(path: folder.file("doogit.sqlite3"))
        let client = try SyncerTests.client(github)
        let progress = store.readProgress(RemoteBlobReader.progressName)
        // Room for 12 now, then the budget is at its reserve.
        var calls = 0
        let stopping = RemoteBlobReader(progress: progress) { wanted in
            calls += 1
            guard calls == 1 else { throw Stop() }
            return min(wanted, 12)
        }
        #expect(throws: Stop.self) { _ = try stopping.read(Array(names.keys), repository: repository, github: client) }
        let first = blobRequests(github)
        #expect(first.count == 12)
        #expect(try progress.itemsRead().count == 12, "what was read is kept")

        github.resetCounters()
        let reader = RemoteBlobReader(progress: progress) { $0 }
        var arrived: [String] = []
        let read = try reader.read(Array(names.keys), repository: repository, github: client) { sha, content in
            #expect(GitHash.blob(content) == sha)
            arrived.append(sha)
        }
        #expect(read.mapValues { String(decoding: $0, as: UTF8.self) } == names)
        #expect(arrived.count == names.count && Set(arrived) == Set(names.keys), "each blob arrives once, for work while the others come")
        #expect(Set(arrived.prefix(first.count)) == Set(first), "those kept first")
        #expect(Set(blobRequests(github)) == Set(names.keys).subtracting(first), "only the others are asked for")
        #expect(try progress.itemsRead().isEmpty, "a whole read forgets its notes")
    }

    @Test func aReadThatMeetsAFailureKeepsWhatCameBeforeIt() throws {
        let (github, names) = try remote(8)
        let folder = TemporaryDirectory()
        let store = try Store.open(path: folder.file("doogit.sqlite3"))
        let client = try SyncerTests.client(github)
        let progress = store.readProgress(RemoteBlobReader.progressName)
        let failing = try #require(names.keys.sorted().last)
        github.activity.failNext("GET", pathSuffix: "/git/blobs/\(failing)", count: 10, with: .status(404))
        let reader = RemoteBlobReader(progress: progress) { $0 }
        #expect(throws: GitHubError.self) { _ = try reader.read(Array(names.keys), repository: repository, github: client) }
        #expect(try Set(progress.itemsRead().keys) == Set(names.keys).subtracting([failing]))
        github.activity.clearFaults()
        github.resetCounters()
        _ = try reader.read(Array(names.keys), repository: repository, github: client)
        #expect(blobRequests(github) == [failing])
    }
}
