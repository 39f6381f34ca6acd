internal import CCurl

/// HTTPTransport over libcurl. One easy handle is kept for sequential requests (so connections
/// are reused); `sendAll` runs requests in parallel on one multi handle kept for the transport's
/// life, so the connections of one batch serve the next (a sync is many batches).
public final class CurlTransport: HTTPTransport {
    /// Bodies beyond this are abandoned: no GitHub answer doogit reads comes near it.
    public let bodyLimit: Int
    public let maximumParallelTransfers: Int
    /// Options to treat as refused, as an older libcurl would refuse them (for tests).
    let refusedOptions: Set<String>
    public let trust: TrustedCertificates
    private var easy: EasyHandle?
    private var multi: MultiTransfer?

    public convenience init(bodyLimit: Int = 32 << 20, maximumParallelTransfers: Int = 16, trust: TrustedCertificates = .system) {
        self.init(bodyLimit: bodyLimit, maximumParallelTransfers: maximumParallelTransfers, refusing: [], trust: trust)
    }

    init(bodyLimit: Int = 32 << 20, maximumParallelTransfers: Int = 16, refusing refusedOptions: Set<String>,
         trust: TrustedCertificates = .system) {
        self.trust = trust
        self.bodyLimit = bodyLimit
        self.maximumParallelTransfers = max(1, maximumParallelTransfers)
        self.refusedOptions = refusedOptions
    }

    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let handle: EasyHandle
        if let easy {
            handle = easy
        } else {
            handle = try EasyHandle(refusing: refusedOptions, trust: trust)
            easy = handle
        }
        try handle.prepare(request, bodyLimit: bodyLimit)
        return try handle.perform()
    }

    public func sendAll(_ requests: [HTTPRequest], keepStarting: (Result<HTTPResponse, TransportError>) -> Bool)
        -> [Result<HTTPResponse, TransportError>?]
    {
        guard requests.count > 1 else {
            return requests.map { request in Result { () throws(TransportError) in try send(request) } }
        }
        do {
            let transfer: MultiTransfer
            if let multi {
                transfer = multi
            } else {
                transfer = try MultiTransfer(bodyLimit: bodyLimit, width: maximumParallelTransfers, refusing: refusedOptions,
                                             trust: trust)
                multi = transfer
            }
            return try transfer.run(requests, keepStarting: keepStarting)
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }
}

/// Runs many requests at once on a `CURLM*`, at most `width` in flight; its easy handles and
/// the multi handle's connections are kept between runs. Each run starts with
/// `initialWidth` and opens one more place for every transfer that finishes while the caller
/// still wants more started (a slow start, as TCP does): a healthy server is soon asked `width`
/// at a time, while one that is failing sees only the first few before the caller says stop.
private final class MultiTransfer {
    static let initialWidth = 4

    private let multi: UnsafeMutableRawPointer
    private let bodyLimit: Int
    private let width: Int
    private let refusedOptions: Set<String>
    private let trust: TrustedCertificates
    /// Handles whose transfers finished, for the next transfers (of this run or the next).
    private var idle: [EasyHandle] = []

    init(bodyLimit: Int, width: Int, refusing refusedOptions: Set<String>, trust: TrustedCertificates) throws(TransportError) {
        self.trust = trust
        guard ccurl_load() == 0 else { throw .unavailable(String(cString: ccurl_load_error())) }
        guard let multi = ccurl_multi_init() else { throw .unavailable("curl_multi_init failed") }
        // Keep as many connections open as transfers may run at once: by default libcurl sizes
        // its cache by the transfers added, which drop to none between runs.
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, width)
        self.multi = multi
        self.bodyLimit = bodyLimit
        self.width = width
        self.refusedOptions = refusedOptions
    }

    deinit {
        ccurl_multi_cleanup(multi)
    }

    /// Requests not started because `keepStarting` said no are nil.
    func run(_ requests: [HTTPRequest], keepStarting: (Result<HTTPResponse, TransportError>) -> Bool)
        throws(TransportError) -> [Result<HTTPResponse, TransportError>?]
    {
        var results = [Result<HTTPResponse, TransportError>?](repeating: nil, count: requests.count)
        var inFlight: [(handle: EasyHandle, index: Int)] = []
        var next = 0
        var starting = true
        var allowed = min(width, Self.initialWidth)
        func finished(_ index: Int, _ result: Result<HTTPResponse, TransportError>) {
            results[index] = result
            starting = keepStarting(result)
            if starting { allowed = min(width, allowed + 1) }
        }
        while (starting && next < requests.count) || !inFlight.isEmpty {
            while starting && next < requests.count && inFlight.count < allowed {
                let handle: EasyHandle
                if let reused = idle.popLast() { handle = reused } else { handle = try EasyHandle(refusing: refusedOptions, trust: trust) }
                do {
                    try handle.prepare(requests[next], bodyLimit: bodyLimit)
                    if ccurl_multi_add_handle(multi, handle.handle) == CURLM_OK {
                        inFlight.append((handle, next))
                    } else {
                        finished(next, .failure(.connection("could not start the transfer")))
                        idle.append(handle)
                    }
                } catch {
                    finished(next, .failure(error))
                    idle.append(handle)
                }
                next += 1
            }
            var running: Int32 = 0
            guard ccurl_multi_perform(multi, &running) == CURLM_OK else {
                // The multi handle is broken: every transfer still open fails, none spins forever.
                for (handle, index) in inFlight {
                    ccurl_multi_remove_handle(multi, handle.handle)
                    finished(index, .failure(.connection("the transfer was abandoned")))
                }
                inFlight = []
                continue
            }
            var done: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while ccurl_multi_next_done(multi, &done, &code) != 0 {
                guard let position = inFlight.firstIndex(where: { $0.handle.handle == done }) else { continue }
                let (handle, index) = inFlight.remove(at: position)
                ccurl_multi_remove_handle(multi, handle.handle)
                finished(index, Result { () throws(TransportError) in try handle.finish(code) })
                idle.append(handle)
            }
            if running > 0 {
                var descriptors: Int32 = 0
                ccurl_multi_poll(multi, 1000, &descriptors)
            }
        }
        return results
    }
}
