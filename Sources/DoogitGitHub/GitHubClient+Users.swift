extension GitHubClient {
    /// The signed-in user, with the token's scopes when GitHub reports them (classic tokens).
    public func currentUser() throws(GitHubError) -> GitHubUser {
        let response = try get("/user", about: .user)
        var user = try decode(response, as: GitHubUser.init(json:))
        user.scopes = response.header("x-oauth-scopes").map { header in
            header.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        }
        return user
    }
}
