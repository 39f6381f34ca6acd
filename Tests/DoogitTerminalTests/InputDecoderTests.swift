import DoogitTerminal
import Testing

/// Decodes `bytes` fed all at once, then flushed.
private func decodeWhole(_ bytes: [UInt8]) -> [InputEvent] {
    var decoder = InputDecoder()
    return decoder.feed(bytes) + decoder.flush()
}

/// Decodes `bytes` fed one at a time (as a slow terminal or a tiny read delivers them), then
/// flushed.
private func decodeByteByByte(_ bytes: [UInt8]) -> [InputEvent] {
    var decoder = InputDecoder()
    var events: [InputEvent] = []
    for byte in bytes { events += decoder.feed([byte]) }
    return events + decoder.flush()
}

private func decodeBothWays(_ text: String) -> [InputEvent] {
    let whole = decodeWhole(Array(text.utf8))
    let oneByOne = decodeByteByByte(Array(text.utf8))
    #expect(whole == oneByOne, "fed one byte at a time")
    return whole
}

private func key(_ key: Key, alt: Bool = false) -> InputEvent { .key(key, alt: alt) }
private func characters(_ text: String) -> [InputEvent] { text.map { .key(.character($0), alt: false) } }

@Suite("InputDecoder")
struct InputDecoderTests {
    @Test("printable ASCII are characters, at once")
    func ascii() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("hi there!~".utf8)) == characters("hi there!~"))
        #expect(!decoder.isWaiting)
    }

    @Test("Enter, Tab, Backspace and Ctrl letters", arguments: [
        (0x0D, Key.enter), (0x0A, .enter), (0x09, .tab), (0x7F, .backspace), (0x08, .backspace),
        (0x01, .control("a")), (0x03, .control("c")), (0x05, .control("e")), (0x0B, .control("k")),
        (0x11, .control("q")), (0x17, .control("w")), (0x1A, .control("z")),
    ] as [(UInt8, Key)])
    func controls(byte: UInt8, expected: Key) {
        var decoder = InputDecoder()
        #expect(decoder.feed([byte]) == [key(expected)])
        #expect(!decoder.isWaiting)
    }

    @Test("no Ctrl letter for the bytes of Tab, Enter and Backspace; other controls are dropped")
    func controlGaps() {
        let all = decodeWhole(Array(0...0x1A).filter { $0 != 0x1B })
        #expect(!all.contains(key(.control("h"))))
        #expect(!all.contains(key(.control("i"))))
        #expect(!all.contains(key(.control("j"))))
        #expect(!all.contains(key(.control("m"))))
        #expect(all.filter { if case .key(.control, _) = $0 { true } else { false } }.count == 22)
        #expect(decodeWhole([0x00, 0x1C, 0x1D, 0x1E, 0x1F]) == [])
    }

    @Test("escape sequences of keys", arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        ("\u{1B}[1;5A", .up), ("\u{1B}[1;2B", .down), ("\u{1B}[1;3C", .right), ("\u{1B}[1;5D", .left),
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}[1;5H", .home),
        ("\u{1B}[2~", .insert), ("\u{1B}[3~", .delete), ("\u{1B}[3;5~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[Z", .backTab),
        ("\u{1B}OP", .function(1)), ("\u{1B}OQ", .function(2)), ("\u{1B}OR", .function(3)), ("\u{1B}OS", .function(4)),
        ("\u{1B}[1;2P", .function(1)), ("\u{1B}[11~", .function(1)), ("\u{1B}[14~", .function(4)),
        ("\u{1B}[15~", .function(5)), ("\u{1B}[17~", .function(6)), ("\u{1B}[18~", .function(7)), ("\u{1B}[19~", .function(8)),
        ("\u{1B}[20~", .function(9)), ("\u{1B}[21~", .function(10)), ("\u{1B}[23~", .function(11)), ("\u{1B}[24~", .function(12)),
        ("\u{1B}OM", .enter),
    ] as [(String, Key)])
    func sequence(bytes: String, expected: Key) {
        #expect(decodeBothWays(bytes) == [key(expected)])
        var decoder = InputDecoder()
        #expect(decoder.feed(Array(bytes.utf8)) == [key(expected)], "without waiting for a flush")
        #expect(!decoder.isWaiting)
    }

    @Test("keys between characters keep their order")
    func mixed() {
        #expect(decodeBothWays("a\u{1B}[Ab\r\u{1B}[3~c\u{7F}") == [
            key(.character("a")), key(.up), key(.character("b")), key(.enter), key(.delete), key(.character("c")), key(.backspace),
        ])
    }

    @Test("a lone ESC waits, and is Escape only when flushed")
    func loneEscape() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [key(.escape)])
        #expect(!decoder.isWaiting)
        #expect(decoder.flush() == [])
    }

    @Test("ESC then the rest of a sequence in the next read is the sequence, not Escape")
    func escapeThenRest() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(Array("[".utf8)) == [])
        #expect(decoder.feed(Array("B".utf8)) == [key(.down)])
        #expect(!decoder.isWaiting)
    }

    @Test("ESC ESC: the first is Escape at once")
    func escapeEscape() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B, 0x1B]) == [key(.escape)])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [key(.escape)])
        #expect(decodeBothWays("\u{1B}\u{1B}[A") == [key(.escape), key(.up)])
    }

    @Test("Alt with a key is ESC before it")
    func alt() {
        #expect(decodeBothWays("\u{1B}x") == [key(.character("x"), alt: true)])
        #expect(decodeBothWays("\u{1B}X\u{1B}1") == [key(.character("X"), alt: true), key(.character("1"), alt: true)])
        #expect(decodeBothWays("\u{1B}é") == [key(.character("é"), alt: true)])
        #expect(decodeBothWays("\u{1B}\u{7F}") == [key(.backspace, alt: true)])
        #expect(decodeBothWays("\u{1B}\r") == [key(.enter, alt: true)])
        #expect(decodeBothWays("\u{1B}\u{02}") == [key(.control("b"), alt: true)])
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}x".utf8)) == [key(.character("x"), alt: true)], "at once")
    }

    @Test("a sequence cut off by a pause is its keys: ESC [ is Alt-[, ESC O is Alt-O")
    func partialSequenceFlushed() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [key(.character("["), alt: true)])
        #expect(decoder.feed(Array("\u{1B}O".utf8)) == [])
        #expect(decoder.flush() == [key(.character("O"), alt: true)])
        #expect(decoder.feed(Array("\u{1B}[1;".utf8)) == [])
        #expect(decoder.flush() == [key(.character("["), alt: true)] + characters("1;"))
        #expect(!decoder.isWaiting)
    }

    @Test("unknown CSI sequences are skipped whole, never typed", arguments: [
        "\u{1B}[99~", "\u{1B}[?1;2c", "\u{1B}[>0;95;0c", "\u{1B}[12;40R", "\u{1B}[1 q", "\u{1B}[I", "\u{1B}[O", "\u{1B}[201~",
        "\u{1B}[38;5;196m", "\u{1B}[<0;1;1M\u{1B}[<66;3;3M",
    ])
    func unknownSkipped(sequence: String) {
        let events = decodeBothWays("a" + sequence + "b")
        #expect(events.first == key(.character("a")))
        #expect(events.last == key(.character("b")))
        #expect(events.filter { if case .key = $0 { true } else { false } }.count == 2)
    }

    @Test("unknown SS3 sequences are skipped")
    func unknownSingleShift() {
        #expect(decodeBothWays("a\u{1B}Oxb") == characters("ab"))
    }

    @Test("SGR mouse: press and release, 1-based to 0-based, buttons")
    func mouse() {
        #expect(decodeBothWays("\u{1B}[<0;1;1M") == [.mouse(MouseEvent(action: .press, button: 0, column: 0, row: 0))])
        #expect(decodeBothWays("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(action: .release, button: 0, column: 9, row: 4))])
        #expect(decodeBothWays("\u{1B}[<2;120;40M") == [.mouse(MouseEvent(action: .press, button: 2, column: 119, row: 39))])
        #expect(decodeBothWays("\u{1B}[<1;3;4M") == [.mouse(MouseEvent(action: .press, button: 1, column: 2, row: 3))])
        #expect(decodeBothWays("\u{1B}[<16;3;4M") == [.mouse(MouseEvent(action: .press, button: 0, column: 2, row: 3))], "Ctrl held")
        #expect(decodeBothWays("\u{1B}[<32;7;8M") == [.mouse(MouseEvent(action: .drag, button: 0, column: 6, row: 7))])
    }

    @Test("SGR mouse: the wheel")
    func wheel() {
        #expect(decodeBothWays("\u{1B}[<64;5;6M") == [.mouse(MouseEvent(action: .wheelUp, button: 0, column: 4, row: 5))])
        #expect(decodeBothWays("\u{1B}[<65;5;6M") == [.mouse(MouseEvent(action: .wheelDown, button: 0, column: 4, row: 5))])
    }

    @Test("malformed mouse reports are skipped", arguments: [
        "\u{1B}[<0;1M", "\u{1B}[<;1;1M", "\u{1B}[<0;1;1;1M", "\u{1B}[<0;;1M", "\u{1B}[<0;1;1X",
    ])
    func malformedMouse(sequence: String) {
        let events = decodeBothWays(sequence + "z")
        #expect(events.last == key(.character("z")))
        #expect(!events.contains(key(.character("M"))))
    }

    @Test("huge coordinates do not overflow")
    func hugeCoordinates() {
        let events = decodeBothWays("\u{1B}[<0;99999999999999999999999;2M")
        #expect(events.count <= 1)
    }

    @Test("a paste is one event, its newlines not Enter and its letters not keys")
    func paste() {
        #expect(decodeBothWays("\u{1B}[200~hello\r\nworld\tq\u{1B}[201~x") == [.paste("hello\nworld\tq"), key(.character("x"))])
        #expect(decodeBothWays("\u{1B}[200~a\rb\nc\u{1B}[201~") == [.paste("a\nb\nc")])
        #expect(decodeBothWays("\u{1B}[200~\u{1B}[201~") == [.paste("")])
    }

    @Test("a paste split across many reads, with escape sequences and other controls inside")
    func pasteSplit() {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        #expect(decoder.feed(Array("\u{1B}[2".utf8)) == [])
        for piece in ["00~first ", "\u{1B}[A\u{1B}", "[3~ 日", "本\u{07}\u{1B}[20", "0~ end\u{1B}[", "201", "~"] {
            events += decoder.feed(Array(piece.utf8))
            if piece != "~" {
                #expect(decoder.isWaiting)
                #expect(decoder.flush() == [], "a pause inside a paste does not end it")
            }
        }
        #expect(events == [.paste("first [A[3~ 日本[200~ end")])
        #expect(!decoder.isWaiting)
    }

    @Test("UTF-8 split across reads")
    func splitUTF8() {
        let emoji = Array("😀".utf8)
        var decoder = InputDecoder()
        #expect(decoder.feed(emoji[0..<1]) == [])
        #expect(decoder.feed(emoji[1..<3]) == [])
        #expect(decoder.isWaiting)
        // Complete now, but held a moment: a skin tone or variation selector may follow.
        #expect(decoder.feed(emoji[3..<4]) == [])
        #expect(decoder.flush() == [key(.character("😀"))])
        #expect(decodeBothWays("日本語 ok") == characters("日本語 ok"))
    }

    @Test("a non-ASCII character is given once the next key comes")
    func heldUntilNextKey() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("é".utf8)) == [])
        #expect(decoder.feed(Array("x".utf8)) == characters("éx"))
        #expect(decoder.feed(Array("ü".utf8)) == [])
        #expect(decoder.feed([0x1B, 0x5B, 0x41]) == [key(.character("ü")), key(.up)])
    }

    @Test("a grapheme of several scalars is one character, however it was read")
    func graphemes() {
        #expect(decodeWhole(Array("e\u{301}".utf8)) == characters("e\u{301}"))
        for text in ["👩‍👩‍👧", "🇫🇷", "👍🏽", "❤️", "ü\u{301}"] {
            #expect(decodeWhole(Array(text.utf8)) == characters(text), "\(text.unicodeScalars.map { $0.value })")
            #expect(decodeByteByByte(Array(text.utf8)) == characters(text), "one byte at a time")
            #expect(characters(text).count == 1)
        }
        #expect(decodeBothWays("a👩‍👩‍👧b") == characters("a👩‍👩‍👧b"))
    }

    @Test("a combining mark read after its base joins it")
    func combiningInNextRead() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("ü".utf8)) == [])
        #expect(decoder.feed(Array("\u{301}".utf8)) == [])
        #expect(decoder.flush() == [key(.character("ü\u{301}"))])
        // ASCII is given at once, so a mark read after it comes alone (a String it is appended to
        // joins them, as LineEditor does).
        #expect(decoder.feed(Array("e".utf8)) == characters("e"))
        #expect(decoder.feed(Array("\u{301}".utf8)) + decoder.flush() == [key(.character("\u{301}"))])
    }

    @Test("invalid UTF-8 is skipped and what follows decodes", arguments: [
        [0xFF], [0xC0, 0xAF], [0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5],
        [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98], [0xC2, 0x9B],  // cut off; a C1 control
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        for decode in [decodeWhole, decodeByteByByte] {
            let events = decode(Array("a".utf8) + bytes + Array("b".utf8))
            #expect(events == characters("ab"))
        }
        #expect(decodeWhole(bytes) == [])
    }

    @Test("random bytes never trap", arguments: 0..<20)
    func randomBytes(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        let bytes = (0..<2000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var decoder = InputDecoder()
        var position = 0
        while position < bytes.count {
            let length = Int(generator.next() % 7)
            _ = decoder.feed(bytes[position..<min(bytes.count, position + length)])
            if generator.next() % 5 == 0 { _ = decoder.flush() }
            position += length
        }
        _ = decoder.flush()
    }
}

/// A small reproducible random number generator.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
