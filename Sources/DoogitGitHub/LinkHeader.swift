/// Reads the `Link` header of a paginated answer (RFC 8288): GitHub names the next page's URL
/// with `rel="next"`; its absence means the last page.
public enum LinkHeader {
    public static func url(for relation: String, in header: String) -> String? {
        var rest = Substring(header)
        // Each link is `<URL>` then `;`-separated parameters up to the next `,` outside `<>`
        // (a URL's query may itself hold commas).
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            let target = rest[rest.index(after: open)..<close]
            let afterTarget = rest[rest.index(after: close)...]
            let parametersEnd = afterTarget.firstIndex(of: ",") ?? afterTarget.endIndex
            for parameter in afterTarget[..<parametersEnd].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "rel" else { continue }
                var value = pair[1].trimmingSpaces
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                if value.split(separator: " ").contains(where: { $0 == relation }) { return String(target) }
            }
            rest = afterTarget[parametersEnd...]
        }
        return nil
    }

    /// The URLs of the pages from `next` to `last`, when GitHub numbers them (`page=N`, the
    /// rest of the two URLs the same): `next` first, at most `limit`. Nil when the links do not
    /// number their pages so (then only `next` is known).
    public static func numberedPages(next: String, last: String, limit: Int) -> [String]? {
        guard let (prefix, first, suffix) = pageNumber(in: next), let (lastPrefix, final, lastSuffix) = pageNumber(in: last),
              prefix == lastPrefix, suffix == lastSuffix, first <= final, limit > 0 else { return nil }
        return (first...min(final, first + limit - 1)).map { prefix + String($0) + suffix }
    }

    /// A URL's `page` query parameter, split out: what stands before its digits, the number, and what after.
    private static func pageNumber(in url: String) -> (String, Int, String)? {
        guard let query = url.firstIndex(of: "?") else { return nil }
        var start = url.index(after: query)
        while start < url.endIndex {
            let end = url[start...].firstIndex(of: "&") ?? url.endIndex
            let parameter = url[start..<end]
            if parameter.hasPrefix("page=") {
                let digits = parameter.dropFirst(5)
                guard !digits.isEmpty, digits.count <= 9, digits.utf8.allSatisfy({ (48...57).contains($0) }),
                      let number = Int(digits), number > 0 else { return nil }
                return (String(url[..<digits.startIndex]), number, String(url[end...]))
            }
            start = end < url.endIndex ? url.index(after: end) : end
        }
        return nil
    }
}
