import DoogitMerge
import DoogitSupport
import Foundation
import TestSupport

/// What the suites on sync with the files on GitHub share: machines of one user, one tracking
/// octocat/app, the data repository on the fake GitHub, and what went to it.
protocol RemoteSyncSuite {}

extension RemoteSyncSuite {
    static var t0: Timestamp { Timestamp(secondsSinceEpoch: 1_780_000_000) }

    func world(_ count: Int = 2) throws -> (FakeGitHub, [Machine]) {
        let github = try FakeGitHub()
        github.addRepository(id: 1, name: "app", description: "the app")
        github.addRepository(id: 4242, name: "doogit-data", description: nil, isPrivate: true)
        github.contents.setDate(Date(timeIntervalSince1970: Double(Self.t0.millisecondsSinceEpoch) / 1000))
        let machines = try (0..<count).map { _ in try Machine(github, now: Self.t0) }
        try machines[0].track(1, "octocat/app")
        return (github, machines)
    }

    static var todosPath: String { RemoteLayout.todosPath(1) }

    /// Requests for the remote's files (the Git Data API, the Contents API).
    func remoteRequests(_ github: FakeGitHub) -> [ReceivedRequest] {
        github.requests.filter { $0.path.hasPrefix("/repos/\(Machine.dataRepository)/") && !$0.path.hasSuffix("/doogit-data") }
    }

    func refUpdates(_ github: FakeGitHub) -> Int {
        github.requests.filter { $0.method == "PATCH" && $0.path.contains("/git/refs/heads/") }.count
    }

    /// The files a machine holding `replica` would write to a remote of its own: what another
    /// writer commits in the tests.
    static func files(of replica: Replica) -> [String: String?] {
        var files: [String: String?] = [RemoteLayout.repositoriesPath: text(RemotePiece(replica: Replica(repositories: replica.repositories)).encode())]
        var pieces: [Int64: RemotePiece] = [:]
        for (uuid, entry) in replica.todos { pieces[entry.repository.value, default: RemotePiece()].replica.todos[uuid] = entry }
        for (id, piece) in pieces { files[RemoteLayout.todosPath(id)] = text(piece.encode()) }
        return files
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
