@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

/// The decoder fuzzer: GitHub's answers as JSON, mutated, cut short, with fields of the wrong type
/// and hostile, through the parser and every decoder GitHubClient uses.
enum JSONFuzzer {
    static let fixtureNames = [
        "repo-full.json", "repo-simple-null-description.json", "user-repos.json", "user-repos-null-description.json",
        "user.json", "error-301-moved.json", "error-401.json", "error-403-rate-limit.json", "error-404.json",
        "error-422.json",
    ]
    static let maximumIssues = 20
    static let mutationsPerSeed = 2000

    static func fixtures() -> [(name: String, bytes: [UInt8])] {
        fixtureNames.map { ($0, Array(Fixtures.text($0).utf8)) }
    }

    /// Collects failures and records the first few as issues.
    final class Report {
        let label: String
        private var recorded = 0
        private var more = 0

        init(_ label: String) {
            self.label = label
        }

        func fail(_ message: String) {
            if recorded < JSONFuzzer.maximumIssues {
                recorded += 1
                Issue.record(Comment(rawValue: "\(label): \(message)"))
            } else {
                more += 1
            }
        }

        func finish() {
            if more > 0 { Issue.record(Comment(rawValue: "\(label): \(more) more failures not shown")) }
        }
    }

    /// Parses, decodes every way GitHubClient would, and checks that a parsed document writes
    /// back to the same value. Returns the parse result for further checks.
    @discardableResult
    static func exercise(_ bytes: [UInt8], _ describe: @autoclosure () -> String, report: Report,
                         roundTrip: Bool = true) -> Result<JSONValue, JSONError> {
        let parsed = Result { () throws(JSONError) in try JSONParser.parse(bytes) }
        if bytes.count <= 8192 {
            // How GitHubClient reads the message of an error answer.
            _ = GitHubClient.error(for: HTTPResponse(status: 422, body: bytes))
        }
        guard case .success(let value) = parsed else { return parsed }
        decodeEveryWay(value, describe(), report: report)
        guard roundTrip else { return parsed }
        let written = JSONWriter.write(value)
        switch Result(catching: { () throws(JSONError) in try JSONParser.parse(written) }) {
        case .success(let again):
            if again != value { report.fail("\(describe()): JSONWriter's output parses to another value") }
        case .failure(let error):
            report.fail("\(describe()): JSONWriter's output does not parse: \(error)")
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            let fromText = Result { () throws(JSONError) in try JSONParser.parse(text) }
            if case .success(let other) = fromText, other == value {} else {
                report.fail("\(describe()): parsing the text and its bytes disagree")
            }
        }
        return parsed
    }

    static func decodeEveryWay(_ value: JSONValue, _ description: String, report: Report) {
        var candidates = [value]
        if case .array(let elements) = value { candidates += elements }
        if let owner = value["owner"] { candidates.append(owner) }
        for candidate in candidates {
            do {
                let repository = try GitHubRepository(json: candidate)
                if repository.id <= 0 || repository.owner.isEmpty || repository.name.isEmpty {
                    report.fail("\(description): decoded a repository without a positive id, owner and name: \(repository)")
                }
            } catch {
                _ = error  // a JSONError, by the decoder's type
            }
            do {
                _ = try GitHubUser(json: candidate)
            } catch {
                _ = error
            }
        }
    }

    static let invalidUTF8: [[UInt8]] = [
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xFF],
        [0xFE], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xBF, 0xBF], [0xF8, 0x88, 0x80, 0x80, 0x80],
        [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0x80],
    ]
    static let interestingBytes: [UInt8] = Array("\"\\{}[],:-0123456789eE.+tfn /u".utf8) + [0x00, 0x01, 0x1F, 0x7F, 0x80, 0xC0, 0xFF]

    /// Byte flips, random insertions and invalid UTF-8 sequences in the fixtures.
    static func runMutations(seed: UInt64, progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse decoders seed \(FuzzText.hex(seed))")
        let fixtures = fixtures()
        var cases = 0

        // Byte flips, insertions of random and structural bytes, invalid UTF-8.
        for index in 0..<mutationsPerSeed {
            var random = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
            let (name, original) = fixtures[Int.random(in: 0..<fixtures.count, using: &random)]
            guard !original.isEmpty else { continue }
            var bytes = original
            var steps: [String] = []
            let kind = index % 3
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch kind {
                case 0:
                    let mask = UInt8.random(in: 1...255, using: &random)
                    bytes[position] ^= mask
                    steps.append("flip \(position) ^\(mask)")
                case 1:
                    let count = Int.random(in: 1...16, using: &random)
                    let inserted: [UInt8] = (0..<count).map { _ in
                        Bool.random(using: &random) ? interestingBytes.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                    }
                    bytes.insert(contentsOf: inserted, at: position)
                    steps.append("insert \(inserted) at \(position)")
                default:
                    let sequence = invalidUTF8.randomElement(using: &random)!
                    // Mostly inside a string, where a parser must carry it through.
                    let target = bytes[position...].firstIndex(of: UInt8(ascii: "\"")).map { $0 + 1 } ?? position
                    bytes.insert(contentsOf: sequence, at: min(target, bytes.count))
                    steps.append("insert \(sequence) at \(min(target, bytes.count))")
                }
            }
            cases += 1
            let description = "case \(index): \(name) \(steps.joined(separator: ", "))"
            progress.note("FuzzResponse decoders seed \(FuzzText.hex(seed)) \(description)")
            exercise(bytes, description, report: report)
        }
        progress.note("FuzzResponse decoders seed \(FuzzText.hex(seed)): \(cases) cases done")
        report.finish()
    }

    /// Truncations at every N bytes of every fixture (every byte near both ends): a proper prefix
    /// of an object or array document is never a document, and the whole one parses.
    static func runTruncations(progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse truncations")
        var cases = 0
        for (name, bytes) in fixtures() where !bytes.isEmpty {
            let full = try? JSONParser.parse(bytes)
            let lastSignificant = bytes.lastIndex { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } ?? 0
            let stride = max(1, bytes.count / 400)
            var cuts = Set(Swift.stride(from: 0, through: bytes.count, by: stride))
            cuts.formUnion(0...min(48, bytes.count))
            cuts.formUnion(max(0, bytes.count - 48)...bytes.count)
            for cut in cuts.sorted() {
                cases += 1
                let description = "\(name) cut at byte \(cut) of \(bytes.count)"
                progress.note("FuzzResponse truncations: \(description)")
                let result = exercise(Array(bytes[..<cut]), description, report: report)
                switch result {
                case .success(let value) where cut <= lastSignificant:
                    report.fail("\(description): a truncated document parsed as \(FuzzText.describe(JSONWriter.write(value)))")
                case .success(let value) where value != full:
                    report.fail("\(description): the whole document parsed differently")
                case .failure where cut > lastSignificant:
                    report.fail("\(description): the whole document (and trailing whitespace) did not parse")
                default:
                    break
                }
            }
        }
        progress.note("FuzzResponse truncations: \(cases) cases done")
        report.finish()
    }
}
