/// One thing the user did at the terminal, decoded from the bytes it sent (`InputDecoder`).
public enum InputEvent: Hashable, Sendable {
    /// A key; `alt` when it came after an ESC (Alt or Meta held, as terminals send it).
    case key(Key, alt: Bool)
    case mouse(MouseEvent)
    /// Text pasted in one piece (bracketed paste), so that its newlines are not taken as Enter
    /// nor its letters as commands. Line breaks are "\n"; other controls are removed.
    case paste(String)
}
