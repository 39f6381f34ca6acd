import DoogitMerge
import DoogitSupport

/// The GitHub login of the user behind the token, per API origin, as GitHub last said it:
/// who "me" is for `todo list --mine` and `next`, and who adds and finishes todos here.
extension Store {
    /// The login last seen for this API origin (nil: none yet).
    public func login(origin: String) throws -> String? {
        try database.scalarString("SELECT login FROM github_logins WHERE origin = ?", .text(origin)).flatMap {
            GitHubLogin.isValid($0) ? $0 : nil
        }
    }

    /// Forgets the login kept for this origin (its token was removed).
    public func forgetLogin(origin: String) throws {
        try database.run("DELETE FROM github_logins WHERE origin = ?", .text(origin))
    }

    /// Keeps the login GitHub gave for this origin's token, with the token's fingerprint (one
    /// that is no login is not kept).
    public func recordLogin(_ login: String, origin: String, tokenFingerprint: String?, at now: Timestamp) throws {
        guard GitHubLogin.isValid(login) else { return }
        try database.run("""
            INSERT INTO github_logins (origin, login, token_fingerprint, seen_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (origin) DO UPDATE SET login = ?2, token_fingerprint = ?3, seen_at = ?4
            """, .text(origin), .text(login), .optional(tokenFingerprint), .text(now.rfc3339))
    }

    /// Whether the login kept for this origin is that of the token with this fingerprint (false:
    /// none is kept, or it is another token's).
    public func loginIsCurrent(origin: String, tokenFingerprint: String) throws -> Bool {
        try database.scalarInt("SELECT count(*) FROM github_logins WHERE origin = ? AND token_fingerprint = ?",
                               .text(origin), .text(tokenFingerprint)) == 1
    }

    /// A token's fingerprint: the first 16 hex digits of its SHA-1, which tell one token from
    /// another without keeping it.
    public static func tokenFingerprint(_ token: String) -> String {
        String(GitHash.sha1(Array(token.utf8)).prefix(16))
    }
}
