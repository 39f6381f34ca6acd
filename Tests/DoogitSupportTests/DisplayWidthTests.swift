import DoogitSupport
import Testing

@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test("printable ASCII is one column each")
    func ascii() throws {
        for value in UInt32(0x20)...0x7E {
            let scalar = try #require(Unicode.Scalar(value))
            #expect(DisplayWidth.of(scalar) == 1, "U+\(String(value, radix: 16))")
            #expect(DisplayWidth.of(Character(scalar)) == 1)
        }
        #expect(DisplayWidth.of("Hello, world!") == 13)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test("controls take no columns", arguments: [0x00, 0x07, 0x09, 0x0A, 0x1B, 0x1F, 0x7F, 0x85, 0x9B, 0x9F])
    func controls(value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        #expect(DisplayWidth.of(scalar) == 0)
    }

    @Test("Latin-1, Latin Extended, Greek and Cyrillic letters are one column",
          arguments: ["é", "ñ", "ß", "Ø", "ā", "Ω", "Ж", "\u{A0}"] as [Character])
    func narrowLetters(character: Character) {
        #expect(DisplayWidth.of(character) == 1)
    }

    @Test("CJK, kana, Hangul and fullwidth forms are two columns",
          arguments: ["中", "文", "字", "あ", "カ", "한", "글", "ㄱ", "Ａ", "！", "￥", "、", "\u{3000}", "\u{20000}", "丽"] as [Character])
    func wide(character: Character) {
        #expect(DisplayWidth.of(character) == 2)
    }

    @Test("combining marks take no columns", arguments: [0x0300, 0x0301, 0x0308, 0x0327, 0x036F, 0x20DD, 0x0591, 0x093C, 0xFE20, 0x1AB0, 0xE0100])
    func combining(value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        #expect(DisplayWidth.of(scalar) == 0)
    }

    @Test("format characters take no columns", arguments: [0x200B, 0x200D, 0x2060, 0x2061, 0xFEFF])
    func format(value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        #expect(scalar.properties.generalCategory == .format)
        #expect(DisplayWidth.of(scalar) == 0)
    }

    @Test("a base letter with combining marks is as wide as the base")
    func composed() {
        #expect(DisplayWidth.of(Character("e\u{301}")) == 1)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("cafe\u{301}") == 4)
        #expect(DisplayWidth.of("a\u{301}\u{302}\u{303}") == 1)
        #expect(DisplayWidth.of("中\u{301}") == 2)
    }

    @Test("strings sum their characters")
    func sums() {
        #expect(DisplayWidth.of("abc中文") == 7)
        #expect(DisplayWidth.of("日本語テキスト") == 14)
        #expect(DisplayWidth.of("a😀b") == 4)
        #expect(DisplayWidth.of("x\u{200B}y") == 2)
        #expect(DisplayWidth.of("Hello 世界!") == 11)
        #expect(DisplayWidth.of("abc中文"[...]) == 7)
    }

    @Test("emoji are two columns", arguments: [
        "😀", "🌍", "🤖", "🥇", "🫠", "❤️", "☺️", "✔️",
    ] as [Character])
    func emoji(character: Character) {
        #expect(DisplayWidth.of(character) == 2)
    }

    @Test("wide emoji outside the ranges listed are two columns too", arguments: [
        "🚀",  // U+1F680 ROCKET (Transport and Map Symbols)
        "🛑",  // U+1F6D1 OCTAGONAL SIGN
        "🟠",  // U+1F7E0 LARGE ORANGE CIRCLE
        "⌚",  // U+231A WATCH
        "☕",  // U+2615 HOT BEVERAGE
        "⚡",  // U+26A1 HIGH VOLTAGE SIGN
        "✅",  // U+2705 WHITE HEAVY CHECK MARK
        "🀄",  // U+1F004 MAHJONG TILE RED DRAGON
        "🇺🇸",  // U+1F1FA U+1F1F8, a flag: two regional indicators of one column each
    ] as [Character])
    func emojiPresentationWide(character: Character) {
        // All of these have East_Asian_Width=W and Emoji_Presentation=Yes: terminals give them two columns.
        #expect(character.unicodeScalars.first?.properties.isEmojiPresentation == true)
        #expect(DisplayWidth.of(character) == 2)
    }
}
