import DoogitSupport
import Foundation

/// A repository renamed or transferred, as GitHub keeps it: every route under its former
/// OWNER/NAME (`/repos/{owner}/{repo}/...`, Git Data and Contents included) is redirected to
/// the same route under its id (`/repositories/{id}/...`, query kept), with 301 for a GET and
/// 307 for any other method (GitHub's docs, "Best practices for using the REST API": follow
/// redirects), as long as no repository has taken the name since; and every route is served
/// under the id as under the name. Its files and git objects go with it.
extension FakeGitHub {
    /// The path's parts with a route under a repository's id (`/repositories/{id}/...`) named by
    /// OWNER/NAME instead, as the other routes take it (under the lock).
    func namedByOwner(_ parts: [String]) -> [String] {
        guard parts.count > 2, parts[0] == "repositories", let id = Int64(parts[1]), let repository = repositories[id],
              !deleted.contains(id) else { return parts }
        return ["repos", repository.owner, repository.name] + parts.dropFirst(2)
    }

    /// GitHub's redirect of a request to a repository's former name, or its 404 for a route under
    /// the id of no repository (under the lock); nil when neither applies.
    func renamedOrMissing(_ request: ReceivedRequest, _ parts: [String]) -> ServerResponse? {
        if parts.count > 2, parts[0] == "repositories" { return .json(404, Fixtures.text("error-404.json")) }
        guard parts.count > 2, parts[0] == "repos" else { return nil }
        let fullName = "\(parts[1])/\(parts[2])".lowercased()
        guard !repositories.values.contains(where: { $0.fullName.lowercased() == fullName && !deleted.contains($0.id) }),
              let id = formerNames[fullName], !deleted.contains(id) else { return nil }
        var location = "\(apiURL)/repositories/\(id)" + parts.dropFirst(3).map { "/" + $0 }.joined()
        if let query = request.target.firstIndex(of: "?") { location += request.target[query...] }
        let status = request.method == "GET" ? 301 : 307
        let moved = Fixtures.json("error-301-moved.json").replacing([
            "url": .string(location), "message": .string(status == 301 ? "Moved Permanently" : "Temporary Redirect"),
        ])
        return .json(status, JSONWriter.write(moved), headers: [("Location", location)])
    }
}

extension FakeContents {
    /// The repository's git objects, now under its new name (renamed or transferred).
    func renameRepository(from former: String, to fullName: String) {
        locked {
            guard let objects = repositories.removeValue(forKey: former.lowercased()) else { return }
            repositories[fullName.lowercased()] = objects
        }
    }
}
