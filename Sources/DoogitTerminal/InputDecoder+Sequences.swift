/// What a whole escape sequence stands for, once `InputDecoder` has found where it ends: a key,
/// a mouse event, the start of a paste, or nothing doogit uses.
extension InputDecoder {
    /// ESC [ with its parameters and final byte.
    static func controlSequence(parameters: ArraySlice<UInt8>, final: UInt8, length: Int) -> Token {
        func key(_ key: Key) -> Token { .event(.key(key, alt: false), length: length) }
        let skip = Token.skip(length: length)
        if parameters.first == UInt8(ascii: "<") {
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m"),
                  let mouse = mouse(numbers(parameters.dropFirst()), released: final == UInt8(ascii: "m"))
            else { return skip }
            return .event(.mouse(mouse), length: length)
        }
        // Other private sequences (ESC[?..., ESC[>...) and intermediates: nothing a key sends.
        guard !parameters.contains(where: { (0x3C...0x3F).contains($0) || (0x20...0x2F).contains($0) }) else { return skip }
        // Modifiers (ESC[1;5A is Ctrl-Up) are ignored: the plain key.
        let first = numbers(parameters).first ?? nil
        switch Character(Unicode.Scalar(final)) {
        case "A": return key(.up)
        case "B": return key(.down)
        case "C": return key(.right)
        case "D": return key(.left)
        case "H": return key(.home)
        case "F": return key(.end)
        case "Z": return key(.backTab)
        // xterm's F1-F4 with modifiers; "ESC[row;colR" with another row is a cursor report.
        case "P": return first == nil || first == 1 ? key(.function(1)) : skip
        case "Q": return first == nil || first == 1 ? key(.function(2)) : skip
        case "R": return first == nil || first == 1 ? key(.function(3)) : skip
        case "S": return first == nil || first == 1 ? key(.function(4)) : skip
        case "~":
            switch first {
            case 1?, 7?: return key(.home)
            case 4?, 8?: return key(.end)
            case 2?: return key(.insert)
            case 3?: return key(.delete)
            case 5?: return key(.pageUp)
            case 6?: return key(.pageDown)
            case .some(let number) where (11...15).contains(number): return key(.function(number - 10))
            case .some(let number) where (17...21).contains(number): return key(.function(number - 11))
            case .some(let number) where (23...24).contains(number): return key(.function(number - 12))
            case 200?: return .pasteStart(length: length)
            default: return skip
            }
        default:
            return skip
        }
    }

    /// ESC O final (`singleShift`): the final byte's key.
    static let singleShiftKeys: [UInt8: Key] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
        UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end, UInt8(ascii: "M"): .enter,
        UInt8(ascii: "P"): .function(1), UInt8(ascii: "Q"): .function(2), UInt8(ascii: "R"): .function(3), UInt8(ascii: "S"): .function(4),
    ]

    /// The numbers of "1;5" or "0;12;3"; a field that is empty or not a number is nil. Numbers
    /// stop growing at a million, so no input overflows.
    static func numbers(_ parameters: ArraySlice<UInt8>) -> [Int?] {
        parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            let digits = field.prefix { $0 != UInt8(ascii: ":") }  // sub-parameters are ignored
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return digits.reduce(0) { min($0 * 10 + Int($1 - 0x30), 1_000_000) }
        }
    }

    /// SGR mouse: button code; 1-based column; 1-based row. Code bits: 0-1 the button, 32 a drag,
    /// 64 the wheel (64 up, 65 down); 4, 8 and 16 are Shift, Meta and Ctrl, ignored.
    static func mouse(_ numbers: [Int?], released: Bool) -> MouseEvent? {
        guard numbers.count == 3, let code = numbers[0], let x = numbers[1], let y = numbers[2] else { return nil }
        let column = max(0, x - 1)
        let row = max(0, y - 1)
        let button = code & 3
        if code & 128 != 0 { return nil }  // buttons 8 to 11
        if code & 64 != 0 {
            switch button {
            case 0: return released ? nil : MouseEvent(action: .wheelUp, button: 0, column: column, row: row)
            case 1: return released ? nil : MouseEvent(action: .wheelDown, button: 0, column: column, row: row)
            default: return nil  // sideways wheel
            }
        }
        guard button != 3 else { return nil }  // motion with no button held
        let action: MouseEvent.Action = code & 32 != 0 ? .drag : released ? .release : .press
        return MouseEvent(action: action, button: button, column: column, row: row)
    }
}
