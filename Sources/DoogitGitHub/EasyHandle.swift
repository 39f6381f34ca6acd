internal import CCurl

/// Owns one `CURL*` and what a transfer needs while it runs: the header list, the response
/// buffers, and the callbacks that reach them through an Unmanaged pointer.
final class EasyHandle {
    let handle: UnsafeMutableRawPointer
    private var headerList: HeaderList?
    fileprivate var status = 0
    fileprivate var headers: [(name: String, value: String)] = []
    fileprivate var body: [UInt8] = []
    fileprivate var bodyLimit = 0
    fileprivate var exceededLimit = false

    /// Options to treat as refused, as an older libcurl would refuse them (for tests).
    private let refusedOptions: Set<String>
    /// The receive buffer: a file of about 1,400 todos fits (libcurl before 7.88 takes at most this).
    static let receiveBufferBytes = 512 * 1024

    init(refusing refusedOptions: Set<String> = [], trust: TrustedCertificates = .system) throws(TransportError) {
        guard ccurl_load() == 0 else { throw .unavailable(String(cString: ccurl_load_error())) }
        guard let handle = ccurl_easy_init() else { throw .unavailable("curl_easy_init failed") }
        self.handle = handle
        self.refusedOptions = refusedOptions
        // Instead of the system's certificates (verification itself stays on).
        if let file = trust.file { try require("CURLOPT_CAINFO", ccurl_easy_setopt_string(handle, CURLOPT_CAINFO, file)) }
        if let directory = trust.directory {
            try require("CURLOPT_CAPATH", ccurl_easy_setopt_string(handle, CURLOPT_CAPATH, directory))
        }
    }

    deinit {
        ccurl_easy_cleanup(handle)
    }

