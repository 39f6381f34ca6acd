#!/usr/bin/env python3
"""Benchmark of `doogit sync`: 1,000 tracked repositories against a GitHub API on loopback that
adds a delay to every answer. Prints, for each scenario: wall time (median of runs), requests
sent, rate-limit units used and connections opened, for `repo add` of them all in one command,
the first sync, a no-op sync, and a sync after 10 changes.

With --https the GitHub is behind an HTTP/2 TLS proxy (nghttpx, a self-signed certificate that
doogit trusts through SSL_CERT_FILE), connections are counted with strace, and `curl --parallel`
fetching the same URLs over HTTP/2 is measured in the same run, as the limit.

Run through bench/run-sync (which builds the binaries), or:
    bench/sync.py --doogit .build/release/doogit --fake .build/release/fake-github [--https]
Given --doogit more than once (an older build, then this one), every binary is measured in the
same run, their runs taking turns.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import urllib.request

import https

TOKEN = "ghp_testtoken0123456789"


def call(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def run(doogit, env, *args, wrap=lambda command: command):
    started = time.monotonic()
    result = subprocess.run(wrap([doogit, *args]), env=env, capture_output=True, text=True, timeout=300)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"doogit {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return elapsed, result.stdout


def scenario(args, label, own, others, runs, proxy_wanted=False):
    fake = subprocess.Popen([args.fake, "--own", str(own), "--others", str(others)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proxy = None
    try:
        base = fake.stdout.readline().strip()
        if proxy_wanted:
            proxy = https.Proxy(base)
        names = [f"octocat/own-{i:04d}" for i in range(own)] + \
                [f"other{i % 10}/lib-{i:04d}" for i in range(others)]
        call(base, f"/_delay?ms={args.delay}")
        # Each binary in a HOME of its own; the phases of all of them take turns, so that they
        # are measured on the machine as it is at the same moments.
        homes = []
        for doogit in args.doogit:
            home = tempfile.mkdtemp(prefix="doogit-bench-")
            env = {"HOME": home, "PATH": "/usr/bin:/bin", "DOOGIT_API_URL": base, "GH_TOKEN": TOKEN, "LANG": "C.UTF-8"}
            if proxy:
                env["DOOGIT_API_URL"] = proxy.url
                env["SSL_CERT_FILE"] = proxy.certificate
            homes.append((doogit, home, env))

        def measured(doogit, env, *doogit_args):
            """One command: (ms, requests, units, connections)."""
            call(base, "/_reset")
            opened = call(base, "/_stats")["connections"]
            if proxy:
                wrap, count = https.traced([], proxy.port)
                elapsed, _ = run(doogit, env, *doogit_args, wrap=lambda command: wrap + command)
                connections = count()
            else:
                elapsed, _ = run(doogit, env, *doogit_args)
            stats = call(base, "/_stats")
            if not proxy:
                connections = stats["connections"] - opened
            return elapsed * 1000, stats["requests"], stats["rateLimitUsed"], connections

        rows = []
        samples = {}
        for doogit, home, env in homes:
            rows.append((label, "repo add", doogit, *measured(doogit, env, "repo", "add", *names)))
        for phase in ("first sync", "no-op sync", "10 changed"):
            for attempt in range(runs):
                for doogit, home, env in homes:
                    if phase == "first sync":
                        # Forget the ETags and cached listing that `repo add` left, as after an upgrade.
                        subprocess.run(["sqlite3", os.path.join(home, ".local/share/doogit/doogit.sqlite3"),
                                        "UPDATE repositories SET etag = NULL; DELETE FROM listing_pages;"], check=True)
                    if phase == "10 changed":
                        call(base, "/_touch?count=10")
                    samples.setdefault((phase, doogit), []).append(measured(doogit, env, "sync", "--quiet"))
            for doogit, home, env in homes:
                rows.append((label, phase, doogit, *(statistics.median(column) for column in zip(*samples[(phase, doogit)]))))
        if proxy:
            ids = [2_000_000 + i for i in range(others)] + [1_000_000 + i for i in range(own)]
            # The rate limit is reset before each run, as before each of doogit's.
            ms, connections = https.curl_limit(proxy, [f"{proxy.url}/repositories/{i}" for i in ids], TOKEN, runs,
                                               before_each=lambda: call(base, "/_reset"))
            rows.append((label, "curl --parallel", "curl", ms, len(ids), len(ids), connections))
        return rows
    finally:
        if proxy:
            proxy.stop()
        fake.stdin.close()
        fake.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True, action="append",
                        help="the doogit to measure; given again, each is measured in the same run (before and after)")
    parser.add_argument("--fake", required=True)
    parser.add_argument("--repositories", type=int, default=1000)
    parser.add_argument("--delay", type=int, default=50, help="ms added to every answer")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--https", action="store_true",
                        help="behind an HTTP/2 TLS proxy (nghttpx), with curl --parallel as the limit")
    args = parser.parse_args()
    n = args.repositories
    rows = []
    if args.https:
        rows += scenario(args, f"{n} others' (by id)", 0, n, args.runs, proxy_wanted=True)
    else:
        rows += scenario(args, f"{n} own (listing)", n, 0, args.runs)
        rows += scenario(args, f"{n} others' (by id)", 0, n, args.runs)
    transport = "HTTPS through nghttpx (HTTP/2)" if args.https else "plain HTTP"
    print(f"\ndoogit, {n} tracked repositories, {transport}, +{args.delay} ms per answer "
          f"(median of {args.runs} runs; repo add once)\n")
    limit = {label: ms for label, phase, _, ms, *_ in rows if phase == "curl --parallel"}
    several = len(args.doogit) > 1
    print(f"{'repositories':<24}{'phase':<17}" + (f"{'binary':<28}" if several else "")
          + f"{'wall ms':>10}{'vs curl':>9}{'requests':>10}{'rate units':>12}{'connections':>13}")
    for label, phase, binary, ms, requests, units, connections in rows:
        ratio = f"{ms / limit[label]:8.2f}x" if label in limit else f"{'-':>9}"
        print(f"{label:<24}{phase:<17}" + (f"{binary[-27:]:<28}" if several else "")
              + f"{ms:>10.0f}{ratio}{requests:>10.0f}{units:>12.0f}{connections:>13.0f}")
    sequential = n * args.delay
    print(f"\n(one request at a time would need at least {sequential} ms for {n} repositories)")


if __name__ == "__main__":
    main()
