/// Reads the `Link` header of a paginated answer (RFC 8288): GitHub names the next page's URL
/// with `rel="next"`; its absence means the last page.
public enum LinkHeader {
    public static func url(for relation: String, in header: String) -> String? {
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";")
            guard let target = parts.first?.trimmingSpaces, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "rel" else { continue }
                var value = pair[1].trimmingSpaces
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                if value.split(separator: " ").contains(where: { $0 == relation }) {
                    return String(target.dropFirst().dropLast())
                }
            }
        }
        return nil
    }
}
