import Foundation
import Testing
@testable import DoogitCLI
import DoogitGitHub
@testable import DoogitStore
import DoogitSupport
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Generated command lines run in-process through `Doogit.run`, against a small prepared
/// database, with a transport that refuses every request. For every vector: the exit code is
/// one the contract names; a failure prints exactly one clean `doogit: error: ` line on stderr;
/// a failure leaves the database as it was.
///
/// Each batch runs in a child process (an exit test), so a trap in doogit fails the test with
/// the seed and the input that caused it instead of taking the whole test run down. Every case
/// is derived from (seed, case number) alone: `ArgumentFuzzer.makeCase(seed:index:world:)`
/// rebuilds any reported case.
struct FuzzArgumentsTests {
    static let seeds: [UInt64] = [0x5EED_A001, 0x5EED_A002, 0x5EED_A003, 0x5EED_A004]
    static let casesPerSeed = 800

    @Test(arguments: seeds)
    func generatedCommandLinesKeepTheContract(seed: UInt64) async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success,
                                     "the batch of seed \(FuzzText.hex(seed)) must run to its end without a trap") {
            [seed = seed as UInt64, root = scratch.path as String, progress = progress as String,
             cases = Self.casesPerSeed as Int] in
            do {
                try ArgumentFuzzer.runBatch(seed: seed, cases: cases, root: root, progressPath: progress)
            } catch {
                Issue.record("FuzzArguments seed \(FuzzText.hex(seed)): the batch could not run: \(error)")
            }
        }
        recordUnfinished(finished, "FuzzArguments seed \(FuzzText.hex(seed))", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    // MARK: The harness itself, and a few inputs of each kind checked in-process

    /// The comparison of dumps would miss nothing: every kind of write shows in it, and a reset
    /// brings the prepared rows back.
    @Test func theDumpSeesEveryWrite() throws {
        let root = TemporaryDirectory()
        let world = try ArgumentFuzzWorld(root: root.path)
        let prepared = try world.dump()
        #expect(prepared.count(where: { $0.hasPrefix("repositories: ") }) == 3)
        #expect(prepared.count(where: { $0.hasPrefix("todos: ") }) == 4)
        #expect(prepared.count(where: { $0.hasPrefix("todo_tombstones: ") }) == 1)
        for arguments in [["todo", "done", "1"], ["todo", "undo", "2"], ["todo", "edit", "1", "new", "text"], ["todo", "rm", "3"],
                          ["todo", "add", "-R", "acme/widgets", "more"], ["repo", "rm", "--force", "other/widgets"]] {
            let result = world.run(FuzzCase(arguments: arguments, environment: world.baseEnvironment))
            #expect(result.code == 0, "\(arguments): exit \(result.code), stderr \(result.stderr.debugDescription)")
            #expect(try world.dump() != prepared, "\(arguments) changed nothing the dump shows")
            try world.reset()
            // Todos get new random UUIDs on each reset; everything else is as prepared.
            let again = try world.dump()
            #expect(again.count == prepared.count)
            #expect(again.filter { $0.hasPrefix("repositories: ") } == prepared.filter { $0.hasPrefix("repositories: ") })
        }
    }

    /// Odd and huge IDs are usage errors (exit 2) that change nothing, never a trap on Int64 overflow.
    @Test func hugeAndOddIDsAreUsageErrors() throws {
        let root = TemporaryDirectory()
        let world = try ArgumentFuzzWorld(root: root.path)
        for id in ["99999999999999999999", "9223372036854775808", "-9223372036854775808", "0x1", "1e3", "1.0", "+1",
                   " 1", "１", "٣", "0", "-0"] {
            let before = try world.dump()
            let result = world.run(FuzzCase(arguments: ["todo", "done", id], environment: world.baseEnvironment))
            #expect(result.code == 2, "todo done \(id.debugDescription): exit \(result.code), stderr \(result.stderr.debugDescription)")
            #expect(result.errorLines.count == 1 && result.stderr.hasPrefix("doogit: error: "),
                    "todo done \(id.debugDescription): stderr \(result.stderr.debugDescription)")
            #expect(try world.dump() == before)
        }
    }
}

/// After an exit test: when the child process did not end normally, an issue naming the case
/// it had started last (or the watchdog's note).
fileprivate func recordUnfinished(_ finished: ExitTest.Result?, _ label: String, progressPath: String) {
    guard finished == nil else { return }
    Issue.record(Comment(rawValue: "\(label): the child process trapped or hung; the last case it started: \(FuzzProgressLog.lastLine(of: progressPath))"))
}
