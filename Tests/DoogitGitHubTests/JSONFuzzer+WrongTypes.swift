@testable import DoogitGitHub
import DoogitSupport
import Foundation
import Testing
import TestSupport

extension JSONFuzzer {
    /// The fields each decoder reads, and which values of them it must accept.
    static func repositoryFieldAccepts(_ field: String, _ value: JSONValue?) -> Bool? {
        switch field {
        case "id":
            guard case .number(let text)? = value, let id = Int64(text) else { return false }
            return id > 0
        case "name":
            guard case .string(let text)? = value else { return false }
            return !text.isEmpty
        case "full_name", "html_url":
            if case .string? = value { return true }
            return false
        case "private":
            if case .bool? = value { return true }
            return false
        case "archived":
            switch value {
            case nil, .null?, .bool?: return true
            default: return false
            }
        case "description", "pushed_at", "updated_at", "default_branch":
            switch value {
            case nil, .null?, .string?: return true
            default: return false
            }
        case "permissions":
            // Not every answer has it (listings may leave it out): only its `push` is read.
            guard let value, value != .null else { return true }
            guard case .object = value else { return false }
            switch value["push"] {
            case nil, .null?, .bool?: return true
            default: return false
            }
        case "owner":
            // Null or left out (some of GitHub's schemas allow it): the full name names the owner.
            guard let value, value != .null else { return true }
            guard case .object = value, case .string(let login)? = value["login"] else { return false }
            return !login.isEmpty
        default:
            return nil  // not read: anything goes
        }
    }

    static let wrongValues: [JSONValue] = [
        .null, .bool(true), .bool(false), .number("0"), .number("-1"), .number("1.5"), .number("1e400"),
        .number("99999999999999999999"), .number("9223372036854775808"), .number("-9223372036854775809"),
        .number("9223372036854775807"), .string(""), .string("x"), .string("1"), .string("\u{1B}[31m\u{202E}"),
        .array([]), .array([.number("1")]), .object([]), .object([JSONMember("login", .string("x"))]),
        .object([JSONMember("login", .string(""))]),
    ]

    /// Each wrong value, then nil: the field removed.
    static let wrongValuesOrRemoved: [JSONValue?] = wrongValues.map { $0 } + [nil]

    /// Every field of a repository, of its owner and of a user, replaced by each wrong type or removed.
    static func runWrongTypes(progressPath: String) {
        let progress = FuzzProgressLog(path: progressPath)
        FuzzWatchdog.start(seconds: 120, progress: progress)
        let report = Report("FuzzResponse wrong types")
        let repository = Fixtures.json("repo-full.json")
        let user = Fixtures.json("user.json")
        guard case .object(let members) = repository, case .object(let userMembers) = user,
              case .object(let ownerMembers)? = repository["owner"] else {
            report.fail("the fixtures repo-full.json and user.json are not objects")
            return
        }
        let baseline = try? GitHubRepository(json: repository)
        if baseline == nil { report.fail("repo-full.json does not decode") }
        // The documents below are built as values; each wrong value also goes through the parser,
        // alone and in a whole repository.
        for value in wrongValues {
            let text = JSONWriter.write(value)
            progress.note("FuzzResponse wrong types: parsing \(FuzzText.describe(text))")
            exercise(Array(text.utf8), "the value \(FuzzText.describe(text))", report: report)
            exercise(Array(JSONWriter.write(repository.replacing(["id": value, "description": value])).utf8),
                     "a repository with id and description \(FuzzText.describe(text))", report: report, roundTrip: false)
        }

        func check(_ document: JSONValue, expectSuccess: Bool, equalTo expected: GitHubRepository?, _ description: String) {
            progress.note("FuzzResponse wrong types: \(description)")
            switch Result(catching: { () throws(JSONError) in try GitHubRepository(json: document) }) {
            case .success(let decoded):
                if !expectSuccess { report.fail("\(description): decoded although it must not: \(decoded)") }
                if expectSuccess, let expected, decoded != expected {
                    report.fail("\(description): decoded to \(decoded), expected \(expected)")
                }
            case .failure(let error):
                if expectSuccess { report.fail("\(description): refused with \(error)") }
            }
        }

        for member in members {
            for value in wrongValuesOrRemoved {
                let document: JSONValue
                if let value {
                    document = repository.replacing([member.key: value])
                } else {
                    document = .object(members.filter { $0.key != member.key })
                }
                let accepts = repositoryFieldAccepts(member.key, value)
                var expected = baseline
                if accepts == true {
                    expected = nil  // accepted with another value: not compared
                }
                check(document, expectSuccess: accepts ?? true, equalTo: expected,
                      "repository field '\(member.key)' = \(value.map { FuzzText.describe(JSONWriter.write($0)) } ?? "(removed)")")
            }
        }
        for member in ownerMembers {
            for value in wrongValuesOrRemoved {
                let owner: JSONValue = value.map { JSONValue.object(ownerMembers).replacing([member.key: $0]) }
                    ?? .object(ownerMembers.filter { $0.key != member.key })
                let accepts = repositoryFieldAccepts("owner", owner)
                check(repository.replacing(["owner": owner]), expectSuccess: accepts ?? true,
                      equalTo: member.key == "login" ? nil : baseline,
                      "owner field '\(member.key)' = \(value.map { FuzzText.describe(JSONWriter.write($0)) } ?? "(removed)")")
            }
        }
        for member in userMembers {
            for value in wrongValuesOrRemoved {
                let document = value.map { user.replacing([member.key: $0]) } ?? .object(userMembers.filter { $0.key != member.key })
                let description = "user field '\(member.key)' = \(value.map { FuzzText.describe(JSONWriter.write($0)) } ?? "(removed)")"
                progress.note("FuzzResponse wrong types: \(description)")
                var accepts = true
                switch member.key {
                case "login":
                    if case .string? = value {} else { accepts = false }
                case "id":
                    if case .number(let text)? = value, Int64(text) != nil {} else { accepts = false }
                default:
                    break
                }
                switch Result(catching: { () throws(JSONError) in try GitHubUser(json: document) }) {
                case .success(let decoded):
                    if !accepts { report.fail("\(description): decoded although it must not: \(decoded)") }
                case .failure(let error):
                    if accepts { report.fail("\(description): refused with \(error)") }
                }
            }
        }
        report.finish()
    }
}
