#!/usr/bin/env python3
"""Benchmark of `doogit sync`: 1,000 tracked repositories against a GitHub API on loopback that
adds a delay to every answer and enforces GitHub's secondary rate limits. Prints, for each
scenario: wall time (median of runs), requests sent, rate-limit units used, connections opened
and the time doogit waited to keep within the secondary limits ("paced ms"), for `repo add` of
them all, the first sync, a no-op sync, and a sync after 10 changes. First, `repo add` of 1,000
repositories of one owner beside curl fetching that owner's listing (its pages at once), the
limit for doogit reading the same listing. Scenarios: your own
repositories (your listing), others' public ones (their owners' listings, 10 owners), others'
private ones (by id, paced: a minute's points are 900 on GitHub, 800 for doogit), and with
--scale, 10,000 of 100 owners (first and no-op syncs only).

With --https the GitHub is behind an HTTP/2 TLS proxy (nghttpx, a self-signed certificate that
doogit trusts through SSL_CERT_FILE), connections are counted with strace, and `curl --parallel`
fetching the same URLs over HTTP/2 is measured in the same run, as the limit (others' private
repositories, read by id: 800 by default, the most within a minute's points of the secondary
limits, which curl does not keep; more would make curl meet them). Each scenario's rows are
printed as soon as it ends.

Run through bench/run-sync (which builds the binaries), or:
    bench/sync.py --doogit .build/release/doogit --fake .build/release/fake-github [--https]
Given --doogit more than once (an older build, then this one), every binary is measured in the
same run, their runs taking turns.
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

TOKEN = "ghp_testtoken0123456789"


def call(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read() or b"{}")


PACED = re.compile(r"waiting (\d+) ms to keep within GitHub's secondary rate limit")


def run(doogit, env, *args, wrap=lambda command: command):
    """Runs doogit with -v: (seconds, stdout, ms it waited for the secondary limits)."""
    started = time.monotonic()
    result = subprocess.run(wrap([doogit, "-v", *args]), env=env, capture_output=True, text=True, timeout=3600)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"doogit {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()[-2000:]}")
    return elapsed, result.stdout, sum(int(ms) for ms in PACED.findall(result.stderr))


def environment(home, base, proxy):
    """A HOME's environment for doogit, reaching the GitHub directly or through the proxy."""
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "DOOGIT_API_URL": proxy.url if proxy else base, "GH_TOKEN": TOKEN,
           "LANG": "C.UTF-8"}
    if proxy:
        env["SSL_CERT_FILE"] = proxy.certificate
    return env


def measured(base, proxy, doogit, env, *doogit_args):
    """One command on counters started afresh: (ms, requests, units, connections, paced ms),
    and the fake's statistics. Through the proxy, connections are counted with strace."""
    call(base, "/_reset")
    opened = call(base, "/_stats")["connections"]
    if proxy:
        wrap, count = https.traced([], proxy.port)
        elapsed, _, paced = run(doogit, env, *doogit_args, wrap=lambda command: wrap + command)
        connections = count()
    else:
        elapsed, _, paced = run(doogit, env, *doogit_args)
    stats = call(base, "/_stats")
    if not proxy:
        connections = stats["connections"] - opened
    return (elapsed * 1000, stats["requests"], stats["rateLimitUsed"], connections, paced), stats


def stop(fake, proxy):
    if proxy:
        proxy.stop()
    fake.stdin.close()
    fake.wait(timeout=30)


