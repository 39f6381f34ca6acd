extension TransportError {
    /// What went wrong, in words for a log line or a message (never the enum's debug form).
    public var summary: String {
        switch self {
        case .unavailable(let detail): return detail
        case .cannotConnect(let detail): return "could not connect: \(detail)"
        case .connection(let detail): return "the connection failed: \(detail)"
        case .timeout: return "timed out"
        case .tooLarge(let limit): return "the response was larger than \(limit) bytes"
        case .protocolError(let detail): return "the connection broke off: \(detail)"
        case .optionRefused(let option): return "libcurl refused option \(option)"
        case .untrusted(let detail): return "the certificate did not verify: \(detail)"
        }
    }
}
