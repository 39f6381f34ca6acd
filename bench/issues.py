#!/usr/bin/env python3
"""Benchmark: pull 100 issues from 10 repositories into an empty store, then a no-op sync, with
`doogit sync` (import on) and with bugwarrior 2.1 (`bugwarrior pull` into Taskwarrior), against the
same loopback GitHub (bench/fake-github) adding a delay to every answer. Prints wall time (median
of runs), requests and rate-limit units for both, and the ratios.

bugwarrior only speaks HTTPS to a GitHub Enterprise style `https://HOST/api/v3`: it goes through a
TLS-terminating proxy on loopback (this script, with a self-signed certificate made by openssl and
trusted through REQUESTS_CA_BUNDLE) that strips `/api/v3`. doogit talks plain http to the fake
(allowed for loopback hosts), so bugwarrior pays the TLS handshake (once per connection) and a
local hop that doogit does not; both are small next to the delay per answer.

Run through bench/run-issues (which builds and installs what it needs), or:
    bench/issues.py --doogit .build/release/doogit --fake .build/release/fake-github --bugwarrior BIN
"""
import argparse
import http.client
import http.server
import json
import os
import shutil
import ssl
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request

REPOSITORIES = 10
ISSUES = 10
TOKEN = "ghp_testtoken0123456789"


def call(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def timed(command, env):
    started = time.monotonic()
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[:2])} failed ({result.returncode}):\n{result.stderr.strip()[-2000:]}")
    return elapsed * 1000, result.stdout


class TLSProxy:
    """HTTPS on 127.0.0.1 in front of the fake's plain http: strips /api/v3, turns bugwarrior's
    `Authorization: token X` into the `Bearer X` the fake checks, rewrites Link URLs."""

    def __init__(self, backend, directory):
        self.backend = backend
        backend_host, backend_port = backend.split("//", 1)[1].split(":")
        certificate = os.path.join(directory, "cert.pem")
        key = os.path.join(directory, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                        "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        self.certificate = certificate
        local = threading.local()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def forward(self):
                path = self.path[len("/api/v3"):] if self.path.startswith("/api/v3") else self.path
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                if headers.get("Authorization", "").startswith("token "):
                    headers["Authorization"] = "Bearer " + headers["Authorization"][len("token "):]
                if not hasattr(local, "connection"):
                    local.connection = http.client.HTTPConnection(backend_host, int(backend_port), timeout=60)
                local.connection.request(self.command, path, body=body, headers=headers)
                answer = local.connection.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() in ("content-length", "connection", "transfer-encoding"):
                        continue
                    if name.lower() == "link":
                        value = value.replace(proxy.backend, proxy.url + "/api/v3")
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = forward

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def names():
    return [f"octocat/own-{index:04d}" for index in range(REPOSITORIES)]


def measure(base, runs, prepare, command, env, check):
    """Median wall time, requests and units of a first pull (after `prepare`) and of a no-op one."""
    rows = {"pull": ([], [], []), "no-op": ([], [], [])}
    for _ in range(runs):
        prepare()
        for phase in ("pull", "no-op"):
            call(base, "/_reset")
            elapsed, _ = timed(command, env)
            stats = call(base, "/_stats")
            rows[phase][0].append(elapsed)
            rows[phase][1].append(stats["requests"])
            rows[phase][2].append(stats["rateLimitUsed"])
            if phase == "pull":
                check()
    return {phase: (statistics.median(t), int(statistics.median(r)), int(statistics.median(u)))
            for phase, (t, r, u) in rows.items()}


def doogit_rows(args, base, scratch):
    home = os.path.join(scratch, "doogit-home")
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "DOOGIT_API_URL": base, "GH_TOKEN": TOKEN, "LANG": "C.UTF-8"}
    database = os.path.join(home, ".local/share/doogit/doogit.sqlite3")
    call(base, "/_delay?ms=0")
    timed([args.doogit, "repo", "add", *names()], env)
    timed([args.doogit, "repo", "set", *names(), "--import-issues", "all"], env)
    template = database + ".template"
    shutil.copyfile(database, template)
    call(base, f"/_delay?ms={args.delay}")

    def prepare():
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.remove(database + suffix)
        shutil.copyfile(template, database)

    def check():
        _, out = timed([args.doogit, "todo", "list", "--json"], env)
        count = sum(len(section["todos"]) for section in json.loads(out))
        if count != REPOSITORIES * ISSUES:
            raise SystemExit(f"doogit pulled {count} todos, not {REPOSITORIES * ISSUES}")

    return measure(base, args.runs, prepare, [args.doogit, "sync", "--quiet"], env, check)


