/// A key as the full-screen view sees it, whatever bytes the terminal sent for it.
public enum Key: Hashable, Sendable {
    /// A printable grapheme: any Unicode, an emoji or a ZWJ sequence included.
    case character(Character)
    case enter, tab, backTab, backspace, escape, delete, insert
    case up, down, left, right, home, end, pageUp, pageDown
    /// Ctrl-A to Ctrl-Z as the lowercase letter, except Ctrl-H, Ctrl-I, Ctrl-J and Ctrl-M, which
    /// a terminal sends as the same bytes as backspace, tab and enter.
    case control(Character)
    /// F1 to F12.
    case function(Int)
}
