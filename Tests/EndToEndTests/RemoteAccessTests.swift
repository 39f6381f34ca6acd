import Testing
import TestSupport

/// A remote that another person's token may read but not write: GitHub answers such a write as
/// not found, which must not read as a repository gone.
@Suite(.serialized)
struct RemoteAccessTests: RemoteEndToEndSuite {
    @Test func aReaderWithoutPushAccessIsToldSoAndItsChangesWaitUntilItMayWrite() throws {
        let (github, machines) = try machines(1)
        let owner = machines[0]
        #expect(owner.run("todo", "add", "-R", "app", "from the owner").status == 0)
        #expect(owner.run("sync").status == 0)
        let data = try #require(github.repositoryNamed(Self.data))
        let hubot = github.addUser(login: "hubot")
        github.addCollaborator("hubot", to: 1, permission: .read)
        github.addCollaborator("hubot", to: data.id, permission: .read)

        let reader = try Sandbox(github: github)
        reader.environment["GH_TOKEN"] = hubot.token
        #expect(reader.run("repo", "add", "octocat/app").status == 0)
        let joined = reader.run("remote", "init", Self.data)
        #expect(joined.status == 0, "\(joined.stderr)")
        // It reads what the owner wrote; what it tracked waits (exit 1, one line naming why).
        let first = reader.run("sync")
        #expect(first.status == 1 && first.stderr.contains("the token can read \(Self.data) but not write to it"), "\(first.stderr)")
        #expect(try todos(reader) == ["octocat/app: from the owner"])

        #expect(reader.run("todo", "add", "-R", "app", "from the reader").status == 0)
        let files = github.contents.files(Self.data)
        let refused = reader.run("sync")
        #expect(refused.status == 1)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("the token can read \(Self.data) but not write to it"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("gone"), "\(refused.stderr)")
        #expect(github.contents.files(Self.data) == files, "nothing written")
        let status = reader.run("remote", "status").stdout
        #expect(status.contains("Waiting: ") && !status.contains("Waiting: nothing"), "\(status)")

        // Given write access, the change that waited goes, once.
        github.addCollaborator("hubot", to: data.id, permission: .write)
        let sent = reader.run("sync")
        #expect(sent.status == 0 && sent.stdout.hasPrefix("\(Self.data): sent "), "\(sent.stdout)|\(sent.stderr)")
        #expect(reader.run("remote", "status").stdout.contains("Waiting: nothing"))
        #expect(owner.run("sync").status == 0)
        #expect(try todos(owner) == ["octocat/app: from the owner, from the reader"])
    }

    /// A write that finds nothing while the token may push is no refusal: what it built on is not
    /// there yet (a lagging replica); the changes wait, the next sync reads anew and sends them.
    @Test func aWriteNotFoundWithPushAccessIsATemporaryFailure() throws {
        let (github, machines) = try machines(1)
        let owner = machines[0]
        #expect(owner.run("todo", "add", "-R", "app", "first").status == 0)
        #expect(owner.run("sync").status == 0)
        #expect(owner.run("todo", "add", "-R", "app", "second").status == 0)
        let first = Counter()
        github.script { request in
            guard request.method == "POST", request.path.hasSuffix("/git/trees"), first.next() == 1 else { return nil }
            return ServerResponse.json(404, #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/git/trees#create-a-tree","status":"404"}"#)
        }
        let failed = owner.run("sync")
        #expect(failed.status == 75, "\(failed.stderr)")
        #expect(failed.stderr.contains("GitHub cannot show the latest commit"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("not write") && !failed.stderr.contains("gone"), "\(failed.stderr)")
        let sent = owner.run("sync")
        #expect(sent.status == 0 && sent.stdout.hasPrefix("\(Self.data): sent "), "\(sent.stdout)|\(sent.stderr)")
    }
}
