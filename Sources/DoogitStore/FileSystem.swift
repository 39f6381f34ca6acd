#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the store needs, on POSIX calls (Foundation stays out of start-up).
enum FileSystem {
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates the missing folders above `path`, each with `mode`; existing ones are left alone.
    static func createParentDirectories(of path: String, mode: mode_t) throws(StoreError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components where !component.isEmpty {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw .cannotCreateDirectory(path: current, reason: errorText(errno))
            }
        }
    }

    static func createFileIfMissing(_ path: String, mode: mode_t) throws(StoreError) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw .cannotCreateFile(path: path, reason: errorText(errno))
        }
    }
}
