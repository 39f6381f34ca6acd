@testable import DoogitGitHub
import Foundation
import Testing
import TestSupport

/// libcurl's connections against a real HTTP server on 127.0.0.1: kept from one batch to the
/// next, a few over HTTP/1.1, streams of one over HTTP/2.
@Suite(.serialized)
struct CurlConnectionTests {
    /// Timeouts that never decide a result here.
    let patient = GitHubClientTests.patientTimeouts

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

    /// By default, over HTTP/1.1, a window runs `defaultParallelTransfers` at once, each on a
    /// connection of its own, and no more: the width that a first pull's hundred files need to
    /// come in a few round trips.
    @Test func overHTTP1TheDefaultWidthIsReachedAndNotPassed() throws {
        let width = CurlTransport.defaultParallelTransfers
        let concurrency = ConcurrencyGauge()
        let server = try HTTPServer { request in
            concurrency.enter()
            defer { concurrency.leave() }
            // Past the window's start, answers wait until the full width is in the server at once.
            if (Int(request.path.dropFirst(2)) ?? 0) >= MultiTransfer.initialWidth {
                _ = concurrency.wait(untilAtOnce: width, seconds: Patience.seconds)
            }
            return .json(200, "{}")
        }
        let transport = CurlTransport()
        let requests = (0..<(2 * width + MultiTransfer.initialWidth)).map { HTTPRequest(url: server.baseURL + "/r\($0)", timeouts: patient) }
        #expect(transport.sendAll(requests).allSatisfy { (try? $0.get().status) == 200 })
        #expect(transport.multiplexes == false)
        #expect(concurrency.peak == width, "\(concurrency.peak) at once")
        #expect(server.acceptedConnections <= width, "\(server.acceptedConnections) connections")
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
}
