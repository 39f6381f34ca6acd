"""The loopback GitHub behind an HTTP/2 TLS proxy (nghttpx, with a self-signed certificate for
127.0.0.1), and the connections a program opens to it (counted with strace)."""
import os
import re
import socket
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Proxy:
    """nghttpx on a free port in front of `backend` (http://127.0.0.1:PORT), at most 100 streams
    on a connection (GitHub's ceiling for concurrent requests); enough backend connections that
    the proxy is never what limits a client."""

    def __init__(self, backend):
        self.folder = tempfile.mkdtemp(prefix="doogit-bench-tls-")
        self.certificate = os.path.join(self.folder, "cert.pem")
        key = os.path.join(self.folder, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", self.certificate],
                       check=True, capture_output=True)
        self.port = free_port()
        host, port = re.match(r"http://([^:/]+):(\d+)", backend).groups()
        self.process = subprocess.Popen(
            ["nghttpx", "--conf=/dev/null", f"--frontend=127.0.0.1,{self.port}", f"--backend={host},{port}",
             "--frontend-http2-max-concurrent-streams=100", "--backend-connections-per-host=200",
             "--workers=1", "--no-ocsp", "--no-via", "--errorlog-file=" + os.path.join(self.folder, "error.log"),
             key, self.certificate],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"https://127.0.0.1:{self.port}"
        self.backend = backend
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("nghttpx did not start; see " + os.path.join(self.folder, "error.log"))
                time.sleep(0.05)
        # The loopback GitHub names the proxy's address in its links, as GitHub names its own.
        urllib.request.urlopen(f"{backend}/_publicURL?url={self.url}", timeout=30).read()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def connections_to(port, trace):
    """The connect() calls to 127.0.0.1:port in an strace log."""
    with open(trace) as log:
        return sum(1 for line in log if f"sin_port=htons({port})" in line and "connect(" in line)


def traced(command, port):
    """`command` under strace (connect() only); returns (command, how to count afterwards)."""
    trace = tempfile.mktemp(prefix="doogit-bench-strace-")
    return (["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-o", trace, *command],
            lambda: connections_to(port, trace))


def curl_limit(proxy, urls, token, runs, before_each=lambda: None):
    """curl fetching `urls` over HTTP/2, 100 at once: (median ms, connections)."""
    config = os.path.join(proxy.folder, "urls.curl")
    with open(config, "w") as out:
        out.write(f'header = "Authorization: Bearer {token}"\n')
        for url in urls:
            out.write(f'url = "{url}"\noutput = "/dev/null"\n')
    times, connections = [], []
    for _ in range(runs):
        before_each()
        command, count = traced(["curl", "--silent", "--show-error", "--no-progress-meter", "--fail", "--http2", "--parallel",
                                 "--parallel-max", "100", "--cacert", proxy.certificate, "-K", config], proxy.port)
        started = time.monotonic()
        subprocess.run(command, check=True)
        times.append((time.monotonic() - started) * 1000)
        connections.append(count())
    times.sort()
    connections.sort()
    return times[len(times) // 2], connections[len(connections) // 2]
