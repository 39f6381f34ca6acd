import Foundation
import Testing
@testable import DoogitCLI
import DoogitGitHub
@testable import DoogitStore
import DoogitSupport
import TestSupport

/// Builds command lines from the words doogit knows, their typos, IDs, repository references,
/// hostile Unicode and very long strings.
struct ArgumentVectorGenerator {
    var random: SplitMix64
    let world: ArgumentFuzzWorld

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    mutating func makeCase() -> FuzzCase {
        var arguments: [String]
        switch int(0...99) {
        case 0...44: arguments = wellFormed()
        case 45...74: arguments = structured()
        default: arguments = unstructured()
        }
        arguments = withSafeDatabaseOptions(arguments)
        var environment = world.baseEnvironment
        if chance(0.45) { environment[chance(0.8) ? "GH_TOKEN" : "GITHUB_TOKEN"] = ArgumentFuzzWorld.token }
        if chance(0.1) { environment["GH_REPO"] = chance(0.5) ? pick(Self.validReferences) : pick(Self.malformedReferences) }
        if chance(0.05) {
            environment["DOOGIT_API_URL"] = pick(["http://example.com", "https://127.0.0.1:1", "not a url",
                                                  "https://api.github.com?x=1", "ftp://x", "http://127.0.0.1:9/api",
                                                  "https://[::1]:1", "https://", "https://a@b/"])
        }
        if chance(0.05) { environment["GH_HOST"] = pick(["github.com", "ghe.example.com", "", "evil host", "\u{1B}]0;x\u{7}", "a/b"]) }
        if chance(0.1) { environment[pick(["LANG", "LC_ALL", "LC_CTYPE"])] = pick(["C", "en_US.UTF-8", "POSIX", "tr_TR.UTF-8", ""]) }
        if chance(0.1) { environment[pick(["NO_COLOR", "CLICOLOR_FORCE"])] = pick(["1", "0", ""]) }
        let width: Int? = chance(0.2) ? pick([1, 2, 3, 5, 10, 40, 80, 300, 10_000]) : nil
        return FuzzCase(arguments: arguments, environment: environment, terminalWidth: width)
    }

    /// A command that could well run: the right kinds of arguments, mostly valid values, and
    /// options the command has; so that the runs reach the database and the network code.
    mutating func wellFormed() -> [String] {
        var arguments = pick(Self.runnablePaths)
        let smallIDs = ["1", "2", "3", "4", "5", "6", "1", "2", "3", "42", "0", "-1", "99999999999999999999"]
        func reference(_ generator: inout ArgumentVectorGenerator) -> String {
            generator.chance(0.75) ? generator.pick(Self.validReferences) : generator.referenceToken()
        }
        switch arguments.joined(separator: " ") {
        case "todo add":
            for _ in 0..<int(1...4) { arguments.append(chance(0.8) ? pick(Self.textWords) : textToken()) }
            if chance(0.6) {
                let value = reference(&self)
                arguments += pick([["-R", value], ["--repo", value], ["-R" + value], ["--repo=" + value]])
            }
        case "todo list", "todo ls":
            if chance(0.5) { arguments.append(reference(&self)) }
            for _ in 0..<int(0...2) { arguments.append(pick(["--open", "--done", "--all-repos", "--ascii"])) }
        case "todo done", "todo undo", "todo rm", "todo remove":
            for _ in 0..<int(1...3) { arguments.append(pick(smallIDs)) }
        case "todo edit":
            arguments.append(pick(smallIDs))
            for _ in 0..<int(1...3) { arguments.append(chance(0.8) ? pick(Self.textWords) : textToken()) }
        case "repo add":
            for _ in 0..<int(1...3) { arguments.append(reference(&self)) }
        case "repo remove", "repo rm":
            for _ in 0..<int(1...2) { arguments.append(reference(&self)) }
            if chance(0.5) { arguments.append(pick(["--force", "-f"])) }
        case "repo search":
            if chance(0.6) { arguments.append(pick(["wid", "HELLO", "", "漢", "x y"])) }
        case "sync":
            if chance(0.4) { arguments.append(pick(["--wait", "--dry-run", "-n"])) }
        case "auth login":
            if chance(0.7) { arguments.append("--with-token") }
        default:
            break
        }
        for _ in 0..<int(0...2) {
            let option = pick([["--json"], ["-q"], ["--quiet"], ["-v"], ["--verbose"], ["--color", pick(["auto", "always", "never"])],
                               ["--color=never"], ["--db", "placeholder"], ["-qv"], ["--help"]])
            if chance(0.5) { arguments.insert(contentsOf: option, at: 0) } else { arguments += option }
        }
        return arguments
    }

