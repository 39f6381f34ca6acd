import Testing
import TestSupport

// What the fuzzing suites here share (what every fuzzing suite shares is in TestSupport/Fuzzing.swift).

extension FuzzText {

    /// A printable, bounded rendering of a string: escapes shown, long ones cut in the middle.
    static func describe(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 160 else { return text.debugDescription }
        let head = String(String.UnicodeScalarView(scalars.prefix(80)))
        let tail = String(String.UnicodeScalarView(scalars.suffix(20)))
        return head.debugDescription + " … (\(scalars.count) scalars) … " + tail.debugDescription
    }
}

/// After an exit test: when the child process did not end normally, an issue naming the case
/// it had started last (or the watchdog's note).
func recordUnfinished(_ finished: ExitTest.Result?, _ label: String, progressPath: String) {
    guard finished == nil else { return }
    Issue.record(Comment(rawValue: "\(label): the child process trapped or hung; the last case it started: \(FuzzProgressLog.lastLine(of: progressPath))"))
}
