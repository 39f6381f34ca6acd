import DoogitStore
import Foundation
import Testing
import TestSupport

/// The database file and its folder fail in ways the user can fix: each failure names the real
/// cause and what to do, following the advice works, reading works from a read-only copy, and
/// a failed write changes nothing.
@Suite(.serialized)
struct DatabaseFileEndToEndTests {
    /// Root ignores file permissions, so as root the commands run as `nobody`.
    private static let isRoot = getuid() == 0

    /// A sandbox with one repository and a todo, owned by the user the commands run as.
    private func prepared() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1296269, owner: "octocat", name: "Hello-World", description: "hello")
        #expect(sandbox.run("repo", "add", "octocat/Hello-World").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "octocat/Hello-World", "first").status == 0)
        if Self.isRoot { try chown(sandbox.home.path, to: 65534) }
        return sandbox
    }

    private func chown(_ path: String, to user: uid_t) throws {
        let result = ChildProcess.run("/bin/chown", ["-R", "\(user):\(user)", path], environment: [:])
        try #require(result.status == 0, "chown: \(result.stderr)")
    }

    /// Runs doogit as a user whom file permissions apply to.
    private func runLimited(_ sandbox: Sandbox, _ arguments: [String]) -> ProcessResult {
        guard Self.isRoot else { return sandbox.run(arguments) }
        return ChildProcess.run("/usr/bin/setpriv",
                                ["--reuid=65534", "--regid=65534", "--clear-groups", "--", DoogitBinary.path] + arguments,
                                environment: sandbox.environment, timeoutSeconds: 60)
    }

    private var folderOfDatabase: (Sandbox) -> String { { ($0.databasePath as NSString).deletingLastPathComponent } }

    @Test("a read-only folder: lists still work; a change names the folder, and the advice works")
    func readOnlyFolder() throws {
        let sandbox = try prepared()
        let folder = folderOfDatabase(sandbox)
        try #require(chmod(folder, 0o555) == 0)
        defer { chmod(folder, 0o700) }

        let list = runLimited(sandbox, ["todo", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("first"))
        #expect(runLimited(sandbox, ["repo", "list"]).status == 0)

        let before = try sandbox.snapshot()
        let add = runLimited(sandbox, ["todo", "add", "-R", "octocat/Hello-World", "second"])
        #expect(add.status == 1)
        #expect(add.stderrLines.count == 1)
        #expect(add.stderr.contains("cannot write in \(folder)") && add.stderr.contains("chmod u+w"), "\(add.stderr)")
        #expect(try sandbox.snapshot() == before)

        try #require(chmod(folder, 0o755) == 0)  // the advice: make the folder writable
        #expect(runLimited(sandbox, ["todo", "add", "-R", "octocat/Hello-World", "second"]).status == 0)
    }

    @Test("a read-only database file: lists still work; a change names the file")
    func readOnlyFile() throws {
        let sandbox = try prepared()
        try #require(chmod(sandbox.databasePath, 0o444) == 0)
        #expect(runLimited(sandbox, ["todo", "list"]).stdout.contains("first"))
        let add = runLimited(sandbox, ["todo", "done", "1"])
        #expect(add.status == 1)
        #expect(add.stderr.contains("read-only") && add.stderr.contains("chmod u+w '\(sandbox.databasePath)'"), "\(add.stderr)")
        // The advice: SQLite made its -wal and -shm files with the database's mode, and names them too.
        for path in [sandbox.databasePath, sandbox.databasePath + "-wal", sandbox.databasePath + "-shm"]
        where add.stderr.contains("'\(path)'") {
            try #require(chmod(path, 0o644) == 0)
        }
        let retry = runLimited(sandbox, ["todo", "done", "1"])
        #expect(retry.status == 0, "\(retry.stderr)")
    }

    @Test("a folder given as --db is named as a folder, with a file path to use instead")
    func folderAsDatabase() throws {
        let sandbox = try Sandbox()
        let result = sandbox.run("--db", sandbox.home.path, "todo", "list")
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a folder, not a database file") && result.stderr.contains("\(sandbox.home.path)/doogit.sqlite3"))
        #expect(sandbox.run("--db", sandbox.home.path + "/doogit.sqlite3", "todo", "list").status == 0)
    }

    @Test("a damaged database says so and how to start over; following that works")
    func damagedDatabase() throws {
        let sandbox = try prepared()
        let path = sandbox.databasePath
        do {
            let database = try Database(path: path)
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for index in 100..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 13 &+ 5) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = sandbox.run("todo", "list")
        #expect(result.status == 1)
        #expect(result.stderr.contains("is damaged") && result.stderr.contains("mv '\(path)' '\(path).damaged'"), "\(result.stderr)")
        try FileManager.default.moveItem(atPath: path, toPath: path + ".damaged")
        #expect(sandbox.run("todo", "list").status == 0)
    }

    @Test("another program's SQLite file given as --db is refused and left byte for byte as it was")
    func foreignDatabase() throws {
        let sandbox = try Sandbox()
        let path = sandbox.home.file("notes.sqlite")
        do { try Database(path: path).execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')") }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in [["todo", "list"], ["todo", "add", "-R", "o/n", "x"], ["repo", "list"]] {
            let result = sandbox.run(["--db", path] + arguments)
            #expect(result.status == 1)
            #expect(result.stderr.contains("another program's SQLite database"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a full disk: the failing command says the disk is full and changes nothing",
          .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func fullDisk() throws {
        let sandbox = try prepared()
        let mountPoint = sandbox.home.file("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        // Room for the new database (its WAL after the migrations is over 200 KB), not for the todos.
        let mount = ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint], environment: [:])
        try #require(mount.status == 0, "mount: \(mount.stderr)")
        defer { _ = ChildProcess.run("/bin/umount", ["-l", mountPoint], environment: [:]) }
        sandbox.environment["DOOGIT_DB"] = mountPoint + "/doogit.sqlite3"
        #expect(sandbox.run("repo", "add", "octocat/Hello-World").status == 0)
        let text = String(repeating: "fill the disk ", count: 700)
        var failure: ProcessResult?
        for _ in 0..<200 {
            let before = try databaseRows(mountPoint + "/doogit.sqlite3")
            let result = sandbox.run("todo", "add", "-R", "octocat/Hello-World", text)
            if result.status != 0 {
                failure = result
                #expect(try databaseRows(mountPoint + "/doogit.sqlite3") == before)
                break
            }
        }
        let result = try #require(failure, "the disk never filled")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("is full; nothing was changed"), "\(result.stderr)")
    }

    private func databaseRows(_ path: String) throws -> Int64 {
        let database = try Database(path: path, access: .readOnly)
        return try database.scalarInt("SELECT count(*) FROM todos") ?? -1
    }
}
