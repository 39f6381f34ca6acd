@testable import DoogitGitHub
import Testing

/// A GitHubClient whose server gives the same answer to every request.
enum FixedAnswer {
    final class Transport: HTTPTransport {
        let response: HTTPResponse
        private(set) var requests: [HTTPRequest] = []

        init(_ response: HTTPResponse) {
            self.response = response
        }

        func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
            requests.append(request)
            return response
        }
    }

    static func client(status: Int, headers: [(name: String, value: String)],
                       body: String = #"{"message":"API rate limit exceeded"}"#) -> GitHubClient {
        GitHubClient(configuration: .init(token: ClientFuzzer.token, userAgent: "doogit-fuzz", retry: ClientFuzzer.retry),
                     transport: Transport(HTTPResponse(status: status, headers: headers, body: Array(body.utf8))))
    }

    /// `currentUser()` must throw an error that `matches`.
    static func expectError(_ client: GitHubClient, _ what: String, matches: (GitHubError) -> Bool) {
        do {
            let user = try client.currentUser()
            Issue.record(Comment(rawValue: "\(what): currentUser() returned \(user) instead of failing"))
        } catch {
            if !matches(error) { Issue.record(Comment(rawValue: "\(what): currentUser() threw \(error)")) }
        }
    }
}
