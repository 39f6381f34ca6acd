#!/usr/bin/env python3
"""Benchmark of `doogit sync`: 1,000 tracked repositories against a GitHub API on loopback that
adds a delay to every answer. Prints, for each scenario: wall time (median of runs), requests
sent, and rate-limit units used, for the first sync, a no-op sync, and a sync after 10 changes.

Run through bench/run-sync (which builds the binaries), or:
    bench/sync.py --doogit .build/release/doogit --fake .build/release/fake-github
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import urllib.request


def call(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def run(doogit, env, *args):
    started = time.monotonic()
    result = subprocess.run([doogit, *args], env=env, capture_output=True, text=True, timeout=300)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"doogit {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return elapsed, result.stdout


def scenario(args, label, own, others, runs):
    fake = subprocess.Popen([args.fake, "--own", str(own), "--others", str(others)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        base = fake.stdout.readline().strip()
        home = tempfile.mkdtemp(prefix="doogit-bench-")
        env = {"HOME": home, "PATH": "/usr/bin:/bin", "DOOGIT_API_URL": base,
               "GH_TOKEN": "ghp_testtoken0123456789", "LANG": "C.UTF-8"}
        names = [f"octocat/own-{i:04d}" for i in range(own)] + \
                [f"other{i % 10}/lib-{i:04d}" for i in range(others)]
        for start in range(0, len(names), 200):
            run(args.doogit, env, "repo", "add", *names[start:start + 200])
        call(base, f"/_delay?ms={args.delay}")

        rows = []
        for phase in ("first sync", "no-op sync", "10 changed"):
            times, requests, units, connections = [], [], [], []
            for attempt in range(runs if phase != "first sync" else 1):
                if phase == "first sync":
                    # Forget the ETags and cached listing that `repo add` left, as after an upgrade.
                    subprocess.run(["sqlite3", os.path.join(home, ".local/share/doogit/doogit.sqlite3"),
                                    "UPDATE repositories SET etag = NULL; DELETE FROM listing_pages;"], check=True)
                if phase == "10 changed":
                    call(base, "/_touch?count=10")
                call(base, "/_reset")
                opened = call(base, "/_stats")["connections"]
                elapsed, _ = run(args.doogit, env, "sync", "--quiet")
                stats = call(base, "/_stats")
                connections.append(stats["connections"] - opened)
                times.append(elapsed * 1000)
                requests.append(stats["requests"])
                units.append(stats["rateLimitUsed"])
            rows.append((label, phase, statistics.median(times), int(statistics.median(requests)),
                         int(statistics.median(units)), int(statistics.median(connections))))
        return rows
    finally:
        fake.stdin.close()
        fake.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True)
    parser.add_argument("--fake", required=True)
    parser.add_argument("--repositories", type=int, default=1000)
    parser.add_argument("--delay", type=int, default=50, help="ms added to every answer")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    n = args.repositories
    rows = []
    rows += scenario(args, f"{n} own (listing)", n, 0, args.runs)
    rows += scenario(args, f"{n} others' (by id)", 0, n, args.runs)
    print(f"\ndoogit sync, {n} tracked repositories, +{args.delay} ms per answer "
          f"(median of {args.runs} runs; first sync once)\n")
    print(f"{'repositories':<24}{'phase':<14}{'wall ms':>10}{'requests':>10}{'rate units':>12}{'connections':>13}")
    for label, phase, ms, requests, units, connections in rows:
        print(f"{label:<24}{phase:<14}{ms:>10.0f}{requests:>10}{units:>12}{connections:>13}")
    sequential = n * args.delay
    print(f"\n(one request at a time would need at least {sequential} ms for {n} repositories)")


if __name__ == "__main__":
    main()
