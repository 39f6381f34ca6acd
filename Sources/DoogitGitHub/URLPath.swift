/// The parts of a request's URL, percent-encoded by one rule. Owners, names, branches, file paths
/// and labels come from other machines' files and old answers as well as from GitHub, so any of
/// them may hold `é`, `/`, `?`, `#` or `%`: encoded, each stays one part of the path, the URL is
/// plain ASCII on the API's origin (so it carries the token), and no name changes the path's shape.
public enum URLPath {
    /// A path segment or a query value: RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`)
    /// stay, every other byte of the UTF-8 text becomes `%XX`. A whole `.` or `..` would be taken
    /// as a step within the path (libcurl and servers remove such segments), so its dots are
    /// encoded too.
    public static func encoded(_ part: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let isDotSegment = part == "." || part == ".."
        var out: [UInt8] = []
        out.reserveCapacity(part.utf8.count)
        for byte in part.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                if isDotSegment { out += [UInt8(ascii: "%"), UInt8(ascii: "2"), UInt8(ascii: "E")] } else { out.append(byte) }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Segments separated by `/`, each encoded and the slashes kept: a file's path in a
    /// repository, or a branch name such as `feature/x`.
    public static func encodedSegments(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { encoded(String($0)) }.joined(separator: "/")
    }

    /// `/repos/OWNER/NAME`.
    public static func repository(owner: String, name: String) -> String {
        "/repos/" + encoded(owner) + "/" + encoded(name)
    }

    /// `/repos/OWNER/NAME` of a full name `OWNER/NAME`: the owner ends at the first slash, and
    /// anything after it is the name, slashes included (encoded).
    public static func repository(_ fullName: String) -> String {
        guard let slash = fullName.firstIndex(of: "/") else { return repository(owner: fullName, name: "") }
        return repository(owner: String(fullName[..<slash]), name: String(fullName[fullName.index(after: slash)...]))
    }
}
