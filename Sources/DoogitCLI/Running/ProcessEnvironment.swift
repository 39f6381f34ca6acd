import DoogitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment and working directory, read with libc (no Foundation at start-up).
/// Bytes that are not UTF-8 are never repaired into U+FFFD, which would name another folder: a
/// variable that is not UTF-8 is as if unset, and a working directory that is not is `.`.
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            pointer += 1
            guard let text = try? UTF8Text.decode(UnsafeRawBufferPointer(start: entry, count: strlen(entry))) else { continue }
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
        }
        return result
    }

    public static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "." }
        defer { free(pointer) }
        return (try? UTF8Text.decode(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))) ?? "."
    }
}
