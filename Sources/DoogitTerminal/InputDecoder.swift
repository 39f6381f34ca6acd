/// Turns the bytes a terminal sends into keys, mouse events and pastes. Reads may end anywhere,
/// even inside a UTF-8 character or an escape sequence, so bytes that may begin something
/// longer are held until the next `feed`. A lone ESC is the Escape key or the start of a
/// sequence, which only time tells: the caller calls `flush()` when no byte came for a moment
/// (25-50 ms) while `isWaiting`, and what is held is then taken as typed.
public struct InputDecoder: Sendable {
    /// Bytes not decoded yet: the start of an escape sequence or of a UTF-8 character.
    private var pending: [UInt8] = []
    /// The last character of a feed when it is not ASCII: a combining mark, a variation selector
    /// or the rest of a ZWJ sequence may still come in the next read and belong to it.
    private var heldText = ""
    /// The contents so far while inside a bracketed paste; nil outside one.
    private var pasted: [UInt8]?

    public init() {}

    /// Whether bytes are held that may start something longer (a lone ESC, part of a sequence,
    /// a character that may take combining marks, a paste not finished yet).
    public var isWaiting: Bool { !pending.isEmpty || !heldText.isEmpty || pasted != nil }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        return decode(atEnd: false)
    }

    /// No more bytes came: what is held is taken as it stands (a lone ESC is the Escape key, a
    /// partial sequence its keys). A paste stays open until its end marker, however long.
    public mutating func flush() -> [InputEvent] {
        decode(atEnd: true)
    }

    // MARK: Decoding

    /// What the bytes at one place are.
    enum Token {
        case event(InputEvent, length: Int)
        case text(Unicode.Scalar, length: Int)
        case pasteStart(length: Int)
        /// Bytes that mean nothing here (an unknown sequence, invalid UTF-8).
        case skip(length: Int)
        /// They may start something longer; wait for more.
        case needMore
    }

    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    private mutating func decode(atEnd: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var text = heldText
        heldText = ""
        var index = 0
        decoding: while index < pending.count {
            if pasted != nil {
                guard let end = readPaste(from: &index) else { break decoding }
                events.append(.paste(Self.pasteText(end)))
                continue
            }
            switch token(at: index, atEnd: atEnd) {
            case .needMore:
                break decoding
            case .text(let scalar, let length):
                text.unicodeScalars.append(scalar)
                index += length
            case .event(let event, let length):
                Self.emit(&text, into: &events)
                events.append(event)
                index += length
            case .pasteStart(let length):
                Self.emit(&text, into: &events)
                pasted = []
                index += length
            case .skip(let length):
                index += length
            }
        }
        pending.removeFirst(min(index, pending.count))
        // A held ESC ends the character anyway; anything else may still extend it.
        if !atEnd, pending.first != 0x1B, let last = text.last, !last.isASCII {
            heldText = String(last)
            text.removeLast()
        }
        Self.emit(&text, into: &events)
        return events
    }

    private static func emit(_ text: inout String, into events: inout [InputEvent]) {
        for character in text { events.append(.key(.character(character), alt: false)) }
        text = ""
    }

    /// Moves the paste's bytes from `pending` into `pasted` up to its end marker and returns the
    /// whole paste, or nil when the marker has not come yet (a part of it at the end is held).
    private mutating func readPaste(from index: inout Int) -> [UInt8]? {
        var position = index
        while position < pending.count {
            if pending[position] == 0x1B {
                let available = min(Self.pasteEnd.count, pending.count - position)
                if pending[position..<(position + available)].elementsEqual(Self.pasteEnd.prefix(available)) {
                    pasted?.append(contentsOf: pending[index..<position])
                    index = position
                    guard available == Self.pasteEnd.count else { return nil }
                    index += available
                    let whole = pasted ?? []
                    pasted = nil
                    return whole
                }
            }
            position += 1
        }
        pasted?.append(contentsOf: pending[index..<position])
        index = position
        return nil
    }

    /// The pasted text with CR and CRLF as "\n" and other controls (escape sequences' ESC
    /// among them) removed.
    private static func pasteText(_ bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let value = scalar.value
            if value == 0x0A, afterCR {
                afterCR = false
                continue
            }
            afterCR = value == 0x0D
            switch value {
            case 0x0A, 0x0D: out.append("\n")
            case 0x09: out.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private func token(at index: Int, atEnd: Bool) -> Token {
        let byte = pending[index]
        switch byte {
        case 0x1B:
            return escape(at: index, atEnd: atEnd)
        case 0x20...0x7E:
            return .text(Unicode.Scalar(byte), length: 1)
        case 0x80...0xFF:
            return utf8(at: index, atEnd: atEnd)
        default:
            guard let key = Self.controlKey(byte) else { return .skip(length: 1) }
            return .event(.key(key, alt: false), length: 1)
        }
    }

    /// The key a C0 control byte or DEL stands for.
    private static func controlKey(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(byte + 0x60)))
        default: return nil  // NUL and Ctrl-\ ] ^ _: nothing the view uses
        }
    }

    /// One UTF-8 character; invalid bytes are skipped one at a time, so the next valid character
    /// still decodes.
    private func utf8(at index: Int, atEnd: Bool) -> Token {
        let lead = pending[index]
        var value: UInt32
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF  // narrower after some leads: no overlongs, surrogates or > U+10FFFF
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = 0; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xED: length = 3; value = 0x0D; second = 0x80...0x9F
        case 0xF0: length = 4; value = 0; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = 4; second = 0x80...0x8F
        default: return .skip(length: 1)
        }
        for offset in 1..<length {
            guard index + offset < pending.count else { return atEnd ? .skip(length: 1) : .needMore }
            let byte = pending[index + offset]
            guard (offset == 1 ? second : 0x80...0xBF).contains(byte) else { return .skip(length: 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), !(0x80...0x9F).contains(value) else {
            return .skip(length: length)  // C1 controls act on a terminal; they are not text
        }
        return .text(scalar, length: length)
    }

    private func escape(at index: Int, atEnd: Bool) -> Token {
        guard index + 1 < pending.count else {
            return atEnd ? .event(.key(.escape, alt: false), length: 1) : .needMore
        }
        let next = pending[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return controlSequence(at: index, atEnd: atEnd)
        case UInt8(ascii: "O"):
            return singleShift(at: index, atEnd: atEnd)
        case 0x1B:
            return .event(.key(.escape, alt: false), length: 1)
        case 0x20...0x7E:
            return .event(.key(.character(Character(Unicode.Scalar(next))), alt: true), length: 2)
        case 0x80...0xFF:
            switch utf8(at: index + 1, atEnd: atEnd) {
            case .needMore: return .needMore
            case .text(let scalar, let length): return .event(.key(.character(Character(scalar)), alt: true), length: 1 + length)
            default: return .event(.key(.escape, alt: false), length: 1)
            }
        default:
            guard let key = Self.controlKey(next) else { return .event(.key(.escape, alt: false), length: 1) }
            return .event(.key(key, alt: true), length: 2)
        }
    }

    /// ESC [ parameters intermediates final. Unknown ones are skipped whole.
    private func controlSequence(at index: Int, atEnd: Bool) -> Token {
        let altBracket = Token.event(.key(.character("["), alt: true), length: 2)
        var position = index + 2
        while position < pending.count {
            let byte = pending[position]
            if (0x40...0x7E).contains(byte) {
                return Self.controlSequence(parameters: pending[(index + 2)..<position], final: byte, length: position - index + 1)
            }
            guard (0x20...0x3F).contains(byte) else {
                // Not a sequence after all: drop what looked like one; the byte decodes on its own.
                return position == index + 2 ? altBracket : .skip(length: position - index)
            }
            position += 1
        }
        return atEnd ? altBracket : .needMore
    }

    /// ESC O final: cursor and F1-F4 keys in the terminal's application mode.
    private func singleShift(at index: Int, atEnd: Bool) -> Token {
        let altO = Token.event(.key(.character("O"), alt: true), length: 2)
        var position = index + 2
        while position < pending.count, (0x30...0x3F).contains(pending[position]) { position += 1 }  // modifiers some terminals add
        guard position < pending.count else { return atEnd ? altO : .needMore }
        let final = pending[position]
        guard (0x40...0x7E).contains(final) else { return position == index + 2 ? altO : .skip(length: position - index) }
        let length = position - index + 1
        guard let key = Self.singleShiftKeys[final] else { return .skip(length: length) }
        return .event(.key(key, alt: false), length: length)
    }
}
