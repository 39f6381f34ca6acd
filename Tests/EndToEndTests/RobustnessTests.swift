import DoogitStore
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// doogit processes killed at random moments, run side by side, and watched for the token.
@Suite(.serialized)
struct RobustnessTests {
    func todos(_ sandbox: Sandbox) throws -> [(id: Int64, text: String, done: Bool)] {
        let database = try Database(path: sandbox.databasePath)
        return try database.query("SELECT id, text, done FROM todos ORDER BY id") { row throws(StoreError) in
            (try row.int64(0), try row.string(1), try row.bool(2))
        }
    }

    func integrity(_ sandbox: Sandbox) throws -> String? {
        try Database(path: sandbox.databasePath).scalarString("PRAGMA integrity_check")
    }

    @Test func writesKilledAtRandomMomentsLoseAndDuplicateNothing() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/repo").status == 0)
        for index in 0..<40 { #expect(sandbox.run("todo", "add", "-R", "repo", "base \(index)").status == 0) }
        var random = SplitMix64(seed: 20261129)
        var completedAdds: Set<String> = []
        for round in 0..<30 {
            let text = "attempt \(round)"
            let process: RunningProcess
            if round % 2 == 0 {
                process = try ChildProcess.spawn(DoogitBinary.path, ["todo", "add", "-R", "octocat/repo", text],
                                                 environment: sandbox.environment)
            } else {
                // Completing or reopening many todos is one transaction: all or nothing.
                let verb = round % 4 == 1 ? "done" : "undo"
                process = try ChildProcess.spawn(DoogitBinary.path, ["todo", verb] + (1...40).map(String.init),
                                                 environment: sandbox.environment)
            }
            usleep(UInt32.random(in: 0...12_000, using: &random))
            process.kill()
            let result = process.finish(timeoutSeconds: 10)
            if round % 2 == 0 && result.status == 0 { completedAdds.insert(text) }

            #expect(try integrity(sandbox) == "ok", "round \(round)")
            let rows = try todos(sandbox)
            let base = rows.filter { $0.text.hasPrefix("base ") }
            #expect(base.count == 40, "round \(round): a base todo was lost")
            #expect(Set(base.map(\.done)).count == 1, "round \(round): a multi-ID change was half applied")
            let attempts = rows.filter { $0.text.hasPrefix("attempt ") }.map(\.text)
            #expect(attempts.count == Set(attempts).count, "round \(round): a todo was duplicated")
            #expect(completedAdds.isSubset(of: Set(attempts)), "round \(round): a finished add was lost")
        }
        #expect(sandbox.run("todo", "list").status == 0)
    }

    @Test func killedSyncsLeaveAConsistentDatabase() throws {
        let sandbox = try Sandbox()
        for id in 0..<40 { sandbox.github.addRepository(id: Int64(100 + id), owner: "other", name: "r\(id)", description: "v0") }
        #expect(sandbox.run(["repo", "add"] + (0..<40).map { "other/r\($0)" }).status == 0)
        for id in 0..<40 where id % 4 == 0 { #expect(sandbox.run("todo", "add", "-R", "other/r\(id)", "keep \(id)").status == 0) }
        sandbox.github.setDelay(milliseconds: 40)
        var random = SplitMix64(seed: 7)
        for round in 1...10 {
            for id in 0..<40 { sandbox.github.update(Int64(100 + id)) { $0.description = "v\(round)" } }
            if round == 5 { sandbox.github.rename(104, to: "renamed") }
            let sync = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: sandbox.environment)
            usleep(UInt32.random(in: 20_000...600_000, using: &random))
            sync.kill()
            _ = sync.finish(timeoutSeconds: 10)
            #expect(try integrity(sandbox) == "ok")
            #expect(try todos(sandbox).count == 10, "round \(round)")
            #expect(sandbox.run("repo", "list", "--json").stdout.components(separatedBy: "\"fullName\"").count == 41)
        }
        sandbox.github.setDelay(milliseconds: 0)
        #expect(sandbox.run("sync", "--quiet").status == 0)
        let list = sandbox.run("todo", "list").stdout
        #expect(list.contains("other/renamed  v10\n  ○  2  keep 4\n"), "\(list)")
        #expect(list.components(separatedBy: "  v10\n").count == 11)
    }

