#!/usr/bin/env python3
"""doogit ui on a pseudo-terminal at 1,000 todos over 10 repositories, 10,000 over 100 and
100,000 over 1,000: the time from start to the first full frame next to `doogit todo list` on
the same terminal, and for each kind of keystroke (a move, a page, the list's end and start, the
next section, a toggle, one letter of the filter) and for a change made by another process, the
CPU time and the bytes written. Medians of repeated runs in this one session. With --before, an
earlier build is measured beside it in the same run.

Run through bench/run-ui (which builds doogit), or:
    bench/ui.py --doogit .build/release/doogit [--before OTHER_DOOGIT]
"""
import argparse
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import tempfile
import termios
import fcntl
import time

import local
import subprocess

FRAME_END = b"\x1b[?2026l"


def spawn(argv, env, columns, rows):
    """argv on a new pseudo-terminal of the size given; returns (pid, master fd)."""
    pid, master = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    os.kill(pid, signal.SIGWINCH)
    return pid, master


def read_until(master, marker, timeout=120.0):
    """What the program writes until `marker` has been written (or it ends, or the time is up)."""
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


def cpu_seconds(pid):
    """The CPU time of every thread of the process, in nanoseconds' precision (schedstat), not
    the 10 ms ticks of /proc/PID/stat: a keystroke costs less than a tick."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/schedstat") as f:
            total += int(f.read().split()[0])
    return total / 1e9


def first_frame(doogit, env, columns, rows):
    started = time.perf_counter()
    pid, master = spawn([doogit, "ui"], env, columns, rows)
    data = b""
    while b"j/k move" not in data:
        chunk = read_until(master, FRAME_END)
        if not chunk:
            raise SystemExit("doogit ui drew no list: " + data.decode(errors="replace")[-300:])
        data += chunk
    elapsed = time.perf_counter() - started
    return elapsed, pid, master


def drain(master):
    """Reads until the program closes the terminal, keeping nothing (a list is megabytes)."""
    while True:
        try:
            if not os.read(master, 1 << 16):
                break
        except OSError:
            break


def list_time(doogit, env, columns, rows):
    started = time.perf_counter()
    pid, master = spawn([doogit, "todo", "list"], env, columns, rows)
    drain(master)
    os.waitpid(pid, 0)
    os.close(master)
    return time.perf_counter() - started


def keystrokes(pid, master, keys, count):
    """CPU ms and bytes per key over `count` keys, each sent once the last one's frame is out."""
    before = cpu_seconds(pid)
    written = 0
    for n in range(count):
        os.write(master, keys[n % len(keys)])
        written += len(read_until(master, FRAME_END, timeout=30.0))
    return (cpu_seconds(pid) - before) * 1000 / count, written / count


def other_process(pid, master, db, count):
    """CPU ms and bytes per change that another process (the sqlite3 shell) makes to the first
    repository's description (its header is on the screen), each once the view has drawn the
    one before."""
    before = cpu_seconds(pid)
    written = 0
    for n in range(count):
        subprocess.run(["sqlite3", db, f"UPDATE repositories SET description = 'changed elsewhere {n}' WHERE id = 1"], check=True)
        written += len(read_until(master, FRAME_END, timeout=30.0))
    # The sqlite3 shell's own time is not the view's: only the view's process is counted.
    return (cpu_seconds(pid) - before) * 1000 / count, written / count


KINDS = [
    ("move (j, k)", [b"j", b"k"]),
    # On the first todo again (an even number of moves): toggled done and back.
    ("toggle done (space)", [b" "]),
    ("page (PgDn, PgUp)", [b"\x1b[6~", b"\x1b[5~"]),
    ("end, start (G, g)", [b"G", b"g"]),
    # Tab, then g back to the start: each key draws (Tab at the last section would not).
    ("next section, start (Tab, g)", [b"\t", b"g"]),
    # Each pair: the filter's letter, then Esc clearing it; the mean of the two.
    ("filter x / Esc (none match)", [b"/x", b"\x1b"]),
    ("filter o / Esc (all match)", [b"/o", b"\x1b"]),
]
OTHER = "changed by another process"


def measure(doogit, env, db, columns, rows, runs, count):
    starts, lists = [], []
    per_key = {}
    for _ in range(runs):
        lists.append(list_time(doogit, env, columns, rows))
        elapsed, pid, master = first_frame(doogit, env, columns, rows)
        starts.append(elapsed)
        for name, keys in KINDS:
            cpu, written = keystrokes(pid, master, keys, count)
            per_key.setdefault(name, []).append((cpu, written))
        per_key.setdefault(OTHER, []).append(other_process(pid, master, db, max(1, count // 4)))
        os.write(master, b"q")
        drain(master)
        os.waitpid(pid, 0)
        os.close(master)
    return statistics.median(starts), statistics.median(lists), {
        name: (statistics.median(c for c, _ in values), statistics.median(w for _, w in values))
        for name, values in per_key.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True)
    parser.add_argument("--before", help="an earlier doogit, measured beside it")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keys", type=int, default=40, help="keystrokes of each kind per run")
    parser.add_argument("--size", default="80x24", help="the terminal, COLUMNSxROWS")
    args = parser.parse_args()
    builds = [("doogit", os.path.abspath(args.doogit))]
    if args.before:
        builds.append(("before", os.path.abspath(args.before)))
    columns, rows = (int(n) for n in args.size.split("x"))
    print(f"doogit ui on a {columns}x{rows} pseudo-terminal; medians of {args.runs} runs, {args.keys} keys of each kind per run")
    names = " ".join(f"{name:>14}" for name, _ in builds)
    for repositories, per_repository in [(10, 100), (100, 100), (1000, 100)]:
        local.REPOSITORIES, local.PER_REPOSITORY = repositories, per_repository
        results = []
        for _, doogit in builds:
            root = tempfile.mkdtemp(prefix="doogit-bench-ui-")
            try:
                env, db = local.build_doogit(doogit, root)
                env = dict(env, TERM="xterm-256color")
                results.append(measure(doogit, env, db, columns, rows, args.runs, args.keys))
            finally:
                shutil.rmtree(root, ignore_errors=True)
        print(f"\n{repositories * per_repository:,} todos over {repositories:,} repositories")
        print(f"  {'':<30}{names}   (CPU ms per key; bytes written per key)")
        print(f"  {'first full frame, ms':<30}" + " ".join(f"{start * 1000:14.1f}" for start, _, _ in results))
        print(f"  {'todo list, ms':<30}" + " ".join(f"{listing * 1000:14.1f}" for _, listing, _ in results))
        for name in [kind for kind, _ in KINDS] + [OTHER]:
            cells = " ".join(f"{keys[name][0]:7.2f} {keys[name][1]:6.0f}" for _, _, keys in results)
            print(f"  {name:<30}{cells}")


if __name__ == "__main__":
    main()
