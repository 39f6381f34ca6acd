import Foundation
import Testing
import TestSupport

/// Local commands must start as fast as a C tool: they never load libcurl (opened on first
/// network use) and the binary links no Foundation.
@Suite(.serialized)
struct StartupTests {
    /// The names of the shared libraries the dynamic loader opened for one run, from glibc's
    /// LD_DEBUG report: lines such as `file=libsqlite3.so.0 [0];  needed by …` or
    /// `file=libcurl.so.4 [0];  dynamically loaded by …`.
    func loadedLibraries(_ sandbox: Sandbox, _ arguments: [String]) -> [String] {
        var environment = sandbox.environment
        environment["LD_DEBUG"] = "files"
        let result = ChildProcess.run(DoogitBinary.path, arguments, environment: environment)
        return result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=")?.upperBound else { return nil }
            return String(line[start...].prefix(while: { $0 != " " }))
        }
    }

    func loads(_ libraries: [String], _ prefix: String) -> Bool {
        libraries.contains { $0.hasPrefix(prefix) || $0.contains("/" + prefix) }
    }

    @Test func localCommandsNeverLoadLibcurl() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        // The detector sees libcurl, in the same report, where a command does use the network.
        for arguments in [["repo", "add", "octocat/repo"], ["auth", "status"]] {
            let network = loadedLibraries(sandbox, arguments)
            #expect(loads(network, "libcurl"), "\(arguments) must load libcurl: \(network)")
        }
        for arguments in [["--version"], ["todo", "list"], ["todo", "add", "-R", "repo", "x"], ["todo", "done", "1"],
                          ["repo", "list", "--json"], ["help", "todo"]] {
            let libraries = loadedLibraries(sandbox, arguments)
            // An empty or unreadable report would prove nothing: it must name what every run loads.
            #expect(loads(libraries, "libc.so"), "\(arguments): no loader report: \(libraries)")
            #expect(loads(libraries, "libsqlite3"), "\(arguments): no loader report: \(libraries)")
            #expect(!loads(libraries, "libcurl"), "\(arguments) loaded libcurl")
            #expect(!libraries.contains { $0.contains("Foundation") }, "\(arguments) loaded Foundation")
        }
    }
}