    /// A command path, arguments of the kinds it takes, options sprinkled in.
    mutating func structured() -> [String] {
        var path = pick(Self.commandPaths)
        if chance(0.12), !path.isEmpty {
            let index = int(0...(path.count - 1))
            path[index] = typo(path[index])
        }
        var arguments = path
        let count = int(0...3)
        switch path.joined(separator: " ") {
        case "todo done", "todo undo", "todo rm", "todo remove":
            for _ in 0..<max(1, count) { arguments.append(chance(0.8) ? pick(Self.ids) : anyToken()) }
        case "todo edit":
            arguments.append(chance(0.8) ? pick(Self.ids) : anyToken())
            for _ in 0..<count { arguments.append(textToken()) }
        case "todo add":
            for _ in 0..<max(1, count) { arguments.append(textToken()) }
        case "repo add", "repo remove", "repo rm", "todo list", "todo ls":
            for _ in 0..<count { arguments.append(referenceToken()) }
        case "repo search":
            for _ in 0..<min(count, 2) { arguments.append(chance(0.5) ? pick(["wid", "HELLO", "", "漢"]) : anyToken()) }
        default:
            for _ in 0..<min(count, 2) { arguments.append(anyToken()) }
        }
        for _ in 0..<int(0...3) {
            let position = int(0...arguments.count)
            arguments.insert(contentsOf: optionTokens(), at: position)
        }
        if chance(0.1) { arguments.insert("--", at: int(0...arguments.count)) }
        return arguments
    }

    /// Anything at all, up to a dozen tokens.
    mutating func unstructured() -> [String] {
        var arguments: [String] = []
        for _ in 0..<int(0...12) {
            if chance(0.2) { arguments += optionTokens() } else { arguments.append(anyToken()) }
        }
        return arguments
    }

    mutating func optionTokens() -> [String] {
        switch int(0...9) {
        case 0...3:
            return [pick(Self.flags)]
        case 4:
            let value = chance(0.8) ? pick(Self.colorValues) : anyToken()
            return chance(0.5) ? ["--color", value] : ["--color=" + value]
        case 5:
            let value = chance(0.85) ? referenceToken() : anyToken()
            switch int(0...5) {
            case 0: return ["-R", value]
            case 1: return ["-R" + value]
            case 2: return ["-R=" + value]
            case 3: return ["--repo=" + value]
            case 4: return ["-qR", value]
            default: return ["--repo", value]
            }
        case 6:
            return chance(0.5) ? ["--db", "placeholder"] : ["--db=placeholder"]
        case 7:
            let cluster = "-" + String((0..<int(1...4)).map { _ in pick(Array("qvhfnRxQ")) })
            return chance(0.5) ? [cluster] : [cluster, anyToken()]
        case 8:
            let name = pick(Self.optionNames)
            return chance(0.5) ? ["--" + typo(name)] : ["--" + name + "=" + anyToken()]
        default:
            return [pick(Self.flags), anyToken()]
        }
    }

