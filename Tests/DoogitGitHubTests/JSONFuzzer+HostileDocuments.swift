@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

extension JSONFuzzer {
    /// Deep nesting, huge strings, numbers beyond Int64, odd escapes.
    static func runHostileDocuments(progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse hostile documents")
        let levels = 100_000
        let deep: [(String, [UInt8], Bool)] = [
            ("100,000 '['", Array(repeating: UInt8(ascii: "["), count: levels), false),
            ("100,000 nested arrays, closed", Array(repeating: UInt8(ascii: "["), count: levels) + Array(repeating: UInt8(ascii: "]"), count: levels), false),
            ("100,000 '{\"a\":'", Array(String(repeating: "{\"a\":", count: levels).utf8), false),
            ("100,000 nested objects, closed", Array((String(repeating: "{\"a\":", count: levels) + "1" + String(repeating: "}", count: levels)).utf8), false),
            ("100,000 alternating '[{\"a\":'", Array(String(repeating: "[{\"a\":", count: levels / 2).utf8), false),
            ("a repository whose owner is nested 100,000 deep",
             Array(("{\"id\":1,\"name\":\"x\",\"full_name\":\"a/x\",\"html_url\":\"u\",\"private\":false,\"owner\":"
                    + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}").utf8), false),
            ("100 nested arrays", Array(repeating: UInt8(ascii: "["), count: 100) + Array(repeating: UInt8(ascii: "]"), count: 100), true),
        ]
        for (description, bytes, valid) in deep {
            progress.note("FuzzResponse hostile documents: \(description)")
            let result = exercise(bytes, description, report: report, roundTrip: bytes.count < 200_000)
            switch result {
            case .success where !valid: report.fail("\(description): parsed")
            case .failure(let error) where valid: report.fail("\(description): refused with \(error)")
            case .failure(let error) where !valid && error != .tooDeep:
                report.fail("\(description): refused with \(error), expected .tooDeep")
            default: break
            }
        }

        let repository = Fixtures.json("repo-full.json")
        let huge = String(repeating: "é漢👍🏽x", count: 1 << 16)  // about 800 kB of UTF-8
        let hugeCases: [(String, JSONValue, Bool)] = [
            ("an 800 kB description", repository.replacing(["description": .string(huge)]), true),
            ("an 800 kB name", repository.replacing(["name": .string(huge)]), true),
            ("an 800 kB member name", repository.replacing([huge: .string("x")]), true),
            ("an id of 100,000 digits", repository.replacing(["id": .number(String(repeating: "9", count: 100_000))]), false),
            ("an id of Int64.max", repository.replacing(["id": .number(String(Int64.max))]), true),
            ("an id of Int64.max + 1", repository.replacing(["id": .number("9223372036854775808")]), false),
            ("an id with an exponent of 100,000 digits", repository.replacing(["id": .number("1e" + String(repeating: "9", count: 100_000))]), false),
        ]
        for (description, document, decodes) in hugeCases {
            progress.note("FuzzResponse hostile documents: \(description)")
            let bytes = Array(JSONWriter.write(document).utf8)
            guard case .success(let value) = exercise(bytes, description, report: report, roundTrip: false) else {
                report.fail("\(description): did not parse")
                continue
            }
            let decoded = try? GitHubRepository(json: value)
            if (decoded != nil) != decodes { report.fail("\(description): decoded \(decoded != nil), expected \(decodes)") }
        }

        // Whether each must parse: true, false, or nil for either (a byte order mark may be skipped).
        let documents: [(String, String, Bool?)] = [
            ("a string of 100,000 escapes", "\"" + String(repeating: "\\u0000", count: 100_000) + "\"", true),
            ("100,000 lone surrogates", "\"" + String(repeating: "\\uD800", count: 100_000) + "\"", true),
            ("50,000 reversed surrogate pairs", "\"" + String(repeating: "\\uDC00\\uD800", count: 50_000) + "\"", true),
            ("a high surrogate then a bad escape", "\"\\uD800\\uZZZZ\"", false),
            ("a high surrogate at the end", "\"\\uD800", false),
            ("a high surrogate and a backslash at the end", "\"\\uD800\\", false),
            ("a high surrogate and \\u at the end", "\"\\uD800\\u", false),
            ("a number of 100,000 digits", String(repeating: "7", count: 100_000), true),
            ("a negative number of 100,000 digits", "-" + String(repeating: "7", count: 100_000), true),
            ("a fraction of 100,000 digits", "0." + String(repeating: "7", count: 100_000), true),
            ("100,000 elements", "[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]", true),
            ("20,000 members with one name", "{" + Array(repeating: "\"a\":1", count: 20_000).joined(separator: ",") + "}", true),
            ("whitespace only", String(repeating: " \n\t\r", count: 25_000), false),
            ("a lone minus", "-", false), ("a minus and a dot", "-.", false), ("a leading zero", "01", false),
            ("an exponent without digits", "1e", false), ("an exponent sign only", "1e+", false), ("NaN", "NaN", false),
            ("Infinity", "-Infinity", false), ("a BOM", "\u{FEFF}{}", nil), ("two documents", "{}{}", false),
            ("a NUL after the document", "{}\u{0}", false), ("a trailing comma", "[1,]", false),
            ("a member without value", "{\"a\":}", false), ("single quotes", "{'a':1}", false),
            ("an unquoted name", "{a:1}", false),
        ]
        for (description, text, valid) in documents {
            progress.note("FuzzResponse hostile documents: \(description)")
            let result = exercise(Array(text.utf8), description, report: report, roundTrip: text.utf8.count < 200_000)
            switch (result, valid) {
            case (.success, false?): report.fail("\(description): parsed")
            case (.failure(let error), true?): report.fail("\(description): refused with \(error)")
            default: break
            }
        }
        progress.note("FuzzResponse hostile documents: done")
        report.finish()
    }
}
