/// A click, release, drag or wheel turn reported by the terminal (SGR mouse mode).
public struct MouseEvent: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case press, release, drag, wheelUp, wheelDown
    }

    public var action: Action
    /// 0 left, 1 middle, 2 right; 0 for the wheel.
    public var button: Int
    /// 0-based, from the left edge.
    public var column: Int
    /// 0-based, from the top edge.
    public var row: Int

    public init(action: Action, button: Int, column: Int, row: Int) {
        self.action = action
        self.button = button
        self.column = column
        self.row = row
    }
}
