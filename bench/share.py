#!/usr/bin/env python3
"""Benchmark of shared todos (`doogit repo share`): two machines share one repository's todos
(N of them, beside 99 other tracked repositories) against a loopback GitHub (bench/fake-github)
that adds a delay to every answer.

For each scenario: wall time (median of runs), requests (all, and the Git Data ones: the shared
branch's), writes to the branch, rate-limit units; beside it the peer measured in the same run: a
machine tracking the same repositories and todos without sharing, on the same sync. The first
share (the branch made) and the first join (the branch read whole) are measured once.

Run through bench/run-share (which builds the binaries), or:
    bench/share.py --doogit .build/release/doogit --fake .build/release/fake-github
"""
import argparse
import re
import statistics
import sys

from remote import Machine, call


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True)
    parser.add_argument("--fake", required=True)
    parser.add_argument("--todos", type=int, default=2000)
    parser.add_argument("--repositories", type=int, default=100)
    parser.add_argument("--delay", type=int, default=50, help="ms added to every answer")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)

    import subprocess
    fake = subprocess.Popen([args.fake, "--own", str(args.repositories), "--others", "0", "--commits", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        base = fake.stdout.readline().strip()
        a, b, peer = (Machine(args.doogit, base, label) for label in ("a", "b", "peer"))
        names = [f"octocat/own-{i:04d}" for i in range(args.repositories)]
        shared = names[0]
        lines = "".join(f"todo {index} of the team +own-0000\n" for index in range(args.todos))
        for machine in (a, b, peer):
            for start in range(0, len(names), 50):
                machine.run("repo", "add", *names[start:start + 50])
        for machine in (a, peer):
            machine.run("import", "-", stdin=lines)
            machine.run("sync", "--quiet")
        b.run("sync", "--quiet")
        call(base, f"/_delay?ms={args.delay}")

        def measured(machine, *command):
            call(base, "/_reset")
            elapsed, result = machine.run("-v", *command)
            # The write's POST of the tree: the loopback GitHub taking the file in, with its delay.
            found = re.search(r"POST \S+/git/trees -> 201 \((\d+) ms\)", result.stderr)
            return elapsed * 1000, call(base, "/_stats"), int(found.group(1)) if found else None

        print(f"\ndoogit repo share: {args.todos} todos in the shared repository, {args.repositories} tracked, "
              f"+{args.delay} ms per answer (median of {args.runs} runs; the first share and join once)")
        print("tree POST ms: of the wall time, the loopback GitHub's handling of the tree's POST (the fake's parsing "
              "of the file, with its delay), not doogit's\n")
        print(f"{'scenario':<40}{'wall ms':>8}{'requests':>9}{'branch':>7}{'writes':>7}{'units':>6}{'peer ms':>8}{'ratio':>7}"
              f"{'tree POST ms':>13}")

        def row(label, samples, peer_samples):
            wall = statistics.median(s[0] for s in samples)
            stats = samples[len(samples) // 2][1]
            peer_wall = statistics.median(s[0] for s in peer_samples) if peer_samples else None
            peer_text = f"{peer_wall:>8.0f}{wall / peer_wall:>7.2f}" if peer_wall else f"{'':>8}{'':>7}"
            posts = [s[2] for s in samples if s[2] is not None]
            post_text = f"{statistics.median(posts):>13.0f}" if posts else ""
            print(f"{label:<40}{wall:>8.0f}{stats['requests']:>9}{stats['gitRequests']:>7}{stats['gitWrites']:>7}"
                  f"{stats['rateLimitUsed']:>6}{peer_text}{post_text}")

        row("first share (the branch made)", [measured(a, "repo", "share", shared, "--public")], [])
        row("first join (the branch read whole)", [measured(b, "repo", "share", shared, "--public")], [])
        settled, peers = [], []
        for _ in range(args.runs):
            settled.append(measured(a, "sync"))
            peers.append(measured(peer, "sync"))
        row("settled sync", settled, peers)
        sent, received, peer_changes = [], [], []
        for run in range(args.runs):
            for machine in (a, peer):
                machine.run("todo", "done" if run % 2 == 0 else "undo", "1")
            sent.append(measured(a, "sync"))
            peer_changes.append(measured(peer, "sync"))
            received.append(measured(b, "sync"))
        row("one change sent (one commit)", sent, peer_changes)
        row("one change received", received, peers)
    finally:
        fake.stdin.close()
        fake.wait(timeout=30)


if __name__ == "__main__":
    main()