    /// Sets every option of one request. libcurl is loaded at run time and may be older than
    /// the headers: an option that did not apply (a protocol restriction, a timeout) would
    /// silently weaken the request, so any refusal fails it, except for compression, which is
    /// optional, and waiting for a connection to multiplex on, which only saves connections.
    func prepare(_ request: HTTPRequest, bodyLimit: Int, waitForMultiplexing: Bool = false) throws(TransportError) {
        status = 0
        headers = []
        body = []
        exceededLimit = false
        self.bodyLimit = bodyLimit
        let lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        headerList = HeaderList(lines)

        try require("CURLOPT_URL", ccurl_easy_setopt_string(handle, CURLOPT_URL, request.url))
        try require("CURLOPT_PROTOCOLS_STR", ccurl_easy_restrict_protocols(handle))
        try require("CURLOPT_NOSIGNAL", ccurl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        try require("CURLOPT_FOLLOWLOCATION", ccurl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))  // GitHubClient follows, origin-aware
        try require("CURLOPT_FAILONERROR", ccurl_easy_setopt_long(handle, CURLOPT_FAILONERROR, 0))  // GitHub's error bodies matter
        try require("CURLOPT_SSL_VERIFYPEER", ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        try require("CURLOPT_SSL_VERIFYHOST", ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        try require("CURLOPT_CONNECTTIMEOUT_MS",
                    ccurl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request.timeouts.connectMilliseconds))
        try require("CURLOPT_TIMEOUT_MS", ccurl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, request.timeouts.totalMilliseconds))
        try require("CURLOPT_LOW_SPEED_LIMIT", ccurl_easy_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
        try require("CURLOPT_LOW_SPEED_TIME",
                    ccurl_easy_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, request.timeouts.stallMilliseconds / 1000)))
        // An answer that fits the receive buffer is taken whole as it arrives: with the default
        // 16 KB, libcurl 7.88's HTTP/2 now and then left the rest of an answer already received
        // unread until the stall timeout. Resident memory grows only as far as answers fill it.
        _ = ccurl_easy_setopt_long(handle, CURLOPT_BUFFERSIZE, Self.receiveBufferBytes)
        try require("CURLOPT_HTTPHEADER", ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList?.pointer))
        // Optional: a libcurl without compression support still transfers, only more bytes.
        _ = ccurl_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")

        if let payload = request.body {
            // COPYPOSTFIELDS: libcurl keeps its own copy (it only reads this one), so no Swift
            // buffer has to outlive this call.
            try require("CURLOPT_POSTFIELDSIZE", ccurl_easy_setopt_long(handle, CURLOPT_POSTFIELDSIZE, payload.count))
            let code = payload.isEmpty ? ccurl_easy_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
                : payload.withUnsafeBytes { buffer in
                    ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
                }
            try require("CURLOPT_COPYPOSTFIELDS", code)
        } else {
            try require("CURLOPT_HTTPGET", ccurl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1))
        }
        // A request that may not be repeated (a creation) goes on a connection of its own:
        // libcurl sends a request again, unasked, when a reused connection closes before any
        // answer. The others, GETs and content-addressed POSTs alike, reuse the one open.
        let once = request.isRepeatable ? 0 : 1
        try require("CURLOPT_FRESH_CONNECT", ccurl_easy_setopt_long(handle, CURLOPT_FRESH_CONNECT, once))
        // A stream on a connection being opened beats a new connection; asked for only where the
        // server multiplexes or its TLS handshake will soon say so (see MultiTransfer), since
        // over plain HTTP/1.1 it holds transfers back to one connection.
        _ = ccurl_easy_setopt_long(handle, CURLOPT_PIPEWAIT, waitForMultiplexing && request.isRepeatable ? 1 : 0)
        if request.method != "GET" && request.method != "POST" {
            try require("CURLOPT_CUSTOMREQUEST", ccurl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
        } else {
            try require("CURLOPT_CUSTOMREQUEST", ccurl_easy_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, nil))
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        try require("CURLOPT_WRITEFUNCTION", ccurl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, writeBody))
        try require("CURLOPT_WRITEDATA", ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        try require("CURLOPT_HEADERFUNCTION", ccurl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, writeHeader))
        try require("CURLOPT_HEADERDATA", ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
    }

    /// Fails the request when libcurl did not accept an option it needs.
    private func require(_ option: String, _ code: CURLcode) throws(TransportError) {
        guard code == CURLE_OK, !refusedOptions.contains(option) else { throw .optionRefused(option) }
    }

    /// The response of a finished transfer, or the error its CURLcode stands for.
    func finish(_ code: CURLcode) throws(TransportError) -> HTTPResponse {
        if exceededLimit { throw .tooLarge(limit: bodyLimit) }
        guard code == CURLE_OK else { throw Self.error(for: code) }
        var responseCode = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &responseCode)
        return HTTPResponse(status: responseCode != 0 ? responseCode : status, headers: headers, body: body)
    }

    /// The connections the last transfer had to open (libcurl's count).
    var connectionsOpened: Int {
        var opened = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &opened)
        return opened
    }

    func perform() throws(TransportError) -> HTTPResponse {
        try finish(ccurl_easy_perform(handle))
    }

    /// Every CURLcode becomes a TransportError here, in one place.
    static func error(for code: CURLcode) -> TransportError {
        let message = String(cString: ccurl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return .cannotConnect(message)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return .untrusted(message)
        case CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return .connection(message)
        case CURLE_PARTIAL_FILE, CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2,
             CURLE_HTTP2_STREAM:
            return .protocolError(message)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .protocolError(message)
        default:
            return .connection(message)
        }
    }

    /// One header line as libcurl hands it over (with its line break), read as bytes: a sync
    /// reads some 20 headers for each of a thousand answers.
    fileprivate func appendHeaderLine(_ line: UnsafeBufferPointer<UInt8>) {
        let line = HeaderLine.trimmed(line)
        if line.starts(with: HeaderLine.statusPrefix) {
            // A new response (after 100 Continue or a proxy's answer): start over.
            headers = []
            let parts = line.split(separator: 0x20)
            status = parts.count > 1 ? Int(String(decoding: parts[1], as: UTF8.self)) ?? 0 : 0
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(decoding: line[..<colon].map(HeaderLine.lowercased), as: UTF8.self)
        let value = String(decoding: HeaderLine.trimmed(UnsafeBufferPointer(rebasing: line[(colon + 1)...])), as: UTF8.self)
        headers.append((name: name, value: value))
        // Room for the body at once, rather than growing it piece by piece (at most 1 MB on a
        // server's word).
        if name == "content-length", let length = Int(value), length > 0 {
            body.reserveCapacity(min(length, 1 << 20))
        }
    }
}

private let writeBody: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let handle = Unmanaged<EasyHandle>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard handle.body.count + length <= handle.bodyLimit else {
        handle.exceededLimit = true
        return 0  // abandons the transfer
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        handle.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }
    return length
}

private let writeHeader: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let handle = Unmanaged<EasyHandle>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        handle.appendHeaderLine(UnsafeBufferPointer(start: bytes, count: length))
    }
    return length
}

/// The bytes of a header line.
private enum HeaderLine {
    static let statusPrefix = Array("HTTP/".utf8)

    /// Without the spaces, tabs and line breaks around it.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Header names are ASCII tokens, compared without case.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