def scenario(args, label, own, others, runs, proxy_wanted=False, owners=10, private=False,
             phases=("first sync", "no-op sync", "10 changed")):
    fake = subprocess.Popen([args.fake, "--own", str(own), "--others", str(others), "--owners", str(owners)]
                            + (["--private-others"] if private else []),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proxy = None
    try:
        base = fake.stdout.readline().strip()
        if proxy_wanted:
            proxy = https.Proxy(base)
        names = [f"octocat/own-{i:04d}" for i in range(own)] + \
                [f"other{i % owners}/lib-{i:04d}" for i in range(others)]
        call(base, f"/_delay?ms={args.delay}")
        # Each binary in a HOME of its own; the phases of all of them take turns, so that they
        # are measured on the machine as it is at the same moments.
        homes = []
        for doogit in args.doogit:
            home = tempfile.mkdtemp(prefix="doogit-bench-")
            homes.append((doogit, home, environment(home, base, proxy)))

        def within_limits(doogit, env, *doogit_args):
            """One command, as a sync run a while after the last (the fake's counters and its
            secondary limits' minute start afresh), which must meet no secondary limit."""
            row, stats = measured(base, proxy, doogit, env, *doogit_args)
            if stats["secondaryRefusals"] or stats["requestsWhileLimited"]:
                raise SystemExit(f"doogit {' '.join(doogit_args)} met a secondary rate limit: {stats}")
            return row

        rows = []
        samples = {}
        for doogit, home, env in homes:
            if len(names) <= 1000:
                rows.append((label, "repo add", doogit, *within_limits(doogit, env, "repo", "add", *names)))
            else:
                # Thousands are added in parts, with the fake's secondary limits off meanwhile
                # (each part is a command of its own, and not what is measured).
                call(base, "/_limits?on=0")
                for start in range(0, len(names), 800):
                    call(base, "/_reset")  # and within the hour's requests
                    run(doogit, env, "repo", "add", *names[start:start + 800])
                call(base, "/_limits?on=1")
        for phase in phases:
            for attempt in range(runs):
                for doogit, home, env in homes:
                    if phase == "first sync":
                        # Forget the ETags and cached listing that `repo add` left, as after an upgrade.
                        subprocess.run(["sqlite3", os.path.join(home, ".local/share/doogit/doogit.sqlite3"),
                                        "UPDATE repositories SET etag = NULL; DELETE FROM listing_pages;"], check=True)
                    if phase == "10 changed":
                        call(base, "/_touch?count=10")
                    samples.setdefault((phase, doogit), []).append(within_limits(doogit, env, "sync", "--quiet"))
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
        stop(fake, proxy)


def curl_pages(base, url, pages, runs):
    """curl fetching the pages of a listing at once (`--parallel`; over HTTP/1.1, a connection
    each): (median ms, connections)."""
    config = tempfile.mktemp(prefix="doogit-bench-pages-")
    with open(config, "w") as out:
        out.write(f'header = "Authorization: Bearer {TOKEN}"\n')
        for page in pages:
            out.write(f'url = "{url}&page={page}"\noutput = "/dev/null"\n')
    times, connections = [], []
    for _ in range(runs):
        call(base, "/_reset")
        opened = call(base, "/_stats")["connections"]
        started = time.monotonic()
        subprocess.run(["curl", "--silent", "--show-error", "--no-progress-meter", "--fail", "--parallel", "--parallel-max", "100", "-K", config],
                       check=True)
        times.append((time.monotonic() - started) * 1000)
        connections.append(call(base, "/_stats")["connections"] - opened)
    return statistics.median(times), statistics.median(connections)


def one_owner(args, n, runs, proxy_wanted=False):
    """`repo add` of n repositories of one owner (an organisation's, public: its listing holds
    them), each run in a new HOME, beside curl fetching the pages of that owner's listing."""
    fake = subprocess.Popen([args.fake, "--own", "0", "--others", str(n), "--owners", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proxy = None
    label = f"{n} of one owner"
    try:
        base = fake.stdout.readline().strip()
        if proxy_wanted:
            proxy = https.Proxy(base)
        call(base, f"/_delay?ms={args.delay}")
        names = [f"other0/lib-{i:04d}" for i in range(n)]
        samples = {}
        for _ in range(runs):
            for doogit in args.doogit:
                env = environment(tempfile.mkdtemp(prefix="doogit-bench-"), base, proxy)
                samples.setdefault(doogit, []).append(measured(base, proxy, doogit, env, "repo", "add", *names)[0])
        rows = [(label, "repo add", doogit, *(statistics.median(column) for column in zip(*samples[doogit])))
                for doogit in args.doogit]
        pages = range(1, (n + 99) // 100 + 1)
        if proxy:
            ms, connections = https.curl_limit(proxy, [f"{proxy.url}/users/other0/repos?per_page=100&sort=full_name&page={p}"
                                                       for p in pages], TOKEN, runs, before_each=lambda: call(base, "/_reset"))
        else:
            ms, connections = curl_pages(base, f"{base}/users/other0/repos?per_page=100&sort=full_name", pages, runs)
        rows.append((label, "curl its pages", "curl", ms, len(pages), len(pages), connections))
        return rows
    finally:
        stop(fake, proxy)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True, action="append",
                        help="the doogit to measure; given again, each is measured in the same run (before and after)")
    parser.add_argument("--fake", required=True)
    parser.add_argument("--repositories", type=int,
                        help="how many repositories (default 1000; 800 with --https, the most curl reads by id "
                             "within a minute's points of the secondary limit)")
    parser.add_argument("--delay", type=int, default=50, help="ms added to every answer")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--https", action="store_true",
                        help="behind an HTTP/2 TLS proxy (nghttpx), with curl --parallel as the limit")
    parser.add_argument("--scale", action="store_true",
                        help="also 10,000 repositories of 100 owners (first and no-op sync)")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # each result as soon as it is printed
    n = args.repositories = args.repositories or (800 if args.https else 1000)
    transport = "HTTPS through nghttpx (HTTP/2)" if args.https else "plain HTTP"
    print(f"\ndoogit, {n} tracked repositories, {transport}, +{args.delay} ms per answer "
          f"(median of {args.runs} runs; repo add once, but of one owner's)\n")
    several = len(args.doogit) > 1
    print(f"{'repositories':<24}{'phase':<17}" + (f"{'binary':<28}" if several else "")
          + f"{'wall ms':>10}{'vs curl':>9}{'requests':>10}{'rate units':>12}{'connections':>13}{'paced ms':>10}",
          flush=True)

    def show(rows):
        """A scenario's rows, printed as soon as it ends."""
        limit = {label: ms for label, phase, _, ms, *_ in rows if phase.startswith("curl")}
        for label, phase, binary, ms, requests, units, connections, *paced in rows:
            ratio = f"{ms / limit[label]:8.2f}x" if label in limit else f"{'-':>9}"
            print(f"{label:<24}{phase:<17}" + (f"{binary[-27:]:<28}" if several else "")
                  + f"{ms:>10.0f}{ratio}{requests:>10.0f}{units:>12.0f}{connections:>13.0f}"
                  + (f"{paced[0]:>10.0f}" if paced else f"{'-':>10}"), flush=True)

    show(one_owner(args, n, args.runs, proxy_wanted=args.https))
    if args.https:
        show(scenario(args, f"{n} others' (by id)", 0, n, args.runs, proxy_wanted=True, private=True))
    else:
        show(scenario(args, f"{n} own (listing)", n, 0, args.runs))
        show(scenario(args, f"{n} others' (listings)", 0, n, args.runs))
        show(scenario(args, f"{n} others' (by id)", 0, n, 1, private=True))
        if args.scale:
            show(scenario(args, "10000 of 100 owners", 0, 10_000, 1, owners=100,
                          phases=("first sync", "no-op sync")))
    sequential = n * args.delay
    print(f"\n(one request at a time would need at least {sequential} ms for {n} repositories)")


if __name__ == "__main__":
    main()
