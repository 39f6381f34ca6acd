import Foundation
import Testing
import TestSupport
@testable import DoogitCLI

/// `gh auth token` is run with a timeout that counts from the start.
/// The helpers are run by /bin/sh: a script just written cannot be executed while another test's
/// child, forked before it exec'd, holds the file open for writing (ETXTBSY).
@Suite(.serialized) struct ProgramRunnerTests {
    func script(_ body: String) throws -> (directory: TemporaryDirectory, path: String) {
        let directory = TemporaryDirectory()
        let path = directory.path + "/helper"
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return (directory, path)
    }

    @Test func theOutputOfAProgramThatEnds() throws {
        let helper = try script("printf 'ghp_token\\n'; exit 3")
        let result = ProgramRunner.run(["/bin/sh", helper.path], environment: ["PATH": "/usr/bin:/bin"], timeoutMilliseconds: 60_000)
        #expect(result?.status == 3)
        #expect(result?.output == "ghp_token\n")
    }

    @Test func aProgramThatCannotStartIsNil() {
        #expect(ProgramRunner.run(["no-such-program-here"], environment: ["PATH": "/nonexistent"]) == nil)
    }

    /// A helper that writes a byte now and then is never idle for long, yet must be stopped.
    @Test func aProgramThatTricklesOutputIsStoppedAtTheTimeout() throws {
        let helper = try script("i=0; while [ $i -lt 200 ]; do printf x; sleep 0.05; i=$((i+1)); done")
        let result = try #require(ProgramRunner.run(["/bin/sh", helper.path], environment: ["PATH": "/usr/bin:/bin"],
                                                    timeoutMilliseconds: 300))
        #expect(result.status == ProgramRunner.timedOut, "a helper stopped at the timeout says so")
        #expect(result.output.isEmpty)
    }
}
