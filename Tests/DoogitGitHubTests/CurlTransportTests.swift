@testable import DoogitGitHub
import Foundation
import Testing
import TestSupport

/// libcurl against a real HTTP server on 127.0.0.1.
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

    /// A sync is many batches: the connections of one serve the next, not a new set each time.
    @Test func connectionsOutliveTheBatch() throws {
        let server = try HTTPServer { _ in .json(200, "{}") }
        let transport = CurlTransport(maximumParallelTransfers: 8)
        for round in 0..<20 {
            let requests = (0..<50).map { HTTPRequest(url: server.baseURL + "/round\(round)/r\($0)", timeouts: patient) }
            #expect(transport.sendAll(requests).allSatisfy { (try? $0.get().status) == 200 })
        }
        #expect(server.acceptedConnections <= 8, "a new set of connections for each batch: \(server.acceptedConnections)")
        #expect(transport.connectionsOpened == server.acceptedConnections, "libcurl's count is the server's")
    }

    /// Plain HTTP cannot multiplex: the transport learns it from the first answer and keeps to a
    /// few HTTP/1.1 connections, one transfer on each, reused; single requests share them.
    @Test func overHTTP1AFewConnectionsCarryEverything() throws {
        let concurrency = ConcurrencyGauge()
        let server = try HTTPServer { _ in
            concurrency.enter()
            defer { concurrency.leave() }
            return .json(200, "{}")
        }
        let transport = CurlTransport(maximumParallelTransfers: 6, maximumStreams: 100)
        #expect(transport.multiplexes == nil)
        _ = try transport.send(HTTPRequest(url: server.baseURL + "/first", timeouts: patient))
        #expect(transport.multiplexes == false)
        let requests = (0..<300).map { HTTPRequest(url: server.baseURL + "/r\($0)", timeouts: patient) }
        #expect(transport.sendAll(requests).allSatisfy { (try? $0.get().status) == 200 })
        _ = try transport.send(HTTPRequest(url: server.baseURL + "/last", timeouts: patient))
        #expect(concurrency.peak <= 6, "more transfers at once than HTTP/1.1 connections allowed: \(concurrency.peak)")
        #expect(server.acceptedConnections <= 6, "\(server.acceptedConnections) connections")
    }

    /// Over HTTP/2 (nghttpx in front of the server, as GitHub's front end) the transfers are
    /// streams: far more at once than HTTP/1.1 connections would carry, on at most 4 connections.
    @Test(.enabled(if: TLSProxy.isAvailable, "nghttpx is not installed (scripts/install-dependencies --for-tests installs it)"))
    func overHTTP2ManyStreamsShareAFewConnections() throws {
        let concurrency = ConcurrencyGauge()
        let server = try HTTPServer { request in
            concurrency.enter()
            defer { concurrency.leave() }
            // Requests 40 to 79 wait until 40 are in the server at once: only streams get there.
            if (40..<80).contains(Int(request.path.dropFirst(2)) ?? 0) { _ = concurrency.wait(untilAtOnce: 40, seconds: Patience.seconds) }
            return .json(200, "{}")
        }
        let proxy = try TLSProxy(backendPort: server.port)
        let transport = CurlTransport(maximumParallelTransfers: 8, trust: TrustedCertificates(file: proxy.certificate))
        let requests = (0..<300).map { HTTPRequest(url: proxy.baseURL + "/r\($0)", timeouts: patient) }
        let results = transport.sendAll(requests)
        #expect(results.allSatisfy { (try? $0.get().status) == 200 }, "\(results.first { (try? $0.get().status) != 200 } as Any)")
        #expect(transport.multiplexes == true)
        #expect(concurrency.peak >= 40, "no more at once than HTTP/1.1 would carry: \(concurrency.peak)")
        #expect(concurrency.peak <= 100, "more streams than GitHub allows: \(concurrency.peak)")
        #expect((1...4).contains(transport.connectionsOpened), "\(transport.connectionsOpened) connections")
    }

    /// Answers of tens of KB arriving together on the streams of one connection (the files of a
    /// first pull) are each delivered as they come: with libcurl's 16 KB buffer, libcurl 7.88 held
    /// an answer's last bytes back now and then until the stall timeout (about one first pull in
    /// fourteen waited 20 s for a blob already received).
    @Test(.enabled(if: TLSProxy.isAvailable, "nghttpx is not installed (scripts/install-dependencies --for-tests installs it)"))
    func answersArrivingTogetherOverHTTP2AreEachDeliveredAsTheyCome() throws {
        let body = String(repeating: "{\"type\":\"todo\",\"text\":\"a line of a file of todos\"}\n", count: 700)
        let server = try HTTPServer { _ in
            var response = ServerResponse.json(200, body)
            response.delayMilliseconds = 50  // answers come in bursts, as from GitHub
            return response
        }
        // Each round's burst reaches the server on connections opened anew, as after a pause.
        let proxy = try TLSProxy(backendPort: server.port, backendIdleMilliseconds: 10)
        // A stall shows as a timeout well before a patient test would give up; no answer here takes long.
        let timeouts = HTTPTimeouts(connectMilliseconds: Patience.requestMilliseconds, totalMilliseconds: Patience.requestMilliseconds,
                                    stallMilliseconds: 10_000)
        for round in 0..<30 {
            let transport = CurlTransport(trust: TrustedCertificates(file: proxy.certificate))
            let results = transport.sendAll((0..<103).map { HTTPRequest(url: proxy.baseURL + "/blob\($0)", timeouts: timeouts) })
            let failed = results.filter { (try? $0.get().body.count) != body.utf8.count }
            #expect(failed.isEmpty, "round \(round): \(failed.count) answers not delivered: \(failed.first as Any)")
            #expect(transport.multiplexes == true)
        }
    }

    /// Over HTTPS the first transfers of a command wait for the first connection's handshake to
    /// say whether it multiplexes (ALPN): on HTTP/2 they all share it.
    @Test(.enabled(if: TLSProxy.isAvailable, "nghttpx is not installed (scripts/install-dependencies --for-tests installs it)"))
    func theFirstRunOverHTTPSSharesOneConnection() throws {
        let server = try HTTPServer { _ in .json(200, "{}") }
        let proxy = try TLSProxy(backendPort: server.port)
        let transport = CurlTransport(trust: TrustedCertificates(file: proxy.certificate))
        let results = transport.sendAll((0..<40).map { HTTPRequest(url: proxy.baseURL + "/r\($0)", timeouts: patient) })
        #expect(results.allSatisfy { (try? $0.get().status) == 200 })
        #expect(transport.multiplexes == true)
        #expect(transport.connectionsOpened == 1, "\(transport.connectionsOpened) connections")
    }

    /// HTTPS that offers only HTTP/1.1 (a proxy, an older GitHub Enterprise): the first transfers
    /// that waited for the handshake go on, each on a connection of its own, reused.
    @Test(.enabled(if: TLSProxy.isAvailable, "nghttpx is not installed (scripts/install-dependencies --for-tests installs it)"))
    func overHTTPSWithoutHTTP2AFewConnectionsCarryEverything() throws {
        let server = try HTTPServer { _ in .json(200, "{}") }
        let proxy = try TLSProxy(backendPort: server.port, protocols: "http/1.1")
        let transport = CurlTransport(maximumParallelTransfers: 6, trust: TrustedCertificates(file: proxy.certificate))
        let results = transport.sendAll((0..<120).map { HTTPRequest(url: proxy.baseURL + "/r\($0)", timeouts: patient) })
        #expect(results.allSatisfy { (try? $0.get().status) == 200 }, "\(results.first { (try? $0.get().status) != 200 } as Any)")
        #expect(transport.multiplexes == false)
        #expect((1...6).contains(transport.connectionsOpened), "\(transport.connectionsOpened) connections")
        #expect(transport.mostAtOnce == 6)
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