    @Test func parallelWritersAndASyncAllSucceed() throws {
        let sandbox = try Sandbox()
        for id in 0..<30 { sandbox.github.addRepository(id: Int64(100 + id), owner: "other", name: "r\(id)", description: nil) }
        #expect(sandbox.run(["repo", "add"] + (0..<30).map { "other/r\($0)" }).status == 0)
        for id in 0..<30 { sandbox.github.update(Int64(100 + id)) { $0.description = "changed" } }
        sandbox.github.setDelay(milliseconds: 100)
        let sync = try ChildProcess.spawn(DoogitBinary.path, ["sync"], environment: sandbox.environment)
        let writers = 4, each = 15
        let results = ResultBox()
        let environment = sandbox.environment
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for index in 0..<each {
                let added = ChildProcess.run(DoogitBinary.path, ["todo", "add", "-R", "other/r\(writer)", "w\(writer) n\(index)"],
                                             environment: environment)
                results.append(added)
                if index % 3 == 0 {
                    results.append(ChildProcess.run(DoogitBinary.path, ["todo", "done", "1"], environment: environment))
                }
            }
        }
        let syncResult = sync.finish(timeoutSeconds: 60)
        #expect(syncResult.status == 0, "\(syncResult.stderr)")
        for result in results.all {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("locked") && !result.stderr.contains("busy"))
        }
        let texts = try todos(sandbox).map(\.text)
        #expect(texts.count == writers * each)
        #expect(Set(texts).count == writers * each)
        #expect(sandbox.run("repo", "list").stdout.components(separatedBy: "changed").count == 31)
    }

    @Test func theTokenAppearsNowhere() throws {
        let sandbox = try Sandbox()
        let token = sandbox.github.token
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        sandbox.environment["GH_TOKEN"] = nil
        #expect(sandbox.run(["auth", "login", "--with-token"], stdin: token).status == 0)
        var outputs: [ProcessResult] = []
        for arguments in [["-v", "repo", "add", "octocat/repo"], ["-v", "repo", "add", "octocat/none"], ["-v", "sync"],
                          ["-v", "repo", "search"], ["-v", "auth", "status"], ["-v", "auth", "status", "--json"],
                          ["todo", "add", "-R", "repo", "x"], ["-v", "todo", "list", "--json"]] {
            outputs.append(sandbox.run(arguments))
        }
        sandbox.github.script { _ in .json(401, Fixtures.text("error-401.json")) }
        outputs.append(sandbox.run("-v", "repo", "add", "octocat/repo"))
        sandbox.github.script { _ in .json(403, #"{"message":"nope"}"#, headers: [("x-ratelimit-remaining", "0")]) }
        outputs.append(sandbox.run("-v", "sync"))
        sandbox.github.stop()
        outputs.append(sandbox.run("-v", "sync"))
        for output in outputs {
            #expect(!output.stdout.contains(token) && !output.stderr.contains(token))
        }
        for request in sandbox.github.requests { #expect(!request.target.contains(token)) }

        // Only the 0600 token file holds it; not the database, its WAL, the lock, or anything else.
        let tokenFile = sandbox.home.path + "/.config/doogit/tokens"
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let walker = FileManager.default.enumerator(atPath: sandbox.home.path)
        var checked = 0
        while let relative = walker?.nextObject() as? String {
            let path = sandbox.home.path + "/" + relative
            guard path != tokenFile, let data = FileManager.default.contents(atPath: path) else { continue }
            checked += 1
            #expect(data.range(of: Data(token.utf8)) == nil, "\(relative) holds the token")
        }
        #expect(checked >= 2)
    }

    @Test func invalidUTF8ArgumentsAreUsageErrors() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        #expect(sandbox.run("repo", "add", "octocat/repo").status == 0)
        let before = try todos(sandbox).count
        // The shell passes raw bytes that are not UTF-8.
        let cases = [
            ("todo add -R repo \"$(printf '\\377\\376')\"", Int32(2)),   // refused, never read as U+FFFD
            ("todo done \"$(printf '1\\377')\"", Int32(2)),
            ("\"$(printf 't\\377do')\" list", Int32(2)),
            ("todo list \"$(printf '\\300\\257')\"", Int32(2)),
        ]
        for (line, status) in cases {
            let result = ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" " + line, DoogitBinary.path],
                                          environment: sandbox.environment)
            #expect(result.status == status, "\(line): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal"))
            #expect(result.stderrLines.count == 1 && result.stderr.contains("is not UTF-8 text"), "\(line): \(result.stderr)")
        }
        #expect(try todos(sandbox).count == before)
    }
}

final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [ProcessResult] = []

    func append(_ result: ProcessResult) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    var all: [ProcessResult] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
