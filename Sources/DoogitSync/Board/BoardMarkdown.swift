import DoogitSupport

/// A todo's text as a line of the board's Markdown, and back. What a person sees is the text:
/// Markdown's punctuation is escaped with a backslash (so `*`, `[`, `<!--` stay text and no line
/// can break the board's structure), and a `#` or `@` before a word is followed by an invisible
/// word joiner (U+2060), so that no `#12`, `owner/name#12` or `@login` in a todo makes a
/// cross-reference or a mention in another issue, or notifies anyone; so is the `//` of an
/// address (`https://…/issues/3` would make a cross-reference too). Reading takes both away.
enum BoardMarkdown {
    static let wordJoiner: Unicode.Scalar = "\u{2060}"
    /// ASCII punctuation Markdown or GitHub would read as more than text.
    private static let escaped: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "<", ">", "~", "|", "&", "#", "!"]

    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == wordJoiner { continue }
            if escaped.contains(scalar) { out.append("\\") }
            out.append(scalar)
            if scalar == "#" || scalar == "@", index + 1 < scalars.count,
               scalars[index + 1].properties.isAlphabetic || ("0"..."9").contains(scalars[index + 1]) {
                out.append(wordJoiner)
            }
            if scalar == ":", index + 2 < scalars.count, scalars[index + 1] == "/", scalars[index + 2] == "/" {
                out.append(wordJoiner)
            }
        }
        return String(out)
    }

    /// The text a line of the board says: backslash escapes of punctuation taken back, word
    /// joiners taken out (a person typing on a phone writes neither, or both).
    static func unescape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                if !(scalar.isASCII && scalar.properties.isPunctuationOrSymbol) { out.append("\\") }
                out.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar != wordJoiner {
                out.append(scalar)
            }
        }
        if escaping { out.append("\\") }
        return String(out)
    }

    /// Six hex digits naming a line's content as doogit wrote it: a line whose content names
    /// otherwise was edited by a person.
    static func fingerprint(_ content: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let digest = SHA256.digest(Array(content.utf8))
        return String(decoding: digest.prefix(3).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}

extension Unicode.Scalar.Properties {
    /// ASCII punctuation and symbols: what CommonMark lets a backslash escape.
    var isPunctuationOrSymbol: Bool {
        switch generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
}
