@testable import DoogitGitHub
import Testing
import TestSupport

/// Every part of a request's path is percent-encoded by one rule, and no part changes the
/// path's shape.
@Suite struct URLPathTests {
    /// The bytes a percent-encoded text stands for; nil when a `%` is not followed by two hex digits.
    static func decoded(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return bytes
    }

    /// Only RFC 3986's unreserved characters and `%XX`: nothing that ends a segment (`/`), starts
    /// a query (`?`) or a fragment (`#`), a bare `%`, a space or a byte outside ASCII.
    static func isEncodedPart(_ text: String) -> Bool {
        func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                index += 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
                index += 3
            default:
                return false
            }
        }
        return true
    }

    /// Texts made of what names and paths hold and what could change a URL: reserved characters,
    /// `%`, dots, spaces, controls, and letters outside ASCII.
    static func randomText(_ random: inout SplitMix64) -> String {
        let pieces = ["a", "Z", "0", "-", "_", "~", ".", "..", "/", "?", "#", "%", "%2F", "&", "=", "+", " ", ":", "@", ";",
                      "é", "ß", "漢", "😀", "\u{0}", "\n", "\u{7F}", "\\", "[", "]", "'", "\"", "<", ">"]
        let count = Int.random(in: 0...8, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random) ?? "a" }.joined()
    }

    @Test func aPartDecodesToItsBytesAndHoldsNothingThatShapesAPath() {
        var random = SplitMix64(seed: 0x5EED_0037)
        for _ in 0..<5000 {
            let part = Self.randomText(&random)
            let encoded = URLPath.encoded(part)
            #expect(Self.decoded(encoded) == Array(part.utf8), "\(FuzzText.describe(part)) -> \(encoded)")
            #expect(Self.isEncodedPart(encoded), "\(FuzzText.describe(part)) -> \(encoded)")
            #expect(encoded != "." && encoded != "..", "\(FuzzText.describe(part))")
        }
    }

    @Test func segmentsKeepTheirSlashesAndNothingElse() {
        var random = SplitMix64(seed: 0x5EED_0038)
        for _ in 0..<3000 {
            let path = Self.randomText(&random)
            let encoded = URLPath.encodedSegments(path)
            let originals = path.split(separator: "/", omittingEmptySubsequences: false)
            let segments = encoded.split(separator: "/", omittingEmptySubsequences: false)
            #expect(segments.count == originals.count, "\(FuzzText.describe(path)) -> \(encoded)")
            for (segment, original) in zip(segments, originals) {
                #expect(Self.decoded(String(segment)) == Array(original.utf8))
                #expect(Self.isEncodedPart(String(segment)) && segment != "." && segment != "..", "\(encoded)")
            }
        }
    }

    /// `/repos/OWNER/NAME` has its three segments whatever the owner and name hold.
    @Test func aRepositoryPathHasItsShapeWhateverTheNames() {
        var random = SplitMix64(seed: 0x5EED_0039)
        for _ in 0..<3000 {
            let owner = Self.randomText(&random), name = Self.randomText(&random)
            for path in [URLPath.repository(owner: owner, name: name), URLPath.repository(owner + "/" + name)]
                where !owner.contains("/") {
                let segments = path.split(separator: "/", omittingEmptySubsequences: false)
                #expect(segments.count == 4 && segments[1] == "repos", "\(path)")
                #expect(segments.count == 4 && Self.decoded(String(segments[2])) == Array(owner.utf8)
                        && Self.decoded(String(segments[3])) == Array(name.utf8), "\(path)")
            }
        }
    }

    @Test func examples() {
        #expect(URLPath.encoded("Hello-World_1.0~x") == "Hello-World_1.0~x")
        #expect(URLPath.encoded("héllo") == "h%C3%A9llo")
        #expect(URLPath.encoded("..") == "%2E%2E")
        #expect(URLPath.encoded(".") == "%2E")
        #expect(URLPath.encoded("...") == "...")
        #expect(URLPath.encoded("../user") == "..%2Fuser")
        #expect(URLPath.encoded("a/b?x=") == "a%2Fb%3Fx%3D")
        #expect(URLPath.encoded("100%") == "100%25")
        #expect(URLPath.encoded("#1") == "%231")
        #expect(URLPath.encodedSegments("a/../b/./c.jsonl") == "a/%2E%2E/b/%2E/c.jsonl")
        #expect(URLPath.repository("octocat/../user") == "/repos/octocat/..%2Fuser")
        #expect(URLPath.repository(owner: "..", name: "user") == "/repos/%2E%2E/user")
        #expect(URLPath.repository("naïve/répo") == "/repos/na%C3%AFve/r%C3%A9po")
    }
}
