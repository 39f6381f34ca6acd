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

    /// Keeps the login GitHub gave for this origin's token (one that is no login is not kept).
    public func recordLogin(_ login: String, origin: String, at now: Timestamp) throws {
        guard GitHubLogin.isValid(login) else { return }
        try database.run("""
            INSERT INTO github_logins (origin, login, seen_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (origin) DO UPDATE SET login = ?2, seen_at = ?3
            """, .text(origin), .text(login), .text(now.rfc3339))
    }
}