    mutating func referenceToken() -> String {
        switch int(0...9) {
        case 0...3: return pick(Self.validReferences)
        case 4...6: return pick(Self.malformedReferences)
        case 7: return "a" + String(repeating: "/", count: int(2...40)) + "b"
        case 8:
            let host = pick(["gitlab.com", "github.com.evil.example", "evil.example", "127.0.0.1", "[::1]", "GITHUB.COM",
                             "github.com:443", "gïthub.com", "api.github.com"])
            return pick(["https://", "http://", "ssh://git@", "git://"]) + host + "/" + pick(["a/b", "octocat/Hello-World", "", "a", "a/b/c"])
        default: return anyToken()
        }
    }

    mutating func textToken() -> String {
        switch int(0...9) {
        case 0...5: return pick(Self.textWords)
        case 6: return pick(Self.unicodeWords)
        case 7: return pick(Self.controlCharacters) + pick(Self.textWords)
        default: return anyToken()
        }
    }

    mutating func anyToken() -> String {
        switch int(0...99) {
        case 0...14: return pick(Self.commandWords)
        case 15...22: return typo(pick(Self.commandWords))
        case 23...32: return pick(Self.flags)
        case 33...44: return pick(Self.ids)
        case 45...52: return pick(Self.validReferences)
        case 53...62: return pick(Self.malformedReferences)
        case 63...72: return pick(Self.unicodeWords)
        case 73...78: return pick(Self.controlCharacters)
        case 79...82: return ""
        case 83...84: return pick([" ", "\t", "\n", "  ", "\r\n"])
        case 85...89: return pick(Self.textWords)
        case 90...92: return pick(Self.longStrings)
        case 93...95: return String(Int64.random(in: Int64.min...Int64.max, using: &random))
        default:
            // A few pieces glued together.
            var text = ""
            for _ in 0..<int(2...4) {
                text += pick([pick(Self.commandWords), pick(Self.ids), pick(Self.unicodeWords), pick(Self.controlCharacters),
                              "/", "=", "-", "--", ":", "@", "."])
            }
            return text
        }
    }

    mutating func typo(_ word: String) -> String {
        var characters = Array(word)
        switch int(0...8) {
        case 0:
            if !characters.isEmpty { characters.remove(at: int(0...(characters.count - 1))) }
        case 1:
            characters.insert(pick(Array("abcdefghijklmnopqrstuvwxyz-_")), at: int(0...characters.count))
        case 2:
            if characters.count >= 2 {
                let index = int(0...(characters.count - 2))
                characters.swapAt(index, index + 1)
            }
        case 3:
            if !characters.isEmpty { characters[int(0...(characters.count - 1))] = pick(Array("aeiouxyz0ß漢")) }
        case 4:
            return word.uppercased()
        case 5:
            return word + pick([" ", "\t", "\u{A0}", "\u{200B}"])
        case 6:
            return pick(["-", "--"]) + word
        case 7:
            return word + pick(["\u{301}", "\u{1B}[0m", "\u{FFFD}", "=", "/"])
        default:
            characters += characters.suffix(1)
        }
        return String(characters)
    }

    /// `--db` must never name a file outside the temp folder (a relative path would land in the
    /// test process's working directory), so every value after or inside a `--db` becomes one
    /// of a few safe paths. Over-eager on purpose: it also rewrites words after a `--`.
    mutating func withSafeDatabaseOptions(_ arguments: [String]) -> [String] {
        var result = arguments
        var index = 0
        while index < result.count {
            if result[index] == "--db" {
                if index + 1 < result.count { result[index + 1] = safeDatabaseValue() }
                index += 2
                continue
            }
            if result[index].hasPrefix("--db=") { result[index] = "--db=" + safeDatabaseValue() }
            index += 1
        }
        return result
    }

    mutating func safeDatabaseValue() -> String {
        switch int(0...9) {
        case 0...4: return world.databasePath
        case 5: return world.otherDatabasePath
        case 6: return world.root
        case 7: return world.notADatabasePath
        case 8: return world.notADatabasePath + "/inside.sqlite3"
        default: return ""
        }
    }
}
