import Foundation
import Testing
@testable import DoogitCLI

/// The file of saved tokens: one for each API origin, saving or removing one keeps the others,
/// and an older doogit's single token is api.github.com's.
@Suite struct SavedTokensTests {
    let harness = CLIHarness()
    var directory: String { harness.home + "/.config/doogit" }

    func saved() throws -> SavedTokens { try SavedTokens(paths: Paths(environment: harness.environment)) }

    func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test func savingForOneOriginKeepsTheOthersAndFoldsInTheOlderFile() throws {
        try harness.writeFile("home/.config/doogit/token", "older-token\n")
        let tokens = try saved()
        #expect(try tokens.save("ghe-token", for: "https://ghe.example.com") == directory + "/tokens")
        #expect(try tokens.save("loopback-token", for: "http://127.0.0.1:8080") == directory + "/tokens")
        #expect(try tokens.entries() == ["https://api.github.com": "older-token", "https://ghe.example.com": "ghe-token",
                                         "http://127.0.0.1:8080": "loopback-token"])
        #expect(!FileManager.default.fileExists(atPath: directory + "/token"), "folded in, the older file is gone")
        #expect(try tokens.token(for: "https://api.github.com")?.path == directory + "/tokens")
        #expect(try mode(directory + "/tokens") == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["tokens"], "no temporary file is left")
    }

    @Test func aNewFolderIsPrivate() throws {
        _ = try saved().save("tok", for: "https://api.github.com")
        #expect(try mode(directory) == 0o700)
    }

    @Test func removingOneOriginKeepsTheOthers() throws {
        let tokens = try saved()
        _ = try tokens.save("a", for: "https://api.github.com")
        _ = try tokens.save("b", for: "https://ghe.example.com")
        #expect(try tokens.remove(origin: "https://api.github.com"))
        #expect(try tokens.entries() == ["https://ghe.example.com": "b"])
        #expect(try !tokens.remove(origin: "https://api.github.com"), "nothing left to remove")
        #expect(try tokens.remove(origin: "https://ghe.example.com"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/tokens"))
    }

    @Test func removingAPIGitHubComsTokenRemovesTheOlderFile() throws {
        try harness.writeFile("home/.config/doogit/token", "older-token\n")
        let tokens = try saved()
        #expect(try !tokens.remove(origin: "https://ghe.example.com"))
        #expect(FileManager.default.fileExists(atPath: directory + "/token"), "another origin's logout keeps it")
        #expect(try tokens.remove(origin: "https://api.github.com"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/token"))
    }

    /// Written by hand: origins in any case and with their scheme's port, CRLF line ends, tabs.
    @Test func originsAreReadAsOriginsCompare() throws {
        try harness.writeFile("home/.config/doogit/tokens", "HTTPS://GHE.Example.com:443\tghe\r\nhttp://LOCALHOST:80/ local\r\n")
        #expect(try saved().entries() == ["https://ghe.example.com": "ghe", "http://localhost": "local"])
    }
}
