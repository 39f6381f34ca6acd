import DoogitSupport
import Foundation
import Testing
import TestSupport

/// Output that cannot be written is a failure; a reader that went away is not.
@Suite(.serialized) struct OutputTests {
    /// Runs doogit through `sh -c SCRIPT`, where "$@" is doogit and its arguments.
    func shell(_ sandbox: Sandbox, _ script: String, _ arguments: [String]) -> ProcessResult {
        ChildProcess.run("/bin/sh", ["-c", script, "sh", DoogitBinary.path] + arguments, environment: sandbox.environment)
    }

    @Test func aFullDiskIsExitOneWithOneLine() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo")
        #expect(sandbox.run("repo", "add", "octocat/repo").status == 0)
        for arguments in [["todo", "list", "--json"], ["repo", "list"], ["--version"], ["help", "todo"]] {
            let result = shell(sandbox, "exec \"$@\" > /dev/full", arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "doogit: error: cannot write the output (No space left on device); anything the command changed is saved, so check where standard output goes before running it again\n", "\(arguments)")
        }
    }

    /// The change is committed before the output is written, so it is kept: the message says so.
    @Test func aChangeIsKeptWhenItsOutputCannotBeWritten() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "repo")
        #expect(sandbox.run("repo", "add", "octocat/repo").status == 0)
        let result = shell(sandbox, "exec \"$@\" > /dev/full", ["todo", "add", "-R", "repo", "--json", "kept"])
        #expect(result.status == 1)
        #expect(sandbox.run("todo", "list").stdout.contains("kept"))
    }

    /// Writes doogit's stdout into a pipe whose reader has already closed it.
    func runIntoClosedPipe(_ script: String) throws -> (status: Int32, stderr: String) {
        let sandbox = try Sandbox()
        let output = try Subprocess.makePipe()
        close(output.read)
        let errors = try Subprocess.makePipe()
        let pid = try Subprocess.spawn("/bin/sh", arguments: ["/bin/sh", "-c", script, "sh", DoogitBinary.path, "--version"],
                                       environment: sandbox.environment, stdin: .nullDevice,
                                       stdout: .descriptor(output.write), stderr: .descriptor(errors.write))
        close(output.write)
        close(errors.write)
        let (collected, complete) = Subprocess.readUntilClosed([errors.read], deadline: Deadline(millisecondsFromNow: 60_000))
        close(errors.read)
        if !complete { kill(pid, SIGKILL) }
        return (Subprocess.waitForExit(pid), String(decoding: collected[0], as: UTF8.self))
    }

    @Test func aClosedPipeStopsDoogitQuietlyAsItStopsCat() throws {
        let result = try runIntoClosedPipe("exec \"$@\"")
        #expect(result.status == 128 + SIGPIPE)
        #expect(result.stderr.isEmpty)
    }

    @Test func aClosedPipeWithSIGPIPEIgnoredIsNotAnError() throws {
        let result = try runIntoClosedPipe("trap '' PIPE; exec \"$@\"")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
    }
}
