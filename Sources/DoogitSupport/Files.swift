#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// The file operations doogit needs, on POSIX calls (Foundation stays out of start-up). Failures
/// come back as the system's reason, for the caller to put in its own error.
public enum Files {
    public static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The folder part of a path: `.` for a bare file name, `/` for a file at the root.
    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Everything readable from `descriptor`, up to `limit` bytes; nil on a read error.
    public static func readAll(descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, 8192) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// The whole file as text, or nil when it cannot be read or is larger than `limit`. Bytes
    /// that are not UTF-8 are read as U+FFFD: for files doogit reads for a hint (git's and ssh's
    /// config), where a comment in another encoding must not stop it; a user's text is read with
    /// `readBytes` and checked (`UTF8Text`).
    public static func read(_ path: String, limit: Int = 1 << 20) -> String? {
        readBytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole file, or nil when it cannot be read or is larger than `limit`.
    public static func readBytes(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let bytes = readAll(descriptor: descriptor, limit: limit + 1), bytes.count <= limit else { return nil }
        return bytes
    }

    /// The whole file as text; nil when there is no file at `path`; the reason when there is one
    /// that cannot be read (a folder, no permission, larger than `limit`).
    public static func readIfPresent(_ path: String, limit: Int = 1 << 20) -> Result<String?, FileReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .success(nil) : .failure(FileReadFailure(reason: reason()))
        }
        defer { close(descriptor) }
        guard let bytes = readAll(descriptor: descriptor, limit: limit + 1) else { return .failure(FileReadFailure(reason: reason())) }
        guard bytes.count <= limit else { return .failure(FileReadFailure(reason: "larger than \(limit) bytes")) }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// Creates the folder `path` and its missing parents, each with `mode`; existing ones are left
    /// alone. Nil on success, else the reason.
    public static func createDirectories(_ path: String, mode: mode_t) -> String? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST { return "\(current): \(reason())" }
        }
        return nil
    }

    /// Creates an empty file with `mode` unless one exists. Nil on success, else the reason.
    public static func createFileIfMissing(_ path: String, mode: mode_t) -> String? {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
        if descriptor >= 0 {
            close(descriptor)
            return nil
        }
        return errno == EEXIST ? nil : reason()
    }

    /// Writes `text` to `path` with `mode` by way of a temporary file and rename, so a reader
    /// sees the old file or the new one, never half of one. Nil on success, else the reason.
    public static func writeAtomically(_ text: String, to path: String, mode: mode_t) -> String? {
        let temporary = path + ".tmp\(getpid())"
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return reason() }
        fchmod(descriptor, mode)
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            let failure = reason()
            unlink(temporary)
            return failure
        }
        return nil
    }

    /// Nil on success, else the reason.
    public static func remove(_ path: String) -> String? {
        unlink(path) == 0 ? nil : reason()
    }
}

/// Why a file that is there could not be read, in the system's words.
public struct FileReadFailure: Error, Equatable {
    public var reason: String
}
