import Foundation

/// A fresh folder under the system's temp directory, removed when released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init() {
        let template = NSTemporaryDirectory() + "doogit-test-XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        path = made.map { String(cString: $0) } ?? template
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes a file in it; returns its path.
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }
}
