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
}
