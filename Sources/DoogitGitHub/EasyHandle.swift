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

    init() throws(TransportError) {
        guard ccurl_load() == 0 else { throw .unavailable(String(cString: ccurl_load_error())) }
        guard let handle = ccurl_easy_init() else { throw .unavailable("curl_easy_init failed") }
        self.handle = handle
    }

    deinit {
        ccurl_easy_cleanup(handle)
    }

    /// Sets every option of one request. Options whose setting fails are libcurl builds without
    /// the feature (for example without compression); the transfer still works without them.
    func prepare(_ request: HTTPRequest, bodyLimit: Int) {
        status = 0
        headers = []
        body = []
        exceededLimit = false
        self.bodyLimit = bodyLimit
        let lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        headerList = HeaderList(lines)

        _ = ccurl_easy_setopt_string(handle, CURLOPT_URL, request.url)
        _ = ccurl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)  // GitHubClient follows, host-aware
        _ = ccurl_easy_setopt_long(handle, CURLOPT_FAILONERROR, 0)     // GitHub's error bodies matter
        _ = ccurl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        _ = ccurl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request.timeouts.connectMilliseconds)
        _ = ccurl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, request.timeouts.totalMilliseconds)
        _ = ccurl_easy_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = ccurl_easy_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, request.timeouts.stallMilliseconds / 1000))
        _ = ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList?.pointer)

        if let payload = request.body {
            // COPYPOSTFIELDS: libcurl keeps its own copy, so no Swift buffer has to outlive this call.
            var bytes = payload.map { CChar(bitPattern: $0) }
            _ = ccurl_easy_setopt_long(handle, CURLOPT_POSTFIELDSIZE, payload.count)
            _ = bytes.withUnsafeMutableBufferPointer { buffer in
                ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, buffer.baseAddress)
            }
        } else {
            _ = ccurl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1)
        }
        if request.method != "GET" && request.method != "POST" {
            _ = ccurl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        } else {
            _ = ccurl_easy_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, nil)
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, writeBody)
        _ = ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = ccurl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, writeHeader)
        _ = ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
    }

    /// The response of a finished transfer, or the error its CURLcode stands for.
    func finish(_ code: CURLcode) throws(TransportError) -> HTTPResponse {
        if exceededLimit { throw .tooLarge(limit: bodyLimit) }
        guard code == CURLE_OK else { throw Self.error(for: code) }
        var responseCode = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &responseCode)
        return HTTPResponse(status: responseCode != 0 ? responseCode : status, headers: headers, body: body)
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
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
             CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
             CURLE_GOT_NOTHING, CURLE_SSL_CACERT_BADFILE:
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

    fileprivate func appendHeaderLine(_ line: String) {
        if line.hasPrefix("HTTP/") {
            // A new response (after 100 Continue or a proxy's answer): start over.
            headers = []
            let parts = line.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces
        headers.append((name: name, value: value))
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
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
    handle.appendHeaderLine(line.trimmingSpaces)
    return length
}
