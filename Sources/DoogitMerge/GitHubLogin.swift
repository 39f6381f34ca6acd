/// A GitHub login as doogit keeps it (who added, finished or is assigned a todo): letters,
/// digits, `-` and `_` (managed users' logins end in `_shortcode`), not starting with `-`, at
/// most 100 bytes. A login written elsewhere (a file, a branch) is checked against it before it
/// is kept, so that nothing else reaches a terminal in its place.
public enum GitHubLogin {
    public static let maximumLength = 100

    public static func isValid(_ login: String) -> Bool {
        let bytes = login.utf8
        guard let first = bytes.first, first != UInt8(ascii: "-"), bytes.count <= maximumLength else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    /// A login as a person types it (`@octocat` or `octocat`); nil when it is none.
    public static func parse(_ text: String) -> String? {
        let login = text.hasPrefix("@") ? String(text.dropFirst()) : text
        return isValid(login) ? login : nil
    }

    /// Whether two logins name the same user: GitHub's logins compare without case.
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.lowercased() == rhs.lowercased()
    }
}
