/// The terminal's screen as last written: remembers the frame shown and the size it was shown
/// at, so each new frame costs only the rows that changed, and a new size (or anything else
/// that may have disturbed the screen) brings a full redraw.
public struct Screen: Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    private var shown: Frame?

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The terminal's new size (SIGWINCH); the next frame is drawn whole if it changed.
    public mutating func resize(width: Int, height: Int) {
        guard width != self.width || height != self.height else { return }
        self.width = width
        self.height = height
        shown = nil
    }

    /// The next frame is drawn whole: after the screen was written by someone else (the view
    /// was suspended, another program ran).
    public mutating func invalidate() {
        shown = nil
    }

    /// The bytes to write to show `frame`.
    public mutating func render(_ frame: Frame) -> String {
        let out = ScreenDiff.output(from: shown, to: frame, width: width, height: height)
        shown = frame
        return out
    }
}
