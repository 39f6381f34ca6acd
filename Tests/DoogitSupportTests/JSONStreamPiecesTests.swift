import DoogitSupport
import Testing

/// Compact documents, timestamps written in place, and a document drained piece by piece.
@Suite struct JSONStreamPiecesTests {
    @Test func compactHasNoSpacesOrLineBreaks() {
        var json = JSONStream(indented: false)
        json.beginObject()
        json.key("a"); json.int(1)
        json.key("b"); json.beginArray(); json.bool(true); json.null(); json.endArray()
        json.key("c"); json.beginObject(); json.endObject()
        json.endObject()
        #expect(json.text == #"{"a":1,"b":[true,null],"c":{}}"# + "\n")
    }

    @Test func timestampsAreRFC3339Strings() {
        for indented in [false, true] {
            var json = JSONStream(indented: indented)
            json.beginArray()
            json.timestamp(Timestamp(secondsSinceEpoch: 1_700_000_000))
            json.timestamp(nil)
            json.timestamp(Timestamp(millisecondsSinceEpoch: -62_198_755_200_001))  // before year 0: the long form
            json.endArray()
            var expected = JSONStream(indented: indented)
            expected.beginArray()
            expected.string("2023-11-14T22:13:20.000Z")
            expected.null()
            expected.string(Timestamp(millisecondsSinceEpoch: -62_198_755_200_001).rfc3339)
            expected.endArray()
            #expect(json.text == expected.text)
        }
    }

    @Test func aDrainedDocumentIsTheSameDocument() {
        func write(_ stream: inout JSONStream, draining drained: inout [UInt8]?) {
            stream.beginArray()
            for index in 0..<5 {
                stream.beginObject(); stream.key("i"); stream.int(Int64(index)); stream.endObject()
                if drained != nil { drained? += stream.drain() }
            }
            stream.endArray()
        }
        var whole = JSONStream(), pieces = JSONStream()
        var none: [UInt8]? = nil, drained: [UInt8]? = []
        write(&whole, draining: &none)
        write(&pieces, draining: &drained)
        #expect(drained.map { $0 + pieces.bytes } == whole.bytes)
    }
}
