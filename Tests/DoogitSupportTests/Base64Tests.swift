import DoogitSupport
import Foundation
import Testing
import TestSupport

@Suite struct Base64Tests {
    @Test func agreesWithFoundationForRandomBytes() {
        var random = SplitMix64(seed: 64)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let encoded = Base64.encode(bytes)
            #expect(encoded == Data(bytes).base64EncodedString())
            #expect(Base64.decode(encoded) == bytes)
            // GitHub breaks its base64 into lines of 60 characters.
            #expect(Base64.decode(Data(bytes).base64EncodedString(options: .lineLength64Characters)) == bytes)
        }
    }

    @Test func readsTheSpecExampleWithItsLiteralBackslashN() {
        #expect(Base64.decode(#"aGVs\nbG8=\n"#).map { String(decoding: $0, as: UTF8.self) } == "hello")
    }

    @Test(arguments: ["a", "ab=c", "abc*", "ab==cd==", "a===", #"ab\x"#])
    func refusesWhatIsNotBase64(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
