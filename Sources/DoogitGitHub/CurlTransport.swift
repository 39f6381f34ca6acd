internal import CCurl

/// HTTPTransport over libcurl. Every request, one at a time or many at once, goes through one
/// multi handle kept for the transport's life, so its connections serve the whole command: a
/// sync opens a few connections, not one per batch or per kind of request. (A request made
/// from a callback of a parallel run, rare, goes on a handle of its own.)
///
/// Over HTTP/2 the transfers share a connection as streams, up to `maximumStreams` at once;
/// over HTTP/1.1 (a proxy, an older GitHub Enterprise, plain HTTP) each transfer needs a
/// connection of its own, so at most `maximumParallelTransfers` run at once, on connections
/// that are reused.
public final class CurlTransport: HTTPTransport {
    /// Transfers at once over HTTP/1.1 unless told otherwise, each on a connection of its own.
    ///
    /// The width sets the round trips of a window: a first pull reads the remote's files one
    /// request each (about 100 for 10,000 todos), and a sync reads repositories by id. The window
    /// opens at 4 and grows by 24 for each healthy answer (`MultiTransfer`), so 100 requests take
    /// about 3 round trips at 48, against 7 at 16; at 100 they would take 2, one less, for twice
    /// the connections. Each connection costs whatever sits between doogit and GitHub over
    /// HTTP/1.1 (a proxy, a small GitHub Enterprise server) a socket and often a worker, for as
    /// long as the command runs: 48 keeps one command's share of them moderate. It also stays
    /// well under GitHub's documented ceiling of 100 concurrent requests (`defaultStreams`),
    /// which every client of the token shares: half of it is left to the others.
    public static let defaultParallelTransfers = 48
    /// Transfers at once over HTTP/2 unless told otherwise: GitHub's documented ceiling for
    /// concurrent requests.
    public static let defaultStreams = 100

    /// Bodies beyond this are abandoned: no GitHub answer doogit reads comes near it.
    public let bodyLimit: Int
    /// Transfers at once over HTTP/1.1, each on its own connection.
    public let maximumParallelTransfers: Int
    /// Transfers at once over HTTP/2: GitHub's documented ceiling for concurrent requests.
    public let maximumStreams: Int
    /// Options to treat as refused, as an older libcurl would refuse them (for tests).
    let refusedOptions: Set<String>
    public let trust: TrustedCertificates
    private var multi: MultiTransfer?
    /// For a request made while a parallel run is in progress (from one of its callbacks).
    private var spare: EasyHandle?

    public convenience init(bodyLimit: Int = 32 << 20, maximumParallelTransfers: Int = defaultParallelTransfers,
                            maximumStreams: Int = defaultStreams, trust: TrustedCertificates = .system) {
        self.init(bodyLimit: bodyLimit, maximumParallelTransfers: maximumParallelTransfers, maximumStreams: maximumStreams,
                  refusing: [], trust: trust)
    }

    init(bodyLimit: Int = 32 << 20, maximumParallelTransfers: Int = defaultParallelTransfers,
         maximumStreams: Int = defaultStreams, refusing refusedOptions: Set<String>, trust: TrustedCertificates = .system) {
        self.trust = trust
        self.bodyLimit = bodyLimit
        self.maximumParallelTransfers = max(1, maximumParallelTransfers)
        self.maximumStreams = max(self.maximumParallelTransfers, maximumStreams)
        self.refusedOptions = refusedOptions
    }

    /// Connections opened so far (libcurl's count: each transfer adds those it had to open).
    public var connectionsOpened: Int { (multi?.connectionsOpened ?? 0) + spareConnections }
    private var spareConnections = 0

    /// The most transfers in flight at once during the last parallel run.
    public var mostAtOnce: Int { multi?.mostAtOnce ?? 0 }

    /// Whether the server multiplexes (HTTP/2); nil until a transfer has finished.
    public var multiplexes: Bool? { multi?.multiplexes }

    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let transfer = try multiTransfer()
        guard transfer.isRunning else {
            guard let result = transfer.run([request], onAnswer: { _, _ in true }).first ?? nil else {
                throw .connection("the request was not sent")
            }
            return try result.get()
        }
        let handle: EasyHandle
        if let spare {
            handle = spare
        } else {
            handle = try EasyHandle(refusing: refusedOptions, trust: trust)
            spare = handle
        }
        try handle.prepare(request, bodyLimit: bodyLimit, waitForMultiplexing: false)
        defer { spareConnections += handle.connectionsOpened }
        return try handle.perform()
    }

    public func sendAll(_ requests: [HTTPRequest], onAnswer: (Int, Result<HTTPResponse, TransportError>) -> Bool)
        -> [Result<HTTPResponse, TransportError>?]
    {
        let failure: TransportError
        do {
            let transfer = try multiTransfer()
            guard transfer.isRunning else { return transfer.run(requests, onAnswer: onAnswer) }
            failure = .connection("parallel transfers cannot be nested")
        } catch {
            failure = error
        }
        // Nothing could start: each request fails, reported as its answer would have been.
        var results = [Result<HTTPResponse, TransportError>?](repeating: nil, count: requests.count)
        for index in requests.indices {
            results[index] = .failure(failure)
            if !onAnswer(index, .failure(failure)) { break }
        }
        return results
    }

    private func multiTransfer() throws(TransportError) -> MultiTransfer {
        if let multi { return multi }
        let transfer = try MultiTransfer(bodyLimit: bodyLimit, connections: maximumParallelTransfers, streams: maximumStreams,
                                         refusing: refusedOptions, trust: trust)
        multi = transfer
        return transfer
    }
}
