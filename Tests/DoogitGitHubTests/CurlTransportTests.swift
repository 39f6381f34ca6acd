@testable import DoogitGitHub
import Foundation
import Testing
import TestSupport

/// One request at a time over libcurl against a real HTTP server on 127.0.0.1.
@Suite(.serialized)
struct CurlTransportTests {
    /// Timeouts that never decide a result here (only `aStalledServerTimesOut` is about one).
    let patient = GitHubClientTests.patientTimeouts

    @Test func sendsHeadersAndReadsTheAnswer() throws {
        let server = try HTTPServer { request in
            .json(200, #"{"echo":"\#(request.headers["x-test"] ?? "")"}"#, headers: [("ETag", "\"abc\""), ("X-Multi", "1")])
        }
        let response = try CurlTransport().send(HTTPRequest(url: server.baseURL + "/x", headers: [("X-Test", "hello")],
                                                            timeouts: patient))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"echo":"hello"}"#)
        #expect(response.header("etag") == "\"abc\"")
        #expect(response.header("ETAG") == "\"abc\"")
        #expect(response.header("content-type") == "application/json; charset=utf-8")
    }

    @Test func errorStatusesStillCarryTheirBody() throws {
        let server = try HTTPServer { _ in .json(404, Fixtures.text("error-404.json")) }
        let response = try CurlTransport().send(HTTPRequest(url: server.baseURL + "/missing", timeouts: patient))
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self).contains("Not Found"))
    }

    @Test func refusedConnectionIsAConnectionError() throws {
        let server = try HTTPServer { _ in ServerResponse(status: 200) }
        let url = server.baseURL
        server.stop()
        #expect(throws: TransportError.self) { try CurlTransport().send(HTTPRequest(url: url, timeouts: patient)) }
        do {
            _ = try CurlTransport().send(HTTPRequest(url: url, timeouts: patient))
        } catch {
            // Distinct from a connection that failed later: a request refused at connect never
            // reached the server, so even a POST may be sent again.
            guard case .cannotConnect = error else {
                Issue.record("expected a refused connection, got \(error)")
                return
            }
        }
    }

    /// An older libcurl refuses options it does not know; a request without its protocol
    /// restriction (or timeouts, or TLS checks) is not sent at all.
    @Test func aRefusedOptionFailsTheRequestBeforeItIsSent() throws {
        let received = Counter()
        let server = try HTTPServer { _ in
            _ = received.next()
            return .json(200, "{}")
        }
        for option in ["CURLOPT_PROTOCOLS_STR", "CURLOPT_TIMEOUT_MS", "CURLOPT_SSL_VERIFYPEER", "CURLOPT_NOSIGNAL"] {
            let transport = CurlTransport(refusing: [option])
            #expect(throws: TransportError.optionRefused(option)) {
                try transport.send(HTTPRequest(url: server.baseURL, timeouts: patient))
            }
            let parallel = transport.sendAll([HTTPRequest(url: server.baseURL, timeouts: patient),
                                              HTTPRequest(url: server.baseURL, timeouts: patient)])
            #expect(parallel.allSatisfy { $0 == .failure(.optionRefused(option)) })
        }
        #expect(received.value == 0)
        #expect(try CurlTransport().send(HTTPRequest(url: server.baseURL, timeouts: patient)).status == 200)
    }

    /// The answer is held until the request has given up: a timeout that did not fire would
    /// wait for it (a minute at most) and get a 200.
    @Test func aStalledServerTimesOut() throws {
        let hold = AnswerHold()
        defer { hold.releaseAnswer() }
        let server = try HTTPServer { _ in
            var response = ServerResponse.json(200, "{}")
            response.hold = hold
            return response
        }
        #expect(throws: TransportError.timeout) {
            try CurlTransport().send(HTTPRequest(url: server.baseURL, timeouts: GitHubClientTests.shortTimeouts))
        }
    }

    @Test func aTruncatedBodyIsAnError() throws {
        let server = try HTTPServer { _ in
            var response = ServerResponse(status: 200)
            response.raw = Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\": 1".utf8)
            return response
        }
        #expect(throws: TransportError.self) { try CurlTransport().send(HTTPRequest(url: server.baseURL, timeouts: patient)) }
    }

    @Test func garbageInsteadOfHTTPIsAnError() throws {
        let server = try HTTPServer { _ in
            var response = ServerResponse(status: 200)
            response.raw = Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)
            return response
        }
        #expect(throws: TransportError.self) { try CurlTransport().send(HTTPRequest(url: server.baseURL, timeouts: patient)) }
    }

    @Test func aHugeBodyIsAbandoned() throws {
        let server = try HTTPServer { _ in ServerResponse(status: 200, body: [UInt8](repeating: 0x20, count: 3 << 20)) }
        #expect(throws: TransportError.tooLarge(limit: 1 << 20)) {
            try CurlTransport(bodyLimit: 1 << 20).send(HTTPRequest(url: server.baseURL, timeouts: patient))
        }
    }

    @Test func headerLinesAreReadWhateverTheirSpacingAndCase() throws {
        let server = try HTTPServer { _ in
            var response = ServerResponse(status: 200)
            response.raw = Array(("HTTP/1.1 100 Continue\r\nX-Early: 1\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nETag:\t  \"x\" \t\r\nX-Odd-CASE: a: b\r\nEmpty:\r\nContent-Length: 2\r\n\r\n{}").utf8)
            return response
        }
        let response = try CurlTransport().send(HTTPRequest(url: server.baseURL, timeouts: patient))
        #expect(response.status == 200)
        #expect(response.header("etag") == "\"x\"")
        #expect(response.header("x-odd-case") == "a: b")
        #expect(response.header("empty") == "")
        #expect(response.header("x-early") == nil, "the headers of the 100 Continue were dropped")
        #expect(response.body == Array("{}".utf8))
    }
}
