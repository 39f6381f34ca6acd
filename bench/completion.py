#!/usr/bin/env python3
"""How long one Tab takes: `doogit __complete`, which the completion scripts run on every Tab,
next to `doogit --version` (the start-up floor) measured in the same run, on the data of
bench/local.py (10,000 todos over 100 repositories, a fifth of them done) and with no database.

Run through bench/completion (which builds doogit as shipped), or:
    bench/completion.py --doogit .build/release/doogit
"""
import argparse
import os
import shlex
import tempfile

from local import PER_REPOSITORY, REPOSITORIES, build_doogit, hyperfine


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--doogit", required=True)
    doogit = os.path.abspath(parser.parse_args().doogit)
    with tempfile.TemporaryDirectory(prefix="doogit-bench-") as root:
        env, _ = build_doogit(doogit, root)
        empty = dict(env, HOME=os.path.join(root, "nobody"))
        ops = [
            ("start-up (--version)", env, [doogit, "--version"]),
            ("a command", env, [doogit, "__complete", "--", "todo", "a"]),
            ("an option", env, [doogit, "__complete", "--", "todo", "list", "--"]),
            ("a repository (-R)", env, [doogit, "__complete", "--", "todo", "add", "-R", "bench/repo-05"]),
            ("every repository", env, [doogit, "__complete", "--", "repo", "remove", ""]),
            ("every open todo ID", env, [doogit, "__complete", "--", "todo", "done", ""]),
            ("todo IDs, no database", empty, [doogit, "__complete", "--", "todo", "done", ""]),
        ]
        rows = [(name, hyperfine("doogit", shlex.join(words), environment)) for name, environment, words in ops]

    floor = rows[0][1]
    print(f"\nmedian ms, {REPOSITORIES * PER_REPOSITORY:,} todos over {REPOSITORIES} repositories "
          "(ratio: time / doogit --version)\n")
    print(f"{'completing':<24}{'ms':>8}{'ratio':>9}")
    for name, ms in rows:
        print(f"{name:<24}{ms:8.2f}{ms / floor:8.2f}x")


if __name__ == "__main__":
    main()
