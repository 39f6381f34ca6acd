#!/usr/bin/env python3
"""Bulk input: `doogit todo add -R REPO -` (one todo per line of standard input) and `doogit
import FILE` (todo.txt) at 3,000, 12,000, 48,000 and 100,000 lines, beside the sqlite3 shell
inserting the same rows into doogit's schema from an SQL file, the peer: what the database
cannot avoid. Each timing is the median of --runs runs on a fresh copy of an empty database;
the ratio and how each grows from the size before show whether the cost is linear.

Run through bench/run-bulk (which builds doogit as shipped), or:
    bench/bulk.py --doogit .build/release/doogit
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

SIZES = [3_000, 12_000, 48_000, 100_000]


def timed(args, env, stdin=None):
    feed = open(stdin, "rb") if stdin else None
    try:
        start = time.perf_counter()
        subprocess.run(args, env=env, stdin=feed or subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start
    finally:
        if feed:
            feed.close()


def empty_database(doogit, root):
    """A database with its schema and one tracked repository, bench/app (id 1)."""
    home = os.path.join(root, "home")
    os.makedirs(home)
    env = {"HOME": home, "PATH": os.environ["PATH"], "LANG": "C.UTF-8"}
    subprocess.run([doogit, "todo", "list"], env=env, stdout=subprocess.DEVNULL, check=True)
    db = os.path.join(home, ".local/share/doogit/doogit.sqlite3")
    subprocess.run(["sqlite3", db, "INSERT INTO repositories (id, owner, name, full_name, description, html_url, added_at, "
                    "synced_at) VALUES (1, 'bench', 'app', 'bench/app', NULL, 'https://github.com/bench/app', "
                    "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');"], check=True)
    return env, db


def median(runs, setup, measure):
    times = []
    for _ in range(runs):
        setup()
        times.append(measure())
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", default=".build/release/doogit")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="*", default=SIZES)
    arguments = parser.parse_args()
    doogit = os.path.abspath(arguments.doogit)
    root = tempfile.mkdtemp(prefix="doogit-bulk-")
    try:
        env, empty = empty_database(doogit, root)
        work = os.path.join(root, "work.sqlite3")
        print(f"{'lines':>8}  {'sqlite3 shell':>14}  {'todo add -':>22}  {'import (todo.txt)':>22}")
        before = None
        for size in arguments.sizes:
            lines = os.path.join(root, f"lines{size}.txt")
            todotxt = os.path.join(root, f"todo{size}.txt")
            sql = os.path.join(root, f"rows{size}.sql")
            with open(lines, "w") as out:
                out.writelines(f"todo number {n} of a long list\n" for n in range(size))
            with open(todotxt, "w") as out:
                out.writelines(f"todo number {n} of a long list +bench/app\n" for n in range(size))
            with open(sql, "w") as out:
                out.write("BEGIN;\n")
                out.writelines(
                    "INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at) VALUES "
                    "(lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) "
                    "|| '-a' || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))), "
                    f"1, 'todo number {n} of a long list', 0, {n + 1}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');\n"
                    for n in range(size))
                out.write("COMMIT;\n")
            fresh = lambda: shutil.copyfile(empty, work)
            shell = median(arguments.runs, fresh, lambda: timed(["sqlite3", work], env, stdin=sql))
            add = median(arguments.runs, fresh, lambda: timed([doogit, "--db", work, "todo", "add", "-R", "bench/app", "-"], env,
                                                              stdin=lines))
            imported = median(arguments.runs, fresh, lambda: timed([doogit, "--db", work, "import", todotxt, "--from", "todotxt"],
                                                                   env))
            growth = "" if before is None else f"   (x{add / before[0]:.1f}, x{imported / before[1]:.1f} for x{size / before[2]:.1f})"
            print(f"{size:>8}  {shell * 1000:>11.0f} ms  {add * 1000:>9.0f} ms {add / shell:>6.2f}x  "
                  f"{imported * 1000:>9.0f} ms {imported / shell:>6.2f}x{growth}", flush=True)
            before = (add, imported, size)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
