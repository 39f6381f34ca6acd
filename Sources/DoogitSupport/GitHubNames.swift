/// The names GitHub gives owners and repositories, which doogit takes from users and from
/// other machines' files alike before they go into an API path or a URL.
public enum GitHubNames {
    /// GitHub logins: letters, digits and single hyphens, at most 39 characters.
    public static func isValidOwner(_ owner: Substring) -> Bool {
        !owner.isEmpty && owner.utf8.count <= 39 && !owner.hasPrefix("-")
            && owner.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" }
    }

    /// Repository names: letters, digits, `.`, `-` and `_`, at most 100 characters, not `.` or `..`.
    public static func isValidRepositoryName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.count <= 100 && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" || $0 == "." }
    }

    /// `OWNER/NAME`, each part valid.
    public static func isValidFullName(_ fullName: String) -> Bool {
        let parts = fullName.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && isValidOwner(parts[0]) && isValidRepositoryName(parts[1])
    }
}

extension Unicode.Scalar {
    var isASCIILetterOrDigit: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