def bugwarrior_rows(args, base, scratch):
    proxy = TLSProxy(base, scratch)
    home = os.path.join(scratch, "bugwarrior-home")
    taskdata = os.path.join(home, "task")
    os.makedirs(home, exist_ok=True)
    taskrc = os.path.join(home, ".taskrc")
    with open(taskrc, "w") as file:
        file.write(f"data.location={taskdata}\nconfirmation=no\nverbose=nothing\n")
    repositories = ", ".join(f'"{name.split("/")[1]}"' for name in names())
    config = os.path.join(home, "bugwarrior.toml")
    with open(config, "w") as file:
        file.write(f"""[general]
targets = ["github"]
annotation_comments = false
log_level = "WARNING"

[github]
service = "github"
login = "octocat"
username = "octocat"
token = "{TOKEN}"
host = "{proxy.url.split('//', 1)[1]}"
include_user_repos = true
include_repos = [{repositories}]
include_user_issues = false
""")
    env = {"HOME": home, "PATH": os.path.dirname(args.bugwarrior) + ":/usr/bin:/bin", "LANG": "C.UTF-8",
           "TASKRC": taskrc, "TASKDATA": taskdata, "BUGWARRIORRC": config,
           "REQUESTS_CA_BUNDLE": proxy.certificate, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
           "XDG_DATA_HOME": os.path.join(home, ".local/share")}

    def prepare():
        shutil.rmtree(taskdata, ignore_errors=True)
        shutil.rmtree(os.path.join(home, ".local"), ignore_errors=True)
        os.makedirs(taskdata)

    def check():
        out = subprocess.run(["task", "rc.verbose=nothing", "status:pending", "count"], env=env,
                             capture_output=True, text=True).stdout.strip()
        if out != str(REPOSITORIES * ISSUES):
            raise SystemExit(f"bugwarrior pulled {out} tasks, not {REPOSITORIES * ISSUES}")

    try:
        return measure(base, args.runs, prepare, [args.bugwarrior, "pull"], env, check)
    finally:
        proxy.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True)
    parser.add_argument("--fake", required=True)
    parser.add_argument("--bugwarrior", help="the bugwarrior executable (omitted: doogit only)")
    parser.add_argument("--delay", type=int, default=50, help="ms added to every answer")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    fake = subprocess.Popen([args.fake, "--own", str(REPOSITORIES), "--others", "0", "--issues", str(ISSUES)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    scratch = tempfile.mkdtemp(prefix="doogit-bench-issues-")
    print(f"\n{REPOSITORIES * ISSUES} issues from {REPOSITORIES} repositories into an empty store, then a no-op sync; "
          f"+{args.delay} ms per answer; median of {args.runs} runs\n")
    print(f"{'tool':<16}{'phase':<8}{'wall ms':>10}{'requests':>10}{'rate units':>12}")
    results = {}

    def show(tool, rows):
        # Each tool's rows as it ends: a run stopped later keeps what was measured.
        results[tool] = rows
        for phase, (ms, requests, units) in rows.items():
            print(f"{tool:<16}{phase:<8}{ms:>10.0f}{requests:>10}{units:>12}")

    try:
        base = fake.stdout.readline().strip()
        show("doogit", doogit_rows(args, base, scratch))
        if args.bugwarrior:
            show("bugwarrior 2.1", bugwarrior_rows(args, base, scratch))
    finally:
        fake.stdin.close()
        fake.wait(timeout=30)
        shutil.rmtree(scratch, ignore_errors=True)

    if "bugwarrior 2.1" in results:
        print()
        for phase in ("pull", "no-op"):
            ratio = results["bugwarrior 2.1"][phase][0] / results["doogit"][phase][0]
            print(f"{phase}: doogit is {ratio:.1f}x faster than bugwarrior")
    else:
        print("\n(bugwarrior not measured: see bench/run-issues)")


if __name__ == "__main__":
    main()
