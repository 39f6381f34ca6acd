import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// nghttpx on 127.0.0.1, speaking HTTP/2 over TLS (with a self-signed certificate for
/// 127.0.0.1, at most 100 streams on a connection, as GitHub) in front of a plain HTTP server
/// of the tests: a GitHub as a client meets it on the internet. The system's nghttpx.conf is
/// not read (Debian's binds port 3000 and logs to syslog).
public final class TLSProxy {
    public static let nghttpx = ["/usr/sbin/nghttpx", "/usr/bin/nghttpx", "/usr/local/bin/nghttpx"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    public static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Whether the programs it needs are installed (`scripts/install-dependencies --for-tests`).
    public static var isAvailable: Bool { nghttpx != nil && openssl != nil }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let folder = TemporaryDirectory()
    private let process: RunningProcess
    public let port: UInt16
    public var baseURL: String { "https://127.0.0.1:\(port)" }
    /// The certificate to trust (a PEM file, for SSL_CERT_FILE).
    public var certificate: String { folder.path + "/cert.pem" }

    /// `protocols`: what it offers in the TLS handshake (ALPN), most wanted first; `http/1.1`
    /// alone stands for a proxy or an older GitHub Enterprise that has no HTTP/2.
    /// `backendIdleMilliseconds`: how long a connection to the server is kept unused (nghttpx's
    /// default, 2 s, when nil); a short one makes every burst of requests open connections anew.
    public init(backendPort: UInt16, protocols: String = "h2,http/1.1", backendIdleMilliseconds: Int? = nil) throws {
        guard let nghttpx = Self.nghttpx, let openssl = Self.openssl else { throw Failure(description: "nghttpx or openssl missing") }
        let made = ChildProcess.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder.path + "/key.pem",
                                              "-out", folder.path + "/cert.pem", "-subj", "/CN=127.0.0.1",
                                              "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2"],
                                    environment: ["PATH": "/usr/bin:/bin"])
        guard made.status == 0 else { throw Failure(description: "openssl: \(made.stderr)") }
        port = try Self.freePort()
        // It starts nothing itself: in the runner's process group, a Ctrl-C of the run stops it too.
        process = try ChildProcess.spawn(nghttpx, [
            "--conf=/dev/null", "--frontend=127.0.0.1,\(port)", "--backend=127.0.0.1,\(backendPort)",
            "--frontend-http2-max-concurrent-streams=100", "--backend-connections-per-host=200", "--workers=1",
            "--no-ocsp", "--npn-list=\(protocols)", "--errorlog-file=/dev/stderr",
        ] + (backendIdleMilliseconds.map { ["--backend-keep-alive-timeout=\($0)ms"] } ?? []) + [
            folder.path + "/key.pem", folder.path + "/cert.pem",
        ], environment: ["PATH": "/usr/bin:/bin"], ownProcessGroup: false)
        // It says so once its socket listens (its worker accepts what waits in the backlog).
        guard process.waitForStandardError(containing: "Listening on") else {
            throw Failure(description: "nghttpx did not start listening on \(port)")
        }
    }

    /// Killed at once: a graceful stop would wait for the connections a test's client keeps open.
    deinit {
        process.stop()
    }

    /// A port nothing listens on now: the kernel's pick for a socket bound and closed at once.
    private static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket failed") }
        defer { close(socket) }
        var address = loopback(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
