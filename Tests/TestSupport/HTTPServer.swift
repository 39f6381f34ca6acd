import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A request as the test server received it.
public struct ReceivedRequest: Sendable {
    public var method: String
    /// The target as sent: path and query.
    public var target: String
    /// Header names in lowercase.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, target: String, headers: [String: String], body: [UInt8]) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    public var path: String { String(target.prefix(while: { $0 != "?" })) }

    public var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return result
    }
}

/// What the test server sends back. `raw` replaces the whole answer with exact bytes (for
/// truncated or broken responses); `delayMilliseconds` holds the answer back (for timeouts).
public struct ServerResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    public var delayMilliseconds = 0
    public var raw: [UInt8]? = nil
    /// Close the connection without answering.
    public var hangUp = false
    /// Hold the answer until this is released.
    public var hold: AnswerHold? = nil

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The same answer, except that the server closes the connection instead of sending it.
    public func hangingUp() -> ServerResponse {
        var copy = self
        copy.hangUp = true
        return copy
    }

    public static func json(_ status: Int, _ text: String, headers: [(String, String)] = []) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
                       body: Array(text.utf8))
    }
}

/// An answer the server holds back until the test releases it, with a signal for the test that
/// the request arrived (and was carried out): for a request that is still on the wire.
public final class AnswerHold: @unchecked Sendable {
    private let arrival = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    public init() {}

    /// Called by the server: says the request arrived, then waits to be released (`Patience` at most).
    func arriveAndWait() {
        arrival.signal()
        _ = release.wait(timeout: .now() + Patience.seconds)
    }

    /// Waits until the request has arrived; false after `seconds`.
    public func waitForArrival(seconds: Double = Patience.seconds) -> Bool {
        arrival.wait(timeout: .now() + seconds) == .success
    }

    /// Lets the answer go.
    public func releaseAnswer() { release.signal() }
}

/// A small HTTP/1.1 server on 127.0.0.1 for tests: a thread accepts, a thread per connection
/// answers (keep-alive included), and `handler` decides every answer. Nothing here reaches
/// beyond loopback.
public final class HTTPServer: @unchecked Sendable {
    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (ReceivedRequest) -> ServerResponse
    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var accepted = 0
    private var inFlight = 0
    private var stopped = false

    /// How many connections clients opened, ever (a client that reuses its connections opens few).
    public var acceptedConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted
    }

    /// Requests received and not yet answered (held, delayed or being handled), the one being
    /// handled included.
    public var requestsInFlight: Int {
        lock.lock()
        defer { lock.unlock() }
        return inFlight
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public init(handler: @escaping @Sendable (ReceivedRequest) -> ServerResponse) throws {
        self.handler = handler
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            close(descriptor)
            throw ServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.listener = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    public enum ServerError: Error { case socket(Int32) }

    /// Stops accepting and shuts every open connection down. Descriptors are shut down here, under
    /// the lock, and closed only by the thread that owns each (the accept thread the listener, a
    /// connection's thread its connection): a number closed elsewhere could be another server's
    /// by the time it is shut down, and that server would stop listening.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                let failure = errno
                if isStopped { return }
                if failure == EINTR || failure == ECONNABORTED { continue }
                return
            }
            lock.lock()
            if stopped {
                lock.unlock()
                close(connection)
                return
            }
            connections.insert(connection)
            accepted += 1
            lock.unlock()
            let thread = Thread { [self] in
                serve(connection)
                lock.lock()
                connections.remove(connection)
                close(connection)
                lock.unlock()
            }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        while let request = readRequest(connection, buffer: &buffer) {
            countInFlight(+1)
            defer { countInFlight(-1) }
            let response = handler(request)
            response.hold?.arriveAndWait()
            if response.delayMilliseconds > 0 {
                // Sleep in slices so that stop() is not held up by a long delay.
                var left = response.delayMilliseconds
                while left > 0 && !isStopped {
                    usleep(UInt32(min(left, 50)) * 1000)
                    left -= 50
                }
            }
            if response.hangUp || isStopped { return }
            let bytes = response.raw ?? encode(response)
            guard sendAll(connection, bytes) else { return }
            if response.raw != nil { return }
        }
    }

    private func countInFlight(_ change: Int) {
        lock.lock()
        inFlight += change
        lock.unlock()
    }

    private func encode(_ response: ServerResponse) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if !response.headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + response.body
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 301: return "Moved Permanently"
        case 304: return "Not Modified"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 410: return "Gone"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status"
        }
    }

    private func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> ReceivedRequest? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while true {
            if let end = find(separator, in: buffer) { headerEnd = end; break }
            guard readMore(connection, into: &buffer) else { return nil }
        }
        guard let end = headerEnd else { return nil }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + 4
        while buffer.count < bodyStart + length {
            guard readMore(connection, into: &buffer) else { return nil }
        }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return ReceivedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private func readMore(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, 16384, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}

/// A thread-safe counter, for scripted answers that change after the first requests.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    /// Counts one more and returns the new count.
    public func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    public var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
