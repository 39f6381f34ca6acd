import Foundation
import Testing
@testable import DoogitCLI

@Suite struct PathsTests {
    func database(_ environment: [String: String], option: String? = nil) throws -> String {
        try Paths(environment: environment).database(option: option)
    }

    @Test(arguments: [
        ([String: String](), "/from/option.sqlite3"),
        (["DOOGIT_DB": "/env/db.sqlite3"], "/from/option.sqlite3"),
        (["DOOGIT_DB": "/env/db.sqlite3", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/from/option.sqlite3"),
    ])
    func theOptionComesFirst(environment: [String: String], expected: String) throws {
        #expect(try database(environment, option: "/from/option.sqlite3") == expected)
    }

    @Test func theOptionNeedsNoHome() throws {
        #expect(try database([:], option: "relative.sqlite3") == "relative.sqlite3")
    }

    @Test(arguments: [
        (["DOOGIT_DB": "/env/db.sqlite3", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/env/db.sqlite3"),
        (["DOOGIT_DB": "", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/xdg/doogit/doogit.sqlite3"),
        (["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/xdg/doogit/doogit.sqlite3"),
        (["XDG_DATA_HOME": "relative/data", "HOME": "/home/u"], "/home/u/.local/share/doogit/doogit.sqlite3"),
        (["XDG_DATA_HOME": "", "HOME": "/home/u"], "/home/u/.local/share/doogit/doogit.sqlite3"),
        (["HOME": "/home/u"], "/home/u/.local/share/doogit/doogit.sqlite3"),
        (["DOOGIT_DB": "/env/db.sqlite3"], "/env/db.sqlite3"),
        (["XDG_DATA_HOME": "/xdg"], "/xdg/doogit/doogit.sqlite3"),
    ])
    func precedence(environment: [String: String], expected: String) throws {
        #expect(try database(environment) == expected)
    }

    @Test(arguments: [[String: String](), ["HOME": ""], ["XDG_DATA_HOME": "relative"], ["DOOGIT_DB": ""]])
    func missingHomeIsAClearFailure(environment: [String: String]) throws {
        let failure = try #require(throws: CommandFailure.self) { try database(environment) }
        #expect(failure.message.contains("HOME"))
        #expect(failure.hint?.contains("--db") == true)
        #expect(ErrorReporter.report(failure, databasePath: nil).code == .failure)
    }

    @Test(arguments: [
        (["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"], "/cfg/doogit"),
        (["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"], "/home/u/.config/doogit"),
        (["HOME": "/home/u"], "/home/u/.config/doogit"),
    ])
    func configDirectory(environment: [String: String], expected: String) throws {
        #expect(try Paths(environment: environment).configDirectory() == expected)
    }

    @Test func configDirectoryWithoutHome() throws {
        #expect(throws: CommandFailure.self) { try Paths(environment: [:]).configDirectory() }
    }

    // MARK: In-process

    @Test func withoutHomeALocalCommandFailsWithOneLine() {
        let harness = CLIHarness()
        harness.environment = ["PATH": "/usr/bin:/bin"]
        let result = harness.run("todo", "list")
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.errorLines == ["doogit: error: HOME is not set, so doogit cannot find its files; set HOME, or give the database with --db PATH"])
    }

    @Test func withoutHomeTheOptionStillWorks() {
        let harness = CLIHarness()
        harness.environment = ["PATH": "/usr/bin:/bin"]
        let path = harness.directory.path + "/explicit/db.sqlite3"
        let result = harness.run("todo", "list", "--db", path)
        #expect(result.code == 0)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theDatabaseGoesWhereThePrecedenceSays() {
        let harness = CLIHarness()
        let fromOption = harness.directory.path + "/option/db.sqlite3"
        let fromVariable = harness.directory.path + "/variable/db.sqlite3"
        let fromXDG = harness.directory.path + "/xdg"
        harness.environment["DOOGIT_DB"] = fromVariable
        harness.environment["XDG_DATA_HOME"] = fromXDG
        #expect(harness.run("--db=" + fromOption, "todo", "list").code == 0)
        #expect(FileManager.default.fileExists(atPath: fromOption))
        #expect(!FileManager.default.fileExists(atPath: fromVariable))
        #expect(harness.run("todo", "list").code == 0)
        #expect(FileManager.default.fileExists(atPath: fromVariable))
        #expect(!FileManager.default.fileExists(atPath: fromXDG))
        harness.environment["DOOGIT_DB"] = nil
        #expect(harness.run("repo", "list").code == 0)
        #expect(FileManager.default.fileExists(atPath: fromXDG + "/doogit/doogit.sqlite3"))
        #expect(!FileManager.default.fileExists(atPath: harness.defaultDatabasePath))
        harness.environment["XDG_DATA_HOME"] = "relative"
        #expect(harness.run("repo", "list").code == 0)
        #expect(FileManager.default.fileExists(atPath: harness.defaultDatabasePath))
    }

    @Test func newFoldersAreMode700AndTheFileMode600() throws {
        let harness = CLIHarness()
        #expect(harness.run("todo", "list").code == 0)
        let manager = FileManager.default
        let file = try manager.attributesOfItem(atPath: harness.defaultDatabasePath)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        for folder in [harness.home + "/.local/share/doogit", harness.home + "/.local/share", harness.home + "/.local"] {
            let attributes = try manager.attributesOfItem(atPath: folder)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(folder)")
        }
    }
}
