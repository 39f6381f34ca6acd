import DoogitGitHub
import DoogitSupport

/// The form in which sync caches a page of the user's repository listing: GitHub's JSON cut down
/// to the fields doogit reads, written as JSONWriter writes (indented).
enum ListingCodec {
    static func encode(_ repositories: [GitHubRepository]) -> String {
        JSONWriter.write(.array(repositories.map { repository in
            .object([
                JSONMember("id", .int(repository.id)),
                JSONMember("owner", .object([JSONMember("login", .string(repository.owner))])),
                JSONMember("name", .string(repository.name)),
                JSONMember("full_name", .string(repository.fullName)),
                JSONMember("description", .optional(repository.description)),
                JSONMember("html_url", .string(repository.htmlURL)),
                JSONMember("private", .bool(repository.isPrivate)),
                JSONMember("archived", repository.archived.map(JSONValue.bool) ?? .null),
                JSONMember("pushed_at", .optional(repository.pushedAt)),
                JSONMember("updated_at", .optional(repository.updatedAt)),
                JSONMember("default_branch", .optional(repository.defaultBranch)),
            ])
        }))
    }

    /// The cached repositories, or nil when the cache cannot be read (then it is not used).
    static func decode(_ text: String) -> [GitHubRepository]? {
        guard case .array(let elements)? = try? JSONParser.parse(text) else { return nil }
        var repositories: [GitHubRepository] = []
        for element in elements {
            guard let repository = try? GitHubRepository(json: element) else { return nil }
            repositories.append(repository)
        }
        return repositories
    }
}
