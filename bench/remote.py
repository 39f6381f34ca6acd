#!/usr/bin/env python3
"""Benchmark of keeping the same todos on two machines through the files of a private
repository (`doogit remote init`, then `doogit sync`): 10,000 todos over 100 repositories,
against a loopback GitHub (bench/fake-github, the test fake with git objects) that adds a delay
to every answer.

For each scenario: wall time (median of runs), requests (all, and those to the remote
repository), bytes the machine sent to and received from the remote repository (bodies),
rate-limit units; beside it the peer measured in the same run: the same sync of a machine
tracking the same repositories without a remote, i.e. what the repositories alone cost. Then the
steps of the exchange as `sync -v` reports them. Then years of use: the remote's size as todos
are added and removed on two machines, with each sync's bytes.

Run through bench/run-remote (which builds the binaries), or:
    bench/remote.py --doogit .build/release/doogit --fake .build/release/fake-github [--https]
With --https, doogit speaks HTTP/2 over TLS to the loopback GitHub (through nghttpx), as it does
to GitHub; without, HTTP/1.1 on as many connections as it opens.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import https


def call(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read() or b"{}")


class Machine:
    def __init__(self, doogit, base, label, proxy=None):
        self.doogit = doogit
        self.label = label
        self.home = tempfile.mkdtemp(prefix=f"doogit-bench-{label}-")
        self.env = {"HOME": self.home, "PATH": "/usr/bin:/bin", "DOOGIT_API_URL": base,
                    "GH_TOKEN": "ghp_testtoken0123456789", "LANG": "C.UTF-8"}
        if proxy:
            self.env["DOOGIT_API_URL"] = proxy.url
            self.env["SSL_CERT_FILE"] = proxy.certificate

    def run(self, *args, stdin=None):
        started = time.monotonic()
        result = subprocess.run([self.doogit, *args], env=self.env, capture_output=True, text=True, timeout=600,
                                input=stdin)
        elapsed = time.monotonic() - started
        if result.returncode != 0:
            raise SystemExit(f"{self.label}: doogit {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
        return elapsed, result


def measured_sync(machine, base):
    call(base, "/_reset")
    elapsed, result = machine.run("-v", "sync")
    stats = call(base, "/_stats")
    steps, tree_post = "", None
    for line in result.stderr.splitlines():
        if " todos, " in line and " bytes; " in line:
            steps = line.split("; ", 1)[1]
        found = re.search(r"POST \S+/git/trees -> 201 \((\d+) ms\)", line)
        if found:
            tree_post = int(found.group(1))
    if tree_post is not None:
        # The write's POST of the tree: the loopback GitHub taking the files in, with its delay.
        steps += f" (of which the tree's POST {tree_post} ms)"
    return elapsed * 1000, stats, steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True)
    parser.add_argument("--fake", required=True)
    parser.add_argument("--todos", type=int, default=10000)
    parser.add_argument("--repositories", type=int, default=100)
    parser.add_argument("--delay", type=int, default=50, help="ms added to every answer")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--https", action="store_true",
                        help="doogit speaks to the loopback GitHub through an HTTP/2 TLS proxy (nghttpx), as to GitHub")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # each result as soon as it is printed

    fake = subprocess.Popen([args.fake, "--own", str(args.repositories), "--others", "0", "--data", "doogit-data"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proxy = None
    try:
        base = fake.stdout.readline().strip()
        proxy = https.Proxy(base) if args.https else None

        def machine(label):
            return Machine(args.doogit, base, label, proxy)

        a, b, peer = machine("a"), machine("b"), machine("peer")
        # For the first pull: machines that join the remote, and beside them machines with the
        # same repositories and todos without a remote, on their first sync.
        joining = [machine(f"b{run}") for run in range(args.runs - 1)] + [b]
        newcomers = [machine(f"newcomer{run}") for run in range(args.runs)]
        names = [f"octocat/own-{i:04d}" for i in range(args.repositories)]
        for machine in (a, peer, *newcomers):
            for start in range(0, len(names), 50):
                machine.run("repo", "add", *names[start:start + 50])
        lines = []
        for index in range(args.todos):
            done = "x 2024-01-02 " if index % 5 == 0 else ""
            lines.append(f"{done}todo {index} of the benchmark +own-{index % args.repositories:04d}")
        started = time.monotonic()
        a.run("import", "-", stdin="\n".join(lines) + "\n")
        import_ms = (time.monotonic() - started) * 1000
        for newcomer in newcomers:
            newcomer.run("import", "-", stdin="\n".join(lines) + "\n")
        # The repositories' first reads (their latest commits) are the first pull's, not the first push's.
        a.run("sync", "--quiet")
        a.run("remote", "init", "doogit-data")
        for machine in joining:
            machine.run("remote", "init", "doogit-data")
        call(base, f"/_delay?ms={args.delay}")

        rows = []

        print(f"\ndoogit sync with a remote: {args.todos} todos over {args.repositories} repositories, "
              f"{'HTTP/2 over TLS' if proxy else 'HTTP/1.1'}, +{args.delay} ms per answer (median of {args.runs} runs; the first push once)\n")
        print(f"{'scenario':<34}{'wall ms':>8}{'requests':>9}{'remote':>7}{'KB sent':>9}{'KB rec':>9}{'units':>6}"
              f"{'peer ms':>8}{'ratio':>7}", flush=True)

        def row(label, samples, peer_samples):
            """A scenario's row, printed as soon as it is measured."""
            wall = statistics.median(s[0] for s in samples)
            peer_wall = statistics.median(s[0] for s in peer_samples)
            stats = samples[len(samples) // 2][1]
            rows.append((label, wall, stats, peer_wall, samples[len(samples) // 2][2]))
            print(f"{label:<34}{wall:>8.0f}{stats['requests']:>9}{stats['remoteRequests']:>7}"
                  f"{stats['remoteBytesSent'] / 1024:>9.1f}{stats['remoteBytesAnswered'] / 1024:>9.1f}{stats['rateLimitUsed']:>6}"
                  f"{peer_wall:>8.0f}{wall / peer_wall:>7.2f}", flush=True)

        peer.run("sync", "--quiet")  # the peer's ETags are learnt, as a's are
        row("first push (a)", [measured_sync(a, base)], [measured_sync(peer, base)])
        a.run("sync", "--quiet")  # reads the branch once after its write, to learn its ETag
        row("no-op sync (a)", [measured_sync(a, base) for _ in range(args.runs)],
            [measured_sync(peer, base) for _ in range(args.runs)])
        row("first pull (b)", [measured_sync(machine, base) for machine in joining],
            [measured_sync(newcomer, base) for newcomer in newcomers])
        b.run("sync", "--quiet")
        a.run("sync", "--quiet")
        per_repository = args.todos // args.repositories
        for label, ids in (("one repository", lambda run, change: 1 + (run * 10 + change) * args.repositories),
                           ("10 repositories", lambda run, change: 1 + (run * 10 + change))):
            sent, received = [], []
            for run in range(args.runs):
                for change in range(10):
                    b.run("todo", "edit", str(ids(run, change)), f"changed on b, run {run}, change {change}")
                sent.append(measured_sync(b, base))
                received.append(measured_sync(a, base))
            peers = [measured_sync(peer, base) for _ in range(args.runs)]
            row(f"10 changes sent, {label}", sent, peers)
            row(f"10 changes rec'd, {label}", received, peers)
        b.run("sync", "--quiet")
        a.run("sync", "--quiet")
        calm = [measured_sync(a, base) for _ in range(args.runs)]
        row("settled sync (a)", calm, [measured_sync(peer, base) for _ in range(args.runs)])

        print("\nremote: requests to the remote repository; KB sent and received: their bodies and answers'")
        print("peer: the same sync on a machine tracking the same repositories without a remote (same run); for the first")
        print("  pull, the first sync of a machine with the same repositories and todos, without a remote")
        print(f"import of {args.todos} todos from todo.txt (setup, no delay): {import_ms:.0f} ms")
        print("\nsteps of the exchange in doogit (sync -v); a tree's POST is the loopback GitHub reading the files, naming")
        print("  and keeping them, plus its delay; the rest of a write is doogit's (the request, the names checked, the record)")
        for label, *_, steps in rows:
            if steps:
                print(f"  {label:<34}{steps}")

        # Years of use: half removed, all removed, then rounds of adding and removing.
        call(base, "/_delay?ms=0")
        full = call(base, "/_remoteSize")["bytes"]
        print(f"\nthe remote over time ({args.todos} todos to start: {full / 1024:.0f} KB in {call(base, '/_remoteSize')['files']} files)")
        half = args.todos // 2
        a.run("todo", "rm", f"1-{half}")
        for machine in (a, b, a, b):
            machine.run("sync", "--quiet")
        size = call(base, "/_remoteSize")["bytes"]
        print(f"  half removed, merged by both: {size / 1024:.0f} KB, {size / full * 100:.0f}% of the start (goal: at most 55%)")
        a.run("todo", "rm", f"{half + 1}-{args.todos}")
        for machine in (a, b, a, b):
            machine.run("sync", "--quiet")
        size = call(base, "/_remoteSize")["bytes"]
        print(f"  all removed, merged by both: {size / 1024:.1f} KB (goal: at most 32 KB)")
        rounds, per_round = 10, args.todos // 10
        print(f"  {rounds} rounds: a adds {per_round} todos and removes the previous round's; b syncs, a syncs")
        print(f"  {'round':>7}{'remote KB':>11}{'a KB sent':>11}{'a KB rec':>10}{'b KB sent':>11}{'b KB rec':>10}")
        next_id = args.todos + 1
        previous = None
        for round_ in range(rounds):
            added = [f"year {round_} todo {i} +own-{i % args.repositories:04d}" for i in range(per_round)]
            a.run("import", "-", stdin="\n".join(added) + "\n")
            if previous:
                a.run("todo", "rm", previous)
            previous = f"{next_id}-{next_id + per_round - 1}"
            next_id += per_round
            _, a_stats, _ = measured_sync(a, base)
            _, b_stats, _ = measured_sync(b, base)
            _, a_again, _ = measured_sync(a, base)
            size = call(base, "/_remoteSize")["bytes"]
            print(f"  {round_ + 1:>7}{size / 1024:>11.0f}{(a_stats['remoteBytesSent'] + a_again['remoteBytesSent']) / 1024:>11.1f}"
                  f"{(a_stats['remoteBytesAnswered'] + a_again['remoteBytesAnswered']) / 1024:>10.1f}"
                  f"{b_stats['remoteBytesSent'] / 1024:>11.1f}{b_stats['remoteBytesAnswered'] / 1024:>10.1f}")
    finally:
        if proxy:
            proxy.stop()
        fake.stdin.close()
        fake.wait(timeout=30)


if __name__ == "__main__":
    main()
