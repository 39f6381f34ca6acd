internal import CCurl

/// Runs requests on one `CURLM*` in a sliding window: a transfer starts as soon as another
/// finishes, never waiting for a whole group. Its easy handles and the multi handle's
/// connections are kept between runs.
///
/// Each run starts `initialWidth` wide and opens `growth` more places for every answer that
/// says the server is well (not a server error, a refusal for the rate limit, or a failed
/// connection) while the caller still wants more started: a healthy server is asked the full
/// 100 at once after one round trip, while one that is failing sees only the first few before
/// the caller says stop. A place that comes free is filled at once.
///
/// The full width depends on the protocol the server speaks, which the first finished
/// transfer tells: over HTTP/2, `streams` transfers share at most
/// `multiplexedConnections` connections (each new transfer waits for a connection able to take
/// it rather than opening one); over HTTP/1.1, `connections` transfers, one per connection.
final class MultiTransfer {
    static let initialWidth = 4
    static let growth = 24
    static let multiplexedConnections = 4

    private let multi: UnsafeMutableRawPointer
    private let bodyLimit: Int
    private let connections: Int
    private let streams: Int
    private let refusedOptions: Set<String>
    private let trust: TrustedCertificates
    /// Handles whose transfers finished, for the next transfers (of this run or the next).
    private var idle: [EasyHandle] = []
    private(set) var connectionsOpened = 0
    /// Whether the server multiplexes (HTTP/2); nil until a transfer has finished.
    private(set) var multiplexes: Bool?
    private(set) var isRunning = false
    /// The most transfers in flight at once during the last run.
    private(set) var mostAtOnce = 0

    init(bodyLimit: Int, connections: Int, streams: Int, refusing refusedOptions: Set<String>,
         trust: TrustedCertificates) throws(TransportError) {
        guard ccurl_load() == 0 else { throw .unavailable(String(cString: ccurl_load_error())) }
        guard let multi = ccurl_multi_init() else { throw .unavailable("curl_multi_init failed") }
        // Keep as many connections open as transfers may run at once: by default libcurl sizes
        // its cache by the transfers added, which drop to none between runs.
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connections)
        self.multi = multi
        self.bodyLimit = bodyLimit
        self.connections = connections
        self.streams = streams
        self.refusedOptions = refusedOptions
        self.trust = trust
    }

    deinit {
        ccurl_multi_cleanup(multi)
    }

    /// Transfers at once, once the protocol is known.
    private var width: Int { multiplexes == true ? streams : connections }

    /// Runs the requests; `onAnswer` gets each outcome as its transfer finishes (or fails to
    /// start) and says whether to start more; once it says no, no more start. Requests not
    /// started are nil.
    func run(_ requests: [HTTPRequest], onAnswer: (Int, Result<HTTPResponse, TransportError>) -> Bool)
        -> [Result<HTTPResponse, TransportError>?]
    {
        isRunning = true
        defer { isRunning = false }
        var results = [Result<HTTPResponse, TransportError>?](repeating: nil, count: requests.count)
        var inFlight: [(handle: EasyHandle, index: Int)] = []
        var next = 0
        var starting = true
        var allowed = min(width, Self.initialWidth)
        mostAtOnce = 0
        func finished(_ index: Int, _ result: Result<HTTPResponse, TransportError>) {
            results[index] = result
            starting = onAnswer(index, result) && starting
            if starting && Self.saysWell(result) { allowed = min(width, allowed + Self.growth) }
        }
        while (starting && next < requests.count) || !inFlight.isEmpty {
            while starting && next < requests.count && inFlight.count < allowed {
                let index = next
                next += 1
                let handle: EasyHandle
                if let reused = idle.popLast() {
                    handle = reused
                } else {
                    do throws(TransportError) {
                        handle = try EasyHandle(refusing: refusedOptions, trust: trust)
                    } catch {
                        finished(index, .failure(error))
                        continue
                    }
                }
                do {
                    try handle.prepare(requests[index], bodyLimit: bodyLimit, waitForMultiplexing: waitsForMultiplexing(requests[index]))
                    if ccurl_multi_add_handle(multi, handle.handle) == CURLM_OK {
                        inFlight.append((handle, index))
                        mostAtOnce = max(mostAtOnce, inFlight.count)
                    } else {
                        idle.append(handle)
                        finished(index, .failure(.connection("could not start the transfer")))
                    }
                } catch {
                    idle.append(handle)
                    finished(index, .failure(error))
                }
            }
            var running: Int32 = 0
            guard ccurl_multi_perform(multi, &running) == CURLM_OK else {
                // The multi handle is broken: every transfer still open fails, none spins forever.
                let abandoned = inFlight
                inFlight = []
                for (handle, index) in abandoned {
                    ccurl_multi_remove_handle(multi, handle.handle)
                    finished(index, .failure(.connection("the transfer was abandoned")))
                }
                continue
            }
            var done: UnsafeMutableRawPointer?
            var code = CURLE_OK
            var freed = false
            while ccurl_multi_next_done(multi, &done, &code) != 0 {
                guard let position = inFlight.firstIndex(where: { $0.handle.handle == done }) else { continue }
                let (handle, index) = inFlight.remove(at: position)
                ccurl_multi_remove_handle(multi, handle.handle)
                learn(from: handle, code)
                idle.append(handle)
                finished(index, Result { () throws(TransportError) in try handle.finish(code) })
                freed = true
            }
            // A place that just came free is filled at once, not after the next answer arrives.
            if freed && starting && next < requests.count { continue }
            if running > 0 {
                var descriptors: Int32 = 0
                ccurl_multi_poll(multi, 1000, &descriptors)
            }
        }
        return results
    }

    /// Whether a transfer waits for a connection that may carry it as a stream rather than open
    /// one: on a server known to multiplex; and, until the protocol is known, over HTTPS, where
    /// the TLS handshake says it (ALPN) before any answer, so a command's first transfers share
    /// the first connection. Over plain HTTP nothing would say it before an answer.
    private func waitsForMultiplexing(_ request: HTTPRequest) -> Bool {
        multiplexes ?? request.url.lowercased().hasPrefix("https://")
    }

    /// Whether an outcome says the server is well enough to be asked more at once.
    static func saysWell(_ result: Result<HTTPResponse, TransportError>) -> Bool {
        guard case .success(let response) = result else { return false }
        return response.status < 500 && response.status != 403 && response.status != 429
    }

    /// Counts the connections a finished transfer opened, and learns from its answer whether
    /// the server multiplexes.
    private func learn(from handle: EasyHandle, _ code: CURLcode) {
        connectionsOpened += handle.connectionsOpened
        guard code == CURLE_OK, multiplexes == nil else { return }
        var version = 0
        guard ccurl_easy_getinfo_long(handle.handle, CURLINFO_HTTP_VERSION, &version) == CURLE_OK, version != 0 else { return }
        multiplexes = version >= CURL_HTTP_VERSION_2_0
        if multiplexes == true {
            // Streams beyond one connection's limit wait for a place rather than open more connections.
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, Self.multiplexedConnections)
        }
    }
}
