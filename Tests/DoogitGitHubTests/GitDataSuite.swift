@testable import DoogitGitHub
import Foundation
import TestSupport

/// What the suites on the Git Data API share: octocat/doogit-data (id 900, private) on the fake
/// GitHub with its clock set, and a client of it.
protocol GitDataSuite {}

extension GitDataSuite {
    var repository: String { "octocat/doogit-data" }
    static var t0: Date { Date(timeIntervalSince1970: 1_700_000_000) }

    func world() throws -> FakeGitHub {
        let github = try FakeGitHub()
        github.addRepository(id: 900, name: "doogit-data", description: nil, isPrivate: true)
        github.contents.setDate(Self.t0)
        return github
    }

    func client(_ github: FakeGitHub) throws -> GitHubClient {
        GitHubClient(configuration: .init(endpoint: try APIEndpoint(github.apiURL), token: github.token,
                                          userAgent: "doogit-tests", retry: GitHubClientTests.quickRetries,
                                          timeouts: GitHubClientTests.patientTimeouts),
                     transport: CurlTransport())
    }

    func head(_ read: RefRead) -> String? {
        if case .head(let commit, _, _) = read { return commit }
        return nil
    }
}
