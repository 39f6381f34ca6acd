import Foundation
import Testing
@testable import DoogitCLI
import DoogitGitHub
@testable import DoogitStore
import DoogitSupport
import TestSupport

/// The argument fuzzer: batches of generated command lines, each run checked against the contract.
enum ArgumentFuzzer {
    static let allowedExitCodes: Set<Int32> = [0, 1, 2, 4, 75]
    static let maximumIssuesPerBatch = 20

    /// The generator of case `index` of a batch: a function of the seed and the index alone.
    static func makeCase(seed: UInt64, index: Int, world: ArgumentFuzzWorld) -> FuzzCase {
        var generator = ArgumentVectorGenerator(
            random: SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03)), world: world)
        return generator.makeCase()
    }

    static func runBatch(seed: UInt64, cases: Int, root: String, progressPath: String) throws {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let world = try ArgumentFuzzWorld(root: root + "/world")
        var recorded = 0
        var unrecorded: [String: Int] = [:]
        var exitCodes: [Int32: Int] = [:]
        for index in 0..<cases {
            let fuzzCase = makeCase(seed: seed, index: index, world: world)
            progress.note("FuzzArguments seed \(FuzzText.hex(seed)) case \(index): \(fuzzCase.summary)")
            let before = try world.dump()
            let result = world.run(fuzzCase)
            let after = try world.dump()
            exitCodes[result.code, default: 0] += 1
            let problems = check(fuzzCase, result, changed: before != after)
            if !problems.isEmpty {
                if recorded < maximumIssuesPerBatch {
                    recorded += 1
                    var message = """
                        FuzzArguments seed \(FuzzText.hex(seed)) case \(index): \(problems.joined(separator: "; "))
                          \(fuzzCase.summary)
                          exit \(result.code)
                          stdout \(FuzzText.describe(result.stdout))
                          stderr \(FuzzText.describe(result.stderr))
                        """
                    if before != after {
                        message += "\n  rows before \(before.filter { !after.contains($0) })"
                        message += "\n  rows after \(after.filter { !before.contains($0) })"
                    }
                    Issue.record(Comment(rawValue: message))
                } else {
                    for problem in problems { unrecorded[problem, default: 0] += 1 }
                }
            }
            // Successful commands may change the database; start the next case from the prepared rows.
            if before != after { try world.reset() }
        }
        if !unrecorded.isEmpty {
            Issue.record(Comment(rawValue: "FuzzArguments seed \(FuzzText.hex(seed)): more failures not shown: \(unrecorded)"))
        }
        // A batch of nothing but usage errors would check little: some runs must get past the parser.
        let pastTheParser = cases - (exitCodes[2] ?? 0)
        if exitCodes[0] == nil || pastTheParser < cases / 10 {
            Issue.record(Comment(rawValue: "FuzzArguments seed \(FuzzText.hex(seed)): too few runs got past the argument parser: exit codes \(exitCodes.sorted { $0.key < $1.key })"))
        }
        progress.note("FuzzArguments seed \(FuzzText.hex(seed)): \(cases) cases done; exit codes \(exitCodes.sorted { $0.key < $1.key })")
    }

    /// What is wrong with one run, as short phrases (empty: nothing).
    static func check(_ fuzzCase: FuzzCase, _ result: RunResult, changed: Bool) -> [String] {
        var problems: [String] = []
        if !allowedExitCodes.contains(result.code) { problems.append("exit code \(result.code) is not one of 0, 1, 2, 4, 75") }
        if result.stdout.contains(ArgumentFuzzWorld.token) || result.stderr.contains(ArgumentFuzzWorld.token) {
            problems.append("the token was printed")
        }
        guard result.code != 0 else { return problems }
        if changed { problems.append("a failing command changed the database") }
        if result.code == 2 && !result.stdout.isEmpty { problems.append("a usage error printed on stdout") }
        guard result.stderr.hasSuffix("\n") else {
            problems.append("stderr does not end with a line break")
            return problems
        }
        let lines = result.errorLines
        let errorLines = lines.filter { $0.hasPrefix("doogit: error: ") }
        if fuzzCase.mayBeVerbose {
            if errorLines.count != 1 || lines.last?.hasPrefix("doogit: error: ") != true {
                problems.append("stderr of a verbose failure does not end with exactly one 'doogit: error: ' line")
            }
        } else if lines.count != 1 || errorLines.count != 1 {
            problems.append("stderr is \(lines.count) lines, not one 'doogit: error: ' line")
        }
        for line in lines {
            if let scalar = line.unicodeScalars.first(where: FuzzText.isControl) {
                problems.append("stderr holds the control character U+\(String(scalar.value, radix: 16, uppercase: true))")
                break
            }
            if let scalar = line.unicodeScalars.first(where: FuzzText.isBidiControl) {
                problems.append("stderr holds the bidirectional control U+\(String(scalar.value, radix: 16, uppercase: true))")
                break
            }
        }
        return problems
    }
}

// What the fuzzer looks for in error lines (what every fuzzing suite shares is in TestSupport/Fuzzing.swift).

extension FuzzText {
    /// C0 (line breaks included: the caller splits lines first), DEL and C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Characters that reorder text on a terminal.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
