import DoogitSupport
import Testing

@Suite("JSONParser: numbers")
struct JSONParserNumberTests {
    @Test("numbers keep their literal text", arguments: [
        "0", "-0", "1", "-1", "123456789", "0.5", "-0.0", "1.25", "1e10", "1E10", "1e+10", "1e-10", "-1.5E-7",
        "0e0", "3.141592653589793238462643383279", "1.0", "100",
    ])
    func literalText(text: String) throws {
        #expect(try JSONParser.parse(text) == .number(text))
        #expect(try JSONParser.parse("[" + text + "]") == .array([.number(text)]))
        #expect(try JSONParser.parse("{\"n\":" + text + "}")["n"] == .number(text))
    }

    @Test("64-bit ids survive exactly, beyond Double precision")
    func bigIDs() throws {
        let value = try JSONParser.parse(#"{"id": 9223372036854775807, "min": -9223372036854775808, "odd": 9007199254740993}"#)
        #expect(value["id"] == .number("9223372036854775807"))
        #expect(try value.int64("id") == Int64.max)
        #expect(try value.int64("min") == Int64.min)
        #expect(try value.int64("odd") == 9_007_199_254_740_993)  // 2^53 + 1, not representable as Double
    }

    @Test("numbers too large for Int64 are still kept as text")
    func hugeNumbers() throws {
        let text = "123456789012345678901234567890"
        #expect(try JSONParser.parse(text) == .number(text))
        #expect(try JSONParser.parse("1e400") == .number("1e400"))
    }

    @Test("malformed numbers are refused", arguments: [
        "-", "+1", ".5", "1.", "1.e5", "1e", "1e+", "1E-", "01", "-01", "00", "0x10", "1.2.3", "--1", "- 1",
        "Infinity", "-Infinity", "NaN", "1e5.5", "[1.]", "[-]", "{\"a\":01}",
    ])
    func malformed(text: String) {
        #expect(syntaxError(text) != nil, "\(text) should be refused")
    }

    @Test("offsets of number errors")
    func numberErrorOffsets() {
        #expect(syntaxError("-")?.offset == 1)
        #expect(syntaxError("1.")?.offset == 2)
        #expect(syntaxError("1e+")?.offset == 3)
        #expect(syntaxError("01")?.offset == 1)  // "0" is a whole number; the "1" is left over
        #expect(syntaxError("[1.x]")?.offset == 3)
    }
}
