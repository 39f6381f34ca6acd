#!/usr/bin/env python3
"""Local operations of doogit side by side with Taskwarrior and todo.txt-cli, on the same data:
10,000 todos over 100 repositories (projects) by default (--repositories 1000: 100,000), a fifth of them done. Every timing is a hyperfine
median over repeated runs in this one session; the ratios compare tools measured together.

Run through bench/run (which installs the peers and builds doogit), or:
    bench/local.py --doogit .build/release/doogit
"""
import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time

REPOSITORIES = 100
PER_REPOSITORY = 100


def sh(*args, env=None, stdin=None):
    return subprocess.run(args, env=env, input=stdin, capture_output=True, text=True, check=True).stdout


TAGS = ["ci", "docs", "release"]


def details(n):
    """The same details for todo n in every tool: a due date for every 7th, a priority for every
    3rd, a tag for every 4th."""
    due = f"2026-{(n % 12) + 1:02d}-{(n % 28) + 1:02d}" if n % 7 == 0 else None
    priority = "HML"[(n // 3) % 3] if n % 3 == 0 else None
    tag = TAGS[(n // 4) % 3] if n % 4 == 0 else None
    return due, priority, tag


def build_doogit(doogit, root):
    home = os.path.join(root, "doogit")
    os.makedirs(home)
    env = {"HOME": home, "PATH": os.environ["PATH"], "LANG": "C.UTF-8"}
    sh(doogit, "todo", "list", env=env)  # creates the database and its schema
    db = os.path.join(home, ".local/share/doogit/doogit.sqlite3")
    # The bulk path: rows written straight into doogit's schema (see docs/architecture.md).
    statements = ["BEGIN;"]
    for r in range(REPOSITORIES):
        statements.append(
            f"INSERT INTO repositories (id, owner, name, full_name, description, html_url, added_at, synced_at) "
            f"VALUES ({r + 1}, 'bench', 'repo-{r:03d}', 'bench/repo-{r:03d}', 'Repository number {r}', "
            f"'https://github.com/bench/repo-{r:03d}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');")
    n = 0
    for r in range(REPOSITORIES):
        for t in range(PER_REPOSITORY):
            n += 1
            done = n % 5 == 0
            due, priority, tag = details(n)
            statements.append(
                "INSERT INTO todos (uuid, repository_id, text, done, position, created_at, updated_at, done_at, due, priority) "
                f"VALUES (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || "
                f"substr(lower(hex(randomblob(2))),2) || '-a' || substr(lower(hex(randomblob(2))),2) || '-' || "
                f"lower(hex(randomblob(6))), {r + 1}, 'todo number {n} of repository {r} with a few more words', "
                f"{1 if done else 0}, {t + 1}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', "
                f"{repr('2026-01-02T00:00:00.000Z') if done else 'NULL'}, {repr(due) if due else 'NULL'}, "
                f"{repr(priority) if priority else 'NULL'});")
            if tag:
                statements.append(f"INSERT INTO todo_tags (todo_uuid, tag, tag_key) SELECT uuid, '{tag}', '{tag.lower()}' FROM todos WHERE rowid = last_insert_rowid();")
    statements.append("COMMIT;")
    sh("sqlite3", db, stdin="\n".join(statements))
    return env, db


def build_task(root):
    home = os.path.join(root, "task")
    os.makedirs(home)
    rc = os.path.join(home, ".taskrc")
    with open(rc, "w") as f:
        f.write(f"data.location={home}/data\nconfirmation=off\n")
    env = {"HOME": home, "PATH": os.environ["PATH"], "TASKRC": rc, "LANG": "C.UTF-8"}
    tasks = []
    n = 0
    for r in range(REPOSITORIES):
        for _ in range(PER_REPOSITORY):
            n += 1
            task = {"description": f"todo number {n} of repository {r} with a few more words",
                    "project": f"p{r:03d}", "status": "pending", "entry": "20260101T000000Z"}
            due, priority, tag = details(n)
            if due:
                task["due"] = due.replace("-", "") + "T000000Z"
            if priority:
                task["priority"] = priority
            if tag:
                task["tags"] = [tag]
            if n % 5 == 0:
                task.update(status="completed", end="20260102T000000Z")
            tasks.append(task)
    sh("task", "import", "-", env=env, stdin=json.dumps(tasks))
    uuid = sh("task", "rc.verbose=nothing", "_get", "5001.uuid", env=env).strip()
    return env, uuid


def build_todotxt(root):
    home = os.path.join(root, "todotxt")
    os.makedirs(home)
    config = os.path.join(home, "config")
    with open(config, "w") as f:
        f.write(f'export TODO_DIR="{home}"\nexport TODO_FILE="$TODO_DIR/todo.txt"\n'
                'export DONE_FILE="$TODO_DIR/done.txt"\nexport REPORT_FILE="$TODO_DIR/report.txt"\n')
    lines = []
    n = 0
    for r in range(REPOSITORIES):
        for _ in range(PER_REPOSITORY):
            n += 1
            due, priority, tag = details(n)
            text = f"2026-01-01 todo number {n} of repository {r} with a few more words +p{r:03d}"
            text += (f" due:{due}" if due else "") + (f" @{tag}" if tag else "")
            if priority and n % 5 != 0:
                text = f"({'ABC'['HML'.index(priority)]}) " + text
            lines.append(("x 2026-01-02 " if n % 5 == 0 else "") + text)
    with open(os.path.join(home, "todo.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    open(os.path.join(home, "done.txt"), "w").close()
    env = {"HOME": home, "PATH": os.environ["PATH"], "TODOTXT_CFG_FILE": config, "LANG": "C.UTF-8"}
    return env, os.path.join(home, "todo.txt")


def hyperfine(name, command, env, prepare=None, runs=(5, 40)):
    export = tempfile.mktemp(suffix=".json")
    args = ["hyperfine", "-N", "--warmup", "3", "--min-runs", str(runs[0]), "--max-runs", str(runs[1]),
            "--export-json", export, "--style", "none", "--command-name", name]
    if command.endswith(" -V"):
        args.append("--ignore-failure")  # todo.txt-cli prints its version and exits 1
    if prepare:
        args += ["--prepare", prepare]
    subprocess.run(args + [command], env=env, check=True, capture_output=True)
    with open(export) as f:
        result = json.load(f)["results"][0]
    os.unlink(export)
    return result["median"] * 1000


def interleaved(commands, env, runs=40, warmup=3):
    """Median wall ms of each command, the commands run in turn, once each per round: on a shared
    machine a burst of load falls on all of them alike, so their ratios hold (hyperfine measures
    one command's runs, then the next one's)."""
    argvs = [shlex.split(command) for command in commands]
    times = [[] for _ in commands]
    with open(os.devnull, "wb") as null:
        for round_ in range(warmup + runs):
            for index, argv in enumerate(argvs):
                started = time.perf_counter()
                pid = os.posix_spawnp(argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, null.fileno(), 1)])
                os.waitpid(pid, 0)
                if round_ >= warmup:
                    times[index].append((time.perf_counter() - started) * 1000)
    return [statistics.median(samples) for samples in times]


def quote(*words):
    return " ".join("'" + w.replace("'", "'\\''") + "'" if any(c in w for c in " *+:'") else w for w in words)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True, action="append",
                        help="the doogit to measure; given again (an older build), it is measured beside in the same run")
    parser.add_argument("--repositories", type=int, default=REPOSITORIES,
                        help="how many repositories (projects), each with 100 todos (default 100: 10,000 todos)")
    args = parser.parse_args()
    globals()["REPOSITORIES"] = args.repositories
    doogit = os.path.abspath(args.doogit[0])
    others = [os.path.abspath(other) for other in args.doogit[1:]]
    root = tempfile.mkdtemp(prefix="doogit-bench-")
    try:
        d_env, d_db = build_doogit(doogit, root)
        t_env, t_uuid = build_task(root)
        x_env, x_file = build_todotxt(root)
        todo_sh = shutil.which("todo.sh") or "/usr/bin/todo-txt"
        # The sqlite3 shell reading the rows of the whole list: the speed of the disk, for the
        # list's goal (at most 1.5x this).
        all_rows = quote("sqlite3", d_db, "SELECT r.full_name, t.id, t.done, t.text, t.due, t.priority, "
                         "(SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_uuid = t.uuid) FROM todos t JOIN repositories r "
                         "ON r.id = t.repository_id ORDER BY r.full_name, t.done, t.due IS NULL, t.due, t.priority, t.position")
        # Peer commands with the same meaning; None where a tool has no such operation.
        ops = [
            ("start-up", quote(doogit, "--version"), "task --version", f"{todo_sh} -V", None),
            ("add", quote(doogit, "todo", "add", "-R", "bench/repo-050", "bench", "todo"),
             "task add project:p050 bench todo", quote(todo_sh, "add", "bench todo +p050"), None),
            ("list one repository", quote(doogit, "todo", "list", "bench/repo-050"),
             "task project:p050 list", quote(todo_sh, "ls", "+p050"), None),
            ("list all", quote(doogit, "todo", "list"), "task list", quote(todo_sh, "ls"), all_rows),
            # The tagged rows with what the list shows of them (their tags too, as for the whole list).
            ("list --tag ci", quote(doogit, "todo", "list", "--tag", "ci"), "task +ci list", quote(todo_sh, "ls", "@ci"),
             quote("sqlite3", d_db, "SELECT r.full_name, t.id, t.done, t.text, t.due, t.priority, "
                   "(SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_uuid = t.uuid) FROM todos t JOIN repositories r "
                   "ON r.id = t.repository_id WHERE t.uuid IN (SELECT todo_uuid FROM todo_tags WHERE tag = 'ci') "
                   "ORDER BY r.full_name, t.done, t.due IS NULL, t.due, t.priority, t.position")),
            ("next", quote(doogit, "next"), "task next limit:10", None, None),
            ("done", quote(doogit, "todo", "done", "5001"), f"task {t_uuid} done",
             quote(todo_sh, "-a", "-f", "do", "5001"), None),
            ("list --json", quote(doogit, "todo", "list", "--json"), "task export", None, all_rows),
        ]
        prepares = {
            "done": (quote(doogit, "todo", "undo", "5001"), f"task {t_uuid} modify status:pending",
                     quote("sed", "-i", "5001s/^x [0-9-]* //", x_file)),
        }
        table = []
        for name, d_cmd, t_cmd, x_cmd, sql_cmd in ops:
            prep = prepares.get(name, (None, None, None))
            slow = (3, 15) if name.startswith("list") else (5, 40)
            # The same command by each other build, on the same store.
            other_cmds = [d_cmd.replace(quote(doogit), quote(other)) for other in others]
            if name in ("list all", "list --tag ci", "list --json"):
                # The rows that carry the goals (at most 1.5x the sqlite3 shell): doogit, the other
                # builds and the sqlite3 shell in turn.
                d, *rest = interleaved([d_cmd, *other_cmds, sql_cmd], d_env)
                o, s = rest[:-1], rest[-1]
            else:
                d = hyperfine("doogit", d_cmd, d_env, prep[0], slow)
                o = [hyperfine("doogit", command, d_env, prep[0].replace(quote(doogit), quote(other)) if prep[0] else None, slow)
                     for command, other in zip(other_cmds, others)]
                s = hyperfine("sqlite3", sql_cmd, d_env, None, slow) if sql_cmd else None
            t = hyperfine("task", t_cmd, t_env, prep[1], slow) if t_cmd else None
            x = hyperfine("todo.txt", x_cmd, x_env, prep[2], slow) if x_cmd else None
            table.append((name, d, t, x, s, o))
    finally:
        shutil.rmtree(root, ignore_errors=True)

    def cell(value):
        return f"{value:9.1f}" if value is not None else f"{'-':>9}"

    def ratio(peer, mine):
        return f"{peer / mine:8.1f}x" if peer is not None else f"{'-':>9}"

    print(f"\nmedian ms, {REPOSITORIES * PER_REPOSITORY:,} todos over {REPOSITORIES} repositories "
          "(ratios: peer time / doogit time, higher is better for doogit)\n")
    print(f"{'operation':<22}{'doogit':>9}{'task':>9}{'todo.txt':>9}{'sqlite3':>9}"
          f"{'vs task':>10}{'vs todo':>10}{'vs sqlite':>10}" + "".join(f"{'other ' + str(i + 1):>10}{'vs sqlite':>10}" for i in range(len(others))))
    for name, d, t, x, s, o in table:
        vs_sqlite = f"{d / s:9.2f}x" if s else f"{'-':>10}"
        extra = "".join(f"{cell(m)} " + (f"{m / s:9.2f}x" if s else f"{'-':>9}") for m in o)
        print(f"{name:<22}{cell(d)}{cell(t)}{cell(x)}{cell(s)} {ratio(t, d)} {ratio(x, d)} {vs_sqlite}" + extra)
    print("\n'vs sqlite' is doogit's time over the sqlite3 shell reading the same rows (lower is better);"
          " 'list all' and 'list --json' run doogit, the other builds and sqlite3 in turn, 40 rounds.")
    for i, other in enumerate(others):
        print(f"other {i + 1}: {other}")


if __name__ == "__main__":
    main()
