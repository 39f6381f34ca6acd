@testable import DoogitGitHub
import Foundation
import Testing
import TestSupport

/// Many requests at once over libcurl against a real HTTP server on 127.0.0.1: in order, in a
/// window that widens only for a healthy server, each failure reported for its own request.
@Suite(.serialized)
struct CurlParallelTests {
    /// Timeouts that never decide a result here.
    let patient = GitHubClientTests.patientTimeouts

    @Test func manyRequestsRunInParallelAndKeepTheirOrder() throws {
        let concurrency = ConcurrencyGauge()
        let server = try HTTPServer { request in
            concurrency.enter()
            defer { concurrency.leave() }
            _ = concurrency.wait(untilAtOnce: 2, seconds: Patience.seconds)  // parallel transfers meet here
            return .json(200, #"{"path":"\#(request.path)"}"#)
        }
        let requests = (0..<16).map { HTTPRequest(url: server.baseURL + "/r\($0)", timeouts: patient) }
        let results = CurlTransport(maximumParallelTransfers: 8).sendAll(requests)
        #expect(results.count == 16)
        for (index, result) in results.enumerated() {
            let body = try result.get().body
            #expect(String(decoding: body, as: UTF8.self) == #"{"path":"/r\#(index)"}"#)
        }
        #expect(concurrency.peak > 1, "transfers ran one at a time")
        #expect(concurrency.peak <= 8, "more transfers at once than allowed")
    }

    @Test func aHealthyServerIsSoonAskedTheFullWidthAtOnce() throws {
        // The first 8 answers come at once; every later request waits until 12 are in the server
        // together, which only a width that grew from its start of 4 can bring about.
        let concurrency = ConcurrencyGauge()
        let server = try HTTPServer { request in
            concurrency.enter()
            defer { concurrency.leave() }
            if (Int(request.path.dropFirst(2)) ?? 0) >= 8 { _ = concurrency.wait(untilAtOnce: 12, seconds: Patience.seconds) }
            return .json(200, "{}")
        }
        let requests = (0..<24).map { HTTPRequest(url: server.baseURL + "/r\($0)", timeouts: patient) }
        let results = CurlTransport(maximumParallelTransfers: 16).sendAll(requests)
        #expect(results.allSatisfy { (try? $0.get().status) == 200 })
        #expect(concurrency.peak >= 12, "the width never grew past its start: \(concurrency.peak)")
        #expect(concurrency.peak <= 16, "more transfers at once than allowed")
    }

    /// Answers that say the server is failing do not widen the window, even when the caller
    /// keeps asking for more: it stays at its start.
    @Test func failingAnswersDoNotWidenTheWindow() throws {
        let server = try HTTPServer { request in ServerResponse(status: request.path == "/well" ? 200 : 503) }
        let requests = (0..<60).map { HTTPRequest(url: server.baseURL + "/r\($0)", timeouts: patient) }
        let transport = CurlTransport(maximumParallelTransfers: 16)
        let results = transport.sendAll(requests, onAnswer: { _, _ in true })
        #expect(results.allSatisfy { (try? $0?.get().status) == 503 })
        #expect(transport.mostAtOnce == MultiTransfer.initialWidth, "\(transport.mostAtOnce) at once for a server answering 503")
        // One answer that says the server is well opens the full width.
        let healthy = transport.sendAll([HTTPRequest(url: server.baseURL + "/well", timeouts: patient)] + requests, onAnswer: { _, _ in true })
        #expect(healthy.allSatisfy { $0 != nil })
        #expect(transport.mostAtOnce == 16, "\(transport.mostAtOnce) at once after a healthy answer")
    }

    @Test func aFailingServerSeesOnlyTheFirstFewTransfers() throws {
        let server = try HTTPServer { _ in ServerResponse(status: 502) }
        let requests = (0..<64).map { HTTPRequest(url: server.baseURL + "/r\($0)", timeouts: patient) }
        let transport = CurlTransport(maximumParallelTransfers: 16)
        let results = transport.sendAll(requests, onAnswer: { _, _ in false })
        #expect(results.compactMap { $0 }.count <= 4, "started before the first answer: \(results.compactMap { $0 }.count)")
        // A later run starts slowly again.
        #expect((try? transport.send(HTTPRequest(url: server.baseURL + "/single", timeouts: patient)).status) == 502)
        let again = transport.sendAll(requests, onAnswer: { _, _ in false })
        #expect(again.compactMap { $0 }.count <= 4, "started before the first answer: \(again.compactMap { $0 }.count)")
    }

    /// A callback of a parallel run may send one request (on a handle of its own), but not start
    /// another parallel run: that one's requests each fail, and each is still reported.
    @Test func requestsFromACallbackAreAnsweredOrReportedFailed() throws {
        let server = try HTTPServer { request in .json(200, #"{"path":"\#(request.path)"}"#) }
        let transport = CurlTransport()
        var single: [Int] = []
        var nested: [Int] = []
        let outer = transport.sendAll((0..<2).map { HTTPRequest(url: server.baseURL + "/r\($0)", timeouts: patient) }) { _, _ in
            if let answer = try? transport.send(HTTPRequest(url: server.baseURL + "/single", timeouts: patient)) { single.append(answer.status) }
            let inner = transport.sendAll([HTTPRequest(url: server.baseURL + "/x", timeouts: patient)]) { index, result in
                if case .failure(.connection) = result { nested.append(index) }
                return true
            }
            #expect(inner.count == 1 && inner[0] != nil)
            return true
        }
        #expect(outer.allSatisfy { (try? $0?.get().status) == 200 })
        #expect(single == [200, 200])
        #expect(nested == [0, 0], "each nested request reported as failed")
    }

    @Test func parallelFailuresAreReportedPerRequest() throws {
        let server = try HTTPServer { request in
            request.path == "/bad" ? ServerResponse(status: 200, body: []).hangingUp() : .json(200, "{}")
        }
        let results = CurlTransport().sendAll([
            HTTPRequest(url: server.baseURL + "/good", timeouts: patient),
            HTTPRequest(url: server.baseURL + "/bad", timeouts: patient),
            HTTPRequest(url: "http://127.0.0.1:1/refused", timeouts: patient),
        ])
        #expect((try? results[0].get().status) == 200)
        #expect((try? results[1].get()) == nil)
        #expect((try? results[2].get()) == nil)
    }
}
