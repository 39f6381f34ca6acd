/// One HTTP request, as GitHubClient builds it.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    /// Header lines in order, without the Authorization header's value ever being logged.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    public var timeouts: HTTPTimeouts
    /// Whether sending it twice does no more than sending it once (see `RequestKind`): when
    /// not, it goes on a connection of its own, which libcurl never sends it on again.
    public var isRepeatable: Bool

    /// `isRepeatable` nil: any method but POST.
    public init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [],
                body: [UInt8]? = nil, timeouts: HTTPTimeouts = HTTPTimeouts(), isRepeatable: Bool? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeouts = timeouts
        self.isRepeatable = isRepeatable ?? (method != HTTPMethod.post.rawValue)
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.isRepeatable == rhs.isRepeatable
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

/// Limits for one attempt of one request.
public struct HTTPTimeouts: Sendable, Equatable {
    public var connectMilliseconds: Int
    public var totalMilliseconds: Int
    /// A transfer slower than one byte a second for this long counts as stalled.
    public var stallMilliseconds: Int

    public init(connectMilliseconds: Int = 10_000, totalMilliseconds: Int = 20_000, stallMilliseconds: Int = 15_000) {
        self.connectMilliseconds = connectMilliseconds
        self.totalMilliseconds = totalMilliseconds
        self.stallMilliseconds = stallMilliseconds
    }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names in lowercase, values trimmed, in the order received.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Whether a redirect led to this answer (GitHub's, for a repository renamed or transferred
    /// since): the URL first asked names the repository as it was. Not part of `==`: the answer
    /// is the same however it was reached.
    public var redirected = false

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The last value of the header (names compare case-insensitively).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.last(where: { $0.name == wanted })?.value
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

/// Why a request got no HTTP response.
public enum TransportError: Error, Equatable, Sendable {
    /// The HTTP library could not be loaded.
    case unavailable(String)
    /// No connection was made (refused, host not resolved): the request certainly never
    /// reached the server, so even a request that changes something may be sent again.
    case cannotConnect(String)
    /// The connection failed (TLS, reset, dropped mid-way): the request may have reached the server.
    case connection(String)
    case timeout
    /// The body passed the size limit and was abandoned.
    case tooLarge(limit: Int)
    /// The server answered with something that is not HTTP, or broke off mid-response.
    case protocolError(String)
    /// libcurl refused an option that safety or correctness depends on (an older libcurl than
    /// doogit needs); the request was not sent.
    case optionRefused(String)
    /// The server's certificate did not verify against the certificates trusted (or those could
    /// not be read): nothing was sent, and trying again changes nothing.
    case untrusted(String)
}

/// The certificates a transport trusts: the system's, or those `SSL_CERT_FILE` (a PEM bundle)
/// and `SSL_CERT_DIR` (a hashed folder) name, as `curl`, `git` and `gh` take them.
public struct TrustedCertificates: Equatable, Sendable {
    public var file: String?
    public var directory: String?

    public init(file: String? = nil, directory: String? = nil) {
        self.file = file
        self.directory = directory
    }

    /// From the environment; an empty variable counts as unset.
    public init(environment: [String: String]) {
        self.init(file: environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 },
                  directory: environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 })
    }

    public static let system = TrustedCertificates()
}

/// Sends HTTP requests. The real one is CurlTransport; tests of the layers above may use another.
public protocol HTTPTransport: AnyObject {
    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse

    /// Sends several requests at once where the transport can; results in request order.
    /// `onAnswer` gets each outcome (with the request's index) as soon as it is known and says
    /// whether to start more: when it says no, transfers already running finish (and are
    /// reported) and the rest are not sent (nil).
    func sendAll(_ requests: [HTTPRequest], onAnswer: (Int, Result<HTTPResponse, TransportError>) -> Bool)
        -> [Result<HTTPResponse, TransportError>?]
}

extension HTTPTransport {
    public func sendAll(_ requests: [HTTPRequest], onAnswer: (Int, Result<HTTPResponse, TransportError>) -> Bool)
        -> [Result<HTTPResponse, TransportError>?]
    {
        var results = [Result<HTTPResponse, TransportError>?](repeating: nil, count: requests.count)
        for (index, request) in requests.enumerated() {
            let result = Result { () throws(TransportError) in try send(request) }
            results[index] = result
            if !onAnswer(index, result) { break }
        }
        return results
    }

    /// Sends every request (in parallel where the transport can); results in request order.
    public func sendAll(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, TransportError>] {
        sendAll(requests, onAnswer: { _, _ in true }).map { $0 ?? .failure(.connection("the request was not sent")) }
    }
}
