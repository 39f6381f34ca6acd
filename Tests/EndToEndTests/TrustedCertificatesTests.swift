import DoogitSupport
import Foundation
import Testing
import TestSupport

/// A GitHub behind a private CA (an Enterprise server, a TLS-inspecting proxy): its certificate
/// is refused with a message that names SSL_CERT_FILE, and trusted once SSL_CERT_FILE or
/// SSL_CERT_DIR names it. openssl's s_server stands for it, on 127.0.0.1.
@Suite(.serialized)
struct TrustedCertificatesTests {
    static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A TLS server with a self-signed certificate for 127.0.0.1; its port and the certificate's
    /// path. Its process is stopped when the server is released, however the test ends.
    final class PrivateServer {
        let folder = TemporaryDirectory()
        let process: RunningProcess
        let port: Int
        var certificate: String { folder.path + "/cert.pem" }

        init(openssl: String) throws {
            let made = ChildProcess.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder.path + "/key.pem",
                                                  "-out", folder.path + "/cert.pem", "-subj", "/CN=127.0.0.1",
                                                  "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2"],
                                        environment: ["PATH": "/usr/bin:/bin"])
            try #require(made.status == 0, "\(made.stderr)")
            // It starts nothing itself: in the runner's process group, a Ctrl-C of the run stops it too.
            process = try ChildProcess.spawn(openssl, ["s_server", "-accept", "127.0.0.1:0", "-cert", folder.path + "/cert.pem",
                                                       "-key", folder.path + "/key.pem", "-www"],
                                             environment: ["PATH": "/usr/bin:/bin"], ownProcessGroup: false)
            // It says where it listens once it does ("ACCEPT 127.0.0.1:PORT"): read until then.
            let said = process.readStandardOutput { text in
                text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains { $0.hasPrefix("ACCEPT") }
            } ?? ""
            let line = said.split(separator: "\n").first { $0.hasPrefix("ACCEPT") } ?? ""
            port = Int(line.split(separator: ":").last ?? "") ?? 0
            try #require(port > 0, "s_server said: \(said)")
        }
    }

    @Test(.enabled(if: openssl != nil, "openssl is not installed (scripts/install-dependencies --for-tests installs it)"))
    func aPrivateCAIsRefusedUntilSSLCertFileNamesIt() throws {
        let server = try PrivateServer(openssl: try #require(Self.openssl))
        let sandbox = try Sandbox()
        sandbox.environment["DOOGIT_API_URL"] = "https://127.0.0.1:\(server.port)"
        let refused = sandbox.run("repo", "add", "octocat/app")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot verify GitHub's certificate") && refused.stderr.contains("set SSL_CERT_FILE"),
                "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)

        // Trusted: the TLS handshake passes (s_server then answers with a page that is not JSON).
        sandbox.environment["SSL_CERT_FILE"] = server.certificate
        let trusted = sandbox.run("repo", "add", "octocat/app")
        #expect(!trusted.stderr.contains("certificate") && trusted.stderr.contains("unexpected response"), "\(trusted.stderr)")

        // A folder of certificates named by their hash, as `openssl rehash` makes it.
        sandbox.environment["SSL_CERT_FILE"] = nil
        let folder = TemporaryDirectory()
        let hash = ChildProcess.run(try #require(Self.openssl), ["x509", "-hash", "-noout", "-in", server.certificate],
                                    environment: ["PATH": "/usr/bin:/bin"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.copyItem(atPath: server.certificate, toPath: folder.path + "/\(hash).0")
        sandbox.environment["SSL_CERT_DIR"] = folder.path
        let fromFolder = sandbox.run("repo", "add", "octocat/app")
        #expect(!fromFolder.stderr.contains("certificate") && fromFolder.stderr.contains("unexpected response"), "\(fromFolder.stderr)")

        // A file that cannot be read is named as the cause too.
        sandbox.environment["SSL_CERT_DIR"] = nil
        sandbox.environment["SSL_CERT_FILE"] = folder.path + "/missing.pem"
        let missing = sandbox.run("repo", "add", "octocat/app")
        #expect(missing.status == 1 && missing.stderr.contains("SSL_CERT_FILE"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("ghp_"), "the token never shows")
    }
}
