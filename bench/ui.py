#!/usr/bin/env python3
"""doogit ui on a pseudo-terminal, at 10,000 todos over 100 repositories and at 100,000 over
1,000: the time from start to the first full frame next to `doogit todo list` on the same
terminal, and for each kind of keystroke (a move that does not scroll, a move that scrolls a
page, a toggle, one letter of the filter) the CPU time and the bytes written per key. Medians of
repeated runs in this one session.

Run through bench/run-ui (which builds doogit), or:
    bench/ui.py --doogit .build/release/doogit
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

FRAME_END = b"\x1b[?2026l"
TICKS = os.sysconf("SC_CLK_TCK")


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
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


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


def measure(doogit, env, columns, rows, runs, count):
    starts, lists = [], []
    per_key = {}
    for _ in range(runs):
        lists.append(list_time(doogit, env, columns, rows))
        elapsed, pid, master = first_frame(doogit, env, columns, rows)
        starts.append(elapsed)
        kinds = [
            ("move (no scroll)", [b"j", b"k"]),
            ("move a page (PgDn, PgUp)", [b"\x1b[6~", b"\x1b[5~"]),
            ("toggle done (space)", [b" "]),
            # Each pair: the filter's letter, then Esc clearing it; the mean of the two.
            ("filter x / Esc (none match)", [b"/x", b"\x1b"]),
            ("filter o / Esc (all match)", [b"/o", b"\x1b"]),
        ]
        for name, keys in kinds:
            cpu, written = keystrokes(pid, master, keys, count)
            per_key.setdefault(name, []).append((cpu, written))
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
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keys", type=int, default=40, help="keystrokes of each kind per run")
    parser.add_argument("--size", default="80x24", help="the terminal, COLUMNSxROWS")
    args = parser.parse_args()
    doogit = os.path.abspath(args.doogit)
    columns, rows = (int(n) for n in args.size.split("x"))
    print(f"doogit ui on a {columns}x{rows} pseudo-terminal; medians of {args.runs} runs, {args.keys} keys of each kind per run")
    for repositories, per_repository in [(100, 100), (1000, 100)]:
        local.REPOSITORIES, local.PER_REPOSITORY = repositories, per_repository
        root = tempfile.mkdtemp(prefix="doogit-bench-ui-")
        try:
            env, _ = local.build_doogit(doogit, root)
            env = dict(env, TERM="xterm-256color")
            start, listing, keys = measure(doogit, env, columns, rows, args.runs, args.keys)
            print(f"\n{repositories * per_repository:,} todos over {repositories:,} repositories")
            print(f"  {'first full frame':<28}{start * 1000:9.1f} ms   todo list: {listing * 1000:.1f} ms   ratio {start / listing:.2f}x")
            print(f"  {'keystroke':<28}{'CPU ms':>9}   {'bytes written':>13}")
            for name, (cpu, written) in keys.items():
                print(f"  {name:<28}{cpu:9.2f}   {written:13.0f}")
        finally:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
