import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64 (Steele, Lea and Flood): a small, fast generator whose whole state is the seed,
/// so that every generated case can be rebuilt from the seed printed with a failure.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public enum FuzzText {
    public static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16, uppercase: true) }

    /// A printable, bounded rendering of a string: escapes shown, long ones cut in the middle.
    public static func describe(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 160 else { return text.debugDescription }
        let head = String(String.UnicodeScalarView(scalars.prefix(80)))
        let tail = String(String.UnicodeScalarView(scalars.suffix(20)))
        return head.debugDescription + " … (\(scalars.count) scalars) … " + tail.debugDescription
    }
}

/// A file a fuzzing child process appends a line to before each case, with write(2) so that the
/// line is on disk even when the case traps.
public struct FuzzProgressLog: Sendable {
    public let descriptor: Int32

    public init(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    }

    public func note(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
    }

    public static func lastLine(of path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "(no progress file)" }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "(none)"
    }
}

/// Ends a fuzzing child process that runs far longer than it should (a hang), so its exit test
/// fails with the case it was stuck on rather than never finishing.
public enum FuzzWatchdog {
    public static func start(seconds: UInt32, progress: FuzzProgressLog) {
        Thread.detachNewThread {
            sleep(seconds)
            progress.note("watchdog: the batch was still running after \(seconds) seconds (a hang?)")
            _exit(86)
        }
    }
}
