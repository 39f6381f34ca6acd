import Foundation
import Testing
import TestSupport

/// Local commands must start as fast as a C tool: they never load libcurl (opened on first
/// network use) and the binary links no Foundation.
@Suite(.serialized)
struct StartupTests {
    /// The shared libraries the dynamic loader opened for one run, from glibc's LD_DEBUG report.
    func loadedLibraries(_ sandbox: Sandbox, _ arguments: [String]) -> String {
        var environment = sandbox.environment
        environment["LD_DEBUG"] = "files"
        let result = ChildProcess.run(DoogitBinary.path, arguments, environment: environment)
        return result.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
    }

    @Test func localCommandsNeverLoadLibcurl() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo", description: nil)
        let network = loadedLibraries(sandbox, ["repo", "add", "octocat/repo"])
        #expect(network.contains("libcurl"), "the check must see libcurl where it is used")
        for arguments in [["--version"], ["todo", "list"], ["todo", "add", "-R", "repo", "x"], ["todo", "done", "1"],
                          ["repo", "list", "--json"], ["help", "todo"]] {
            let libraries = loadedLibraries(sandbox, arguments)
            #expect(!libraries.isEmpty || !network.isEmpty)
            #expect(!libraries.contains("libcurl"), "\(arguments) loaded libcurl")
            #expect(!libraries.contains("Foundation"), "\(arguments) loaded Foundation")
        }
    }
}
