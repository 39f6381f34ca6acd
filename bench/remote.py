#!/usr/bin/env python3
"""Benchmark of keeping the same todos on two machines through todos.jsonl in a private
repository (`doogit remote init`, then `doogit sync`): 10,000 todos over 100 repositories,
against a loopback GitHub (bench/fake-github, the test fake with the Contents API) that adds a
delay to every answer.

For each scenario: wall time (median of runs), requests (all, and those to the Contents API),
bytes sent (request bodies), rate-limit units; beside it the peer measured in the same run: the
same sync of a machine tracking the same repositories without a remote, i.e. what the
repositories alone cost. Then the steps of the exchange as `sync -v` reports them, the merge of
10,000 todos among them.

Run through bench/run-remote (which builds the binaries), or:
    bench/remote.py --doogit .build/release/doogit --fake .build/release/fake-github
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
import urllib.request


def call(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read() or b"{}")


class Machine:
    def __init__(self, doogit, base, label):
        self.doogit = doogit
        self.label = label
        self.home = tempfile.mkdtemp(prefix=f"doogit-bench-{label}-")
        self.env = {"HOME": self.home, "PATH": "/usr/bin:/bin", "DOOGIT_API_URL": base,
                    "GH_TOKEN": "ghp_testtoken0123456789", "LANG": "C.UTF-8"}

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
    steps = ""
    for line in result.stderr.splitlines():
        if " todos, " in line and " bytes; " in line:
            steps = line.split("; ", 1)[1]
    return elapsed * 1000, stats, steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True)
    parser.add_argument("--fake", required=True)
    parser.add_argument("--todos", type=int, default=10000)
    parser.add_argument("--repositories", type=int, default=100)
    parser.add_argument("--delay", type=int, default=50, help="ms added to every answer")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    fake = subprocess.Popen([args.fake, "--own", str(args.repositories), "--others", "0", "--data", "doogit-data"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        base = fake.stdout.readline().strip()
        a, b, peer = Machine(args.doogit, base, "a"), Machine(args.doogit, base, "b"), Machine(args.doogit, base, "peer")
        names = [f"octocat/own-{i:04d}" for i in range(args.repositories)]
        for machine in (a, peer):
            for start in range(0, len(names), 50):
                machine.run("repo", "add", *names[start:start + 50])
        lines = []
        for index in range(args.todos):
            done = "x 2024-01-02 " if index % 5 == 0 else ""
            lines.append(f"{done}todo {index} of the benchmark +own-{index % args.repositories:04d}")
        started = time.monotonic()
        a.run("import", "-", stdin="\n".join(lines) + "\n")
        import_ms = (time.monotonic() - started) * 1000
        a.run("remote", "init", "doogit-data")
        b.run("remote", "init", "doogit-data")
        call(base, f"/_delay?ms={args.delay}")

        rows = []

        def row(label, samples, peer_samples):
            wall = statistics.median(s[0] for s in samples)
            peer_wall = statistics.median(s[0] for s in peer_samples)
            stats = samples[len(samples) // 2][1]
            rows.append((label, wall, stats["requests"], stats["contentsRequests"], stats["bytesSent"],
                         stats["rateLimitUsed"], peer_wall, samples[len(samples) // 2][2]))

        peer.run("sync", "--quiet")  # the peer's ETags are learnt, as a's are
        first = [measured_sync(a, base)]
        row("first push (a)", first, [measured_sync(peer, base)])
        a.run("sync", "--quiet")  # reads its own write back once, to learn the file's ETag
        row("no-op sync (a)", [measured_sync(a, base) for _ in range(args.runs)],
            [measured_sync(peer, base) for _ in range(args.runs)])
        row("first pull (b)", [measured_sync(b, base)], [measured_sync(peer, base)])
        b.run("sync", "--quiet")
        sent, received = [], []
        for run in range(args.runs):
            for change in range(10):
                b.run("todo", "edit", str(1 + run * 10 + change), f"changed on b, run {run}, change {change}")
            sent.append(measured_sync(b, base))
            received.append(measured_sync(a, base))
        peers = [measured_sync(peer, base) for _ in range(args.runs)]
        row("10 changes sent (b)", sent, peers)
        row("10 changes received (a)", received, peers)

        print(f"\ndoogit sync with a remote: {args.todos} todos over {args.repositories} repositories, "
              f"+{args.delay} ms per answer (median of {args.runs} runs; first push and first pull once)\n")
        print(f"{'scenario':<26}{'wall ms':>9}{'requests':>10}{'contents':>10}{'bytes sent':>12}{'rate units':>12}"
              f"{'peer ms':>9}{'ratio':>7}")
        for label, wall, requests, contents, sent_bytes, units, peer_wall, _ in rows:
            print(f"{label:<26}{wall:>9.0f}{requests:>10}{contents:>10}{sent_bytes:>12}{units:>12}"
                  f"{peer_wall:>9.0f}{wall / peer_wall:>7.2f}")
        print("\npeer: the same sync on a machine tracking the same repositories without a remote (same run)")
        print(f"import of {args.todos} todos from todo.txt (setup, no delay): {import_ms:.0f} ms")
        print("\nsteps of the exchange in doogit (sync -v):")
        for label, *_, steps in rows:
            if steps:
                print(f"  {label:<26}{steps}")
        merges = [float(m) for *_, steps in rows for m in re.findall(r"merge (\d+) ms", steps)]
        if merges:
            print(f"\nmerge of {args.todos} todos: at most {max(merges):.0f} ms (goal: under 100 ms)")
    finally:
        fake.stdin.close()
        fake.wait(timeout=30)


if __name__ == "__main__":
    main()
