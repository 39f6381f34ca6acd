internal import CCurl

/// Owns a `curl_slist` of request headers; it must outlive every transfer that uses it, so the
/// EasyHandle holds it until the next request replaces it.
final class HeaderList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) {
        for line in lines {
            if let extended = ccurl_slist_append(pointer, line) { pointer = extended }
        }
    }

    deinit {
        if let pointer { ccurl_slist_free_all(pointer) }
    }
}
