#!/usr/bin/env python3
"""Local operations of doogit side by side with the sqlite3 shell reading the same rows,
Taskwarrior and todo.txt-cli, on the same data at 1,000, 10,000 and 100,000 todos (100 per
repository, or project), a fifth of them done: one table, a column group per size. Every timing is
a median over repeated runs in this one session; the ratios compare tools measured together.

Run through bench/run (which installs the peers and builds doogit), or:
    bench/local.py --doogit .build/release/doogit [--doogit an/older/doogit] [--sizes 1000,10000]
"""
import argparse
import math
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


def build_doogit(doogit, root, name="doogit"):
    home = os.path.join(root, name)
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
    uuid = sh("task", "rc.verbose=nothing", "_get", "5.uuid", env=env).strip()
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
    one command's runs, then the next one's). `env` is one environment, or one per command."""
    envs = env if isinstance(env, list) else [env] * len(commands)
    argvs = [shlex.split(command) for command in commands]
    times = [[] for _ in commands]
    with open(os.devnull, "wb") as null:
        for round_ in range(warmup + runs):
            for index, argv in enumerate(argvs):
                started = time.perf_counter()
                pid = os.posix_spawnp(argv[0], argv, envs[index], file_actions=[(os.POSIX_SPAWN_DUP2, null.fileno(), 1)])
                os.waitpid(pid, 0)
                if round_ >= warmup:
                    times[index].append((time.perf_counter() - started) * 1000)
    return [statistics.median(samples) for samples in times]


def once(command, env, limit):
    """Wall ms of one run of `command`, or None when it takes longer than `limit` seconds (killed)."""
    started = time.perf_counter()
    try:
        subprocess.run(shlex.split(command), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    return (time.perf_counter() - started) * 1000


def quote(*words):
    return " ".join("'" + w.replace("'", "'\\''") + "'" if any(c in w for c in " *+:'<(") else w for w in words)


# The rows every read shows, with their tags (as the list shows them), for the sqlite3 shell.
SELECT = ("SELECT r.full_name, t.id, t.done, t.text, t.due, t.priority, "
          "(SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_uuid = t.uuid) FROM todos t JOIN repositories r "
          "ON r.id = t.repository_id")
ORDER = "ORDER BY r.full_name, t.done, t.due IS NULL, t.due, t.priority, t.position"
# Taskwarrior's urgency as `next` computes it (Urgency.swift; the same SQL is the test oracle in Tests/DoogitStoreTests/UrgencyTests.swift), today's.
URGENCY = ("CAST(round(100 * (CASE WHEN t.due IS NULL THEN 0.0 ELSE 12.0 * max(0.2, min(1.0, 0.2 + 0.8 * "
           "(julianday('now', 'localtime', 'start of day') - julianday(t.due) + 14.0) / 21.0)) END + CASE t.priority "
           "WHEN 'H' THEN 6.0 WHEN 'M' THEN 3.9 WHEN 'L' THEN 1.8 ELSE 0.0 END + 2.0 * min(365, max(0, "
           "CAST(julianday('now') - julianday(t.created_at) AS INTEGER))) / 365.0)) AS INTEGER)")
DUE = "2026-03-01"


def measure(doogit, others, root, task_limit):
    """Every operation at this size: {name: (doogit, [others], task, todo.txt, sqlite3)}, ms."""
    d_env, d_db = build_doogit(doogit, root)
    # Each other build reads a store it made itself, with the same rows: an older build may not
    # open a store a newer one has moved to a later schema.
    o_envs = [build_doogit(other, root, f"other-{index}")[0] for index, other in enumerate(others)]
    x_env, x_file = build_todotxt(root)
    t_env = t_uuid = None
    task_note = None
    if REPOSITORIES * PER_REPOSITORY <= task_limit:
        t_env, t_uuid = build_task(root)
    else:
        task_note = f"Taskwarrior is left out above {task_limit:,} todos (--task-limit)"
    todo_sh = shutil.which("todo.sh") or "/usr/bin/todo-txt"

    def sql(where="", order=ORDER, limit=""):
        return quote("sqlite3", d_db, " ".join(part for part in (SELECT, where, order, limit) if part))

    d = lambda *words: quote(doogit, *words)
    # name, doogit's command, Taskwarrior's, todo.txt's, the sqlite3 shell's (None: no such operation).
    ops = [
        ("start-up", d("--version"), "task --version", f"{todo_sh} -V", None),
        ("add", d("todo", "add", "-R", "bench/repo-005", "bench", "todo"), "task add project:p005 bench todo",
         quote(todo_sh, "add", "bench todo +p005"), None),
        ("list one repository", d("todo", "list", "bench/repo-005"), "task project:p005 list", quote(todo_sh, "ls", "+p005"), None),
        ("list all", d("todo", "list"), "task list", quote(todo_sh, "ls"), sql()),
        ("list --json", d("todo", "list", "--json"), "task export", None, sql()),
        ("list --tag ci", d("todo", "list", "--tag", "ci"), "task +ci list", quote(todo_sh, "ls", "@ci"),
         sql("WHERE t.uuid IN (SELECT todo_uuid FROM todo_tags WHERE tag = 'ci')")),
        ("list --priority H", d("todo", "list", "--priority", "H"), "task priority:H list", quote(todo_sh, "lsp", "A"),
         sql("WHERE t.priority = 'H'")),
        (f"list --due {DUE}", d("todo", "list", "--due", DUE), f"task due.by:{DUE} list", None, sql(f"WHERE t.due <= '{DUE}'")),
        ("next", d("next"), "task next limit:10", None, sql("WHERE t.done = 0", f"ORDER BY {URGENCY} DESC", "LIMIT 10")),
        ("done", d("todo", "done", "6"), f"task {t_uuid} done", quote(todo_sh, "-a", "-f", "do", "6"), None),
    ]
    prepares = {
        "done": (d("todo", "undo", "6"), f"task {t_uuid} modify status:pending", quote("sed", "-i", "6s/^x [0-9-]* //", x_file)),
    }
    results = {}
    for name, d_cmd, t_cmd, x_cmd, sql_cmd in ops:
        prep = prepares.get(name, (None, None, None))
        big = REPOSITORIES * PER_REPOSITORY >= 100_000
        slow = (3, 10) if big and name != "start-up" else (3, 15) if name.startswith("list") else (5, 40)
        other_cmds = [d_cmd.replace(quote(doogit), quote(other)) for other in others]
        if sql_cmd:
            # doogit, the other builds and the sqlite3 shell in turn, so that load falls on all alike.
            mine, *rest = interleaved([d_cmd, *other_cmds, sql_cmd], [d_env, *o_envs, d_env], runs=15 if big else 40)
            o, s = rest[:-1], rest[-1]
        else:
            mine = hyperfine("doogit", d_cmd, d_env, prep[0], slow)
            o = [hyperfine("doogit", command, o_env, prep[0].replace(quote(doogit), quote(other)) if prep[0] else None, slow)
                 for command, other, o_env in zip(other_cmds, others, o_envs)]
            s = None
        t = None
        if t_env and t_cmd:
            # One run first: one slower than the cap is shown as such, not waited for again.
            t = once(t_cmd, t_env, 20) if name != "done" else 0
            t = hyperfine("task", t_cmd, t_env, prep[1], slow) if t is not None else math.inf
        x = None
        if x_cmd:
            x = once(x_cmd, x_env, 20) if name != "done" else 0
            x = hyperfine("todo.txt", x_cmd, x_env, prep[2], slow) if x is not None else math.inf
        results[name] = (mine, o, t, x, s)
    return results, task_note


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doogit", required=True, action="append",
                        help="the doogit to measure; given again (an older build), it is measured beside in the same run")
    parser.add_argument("--sizes", default="1000,10000,100000", help="how many todos, 100 per repository (default 1000,10000,100000)")
    parser.add_argument("--task-limit", type=int, default=100_000,
                        help="the most todos Taskwarrior is measured at (default 100,000: there its import takes seconds, a report 1-3 s)")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    doogit = os.path.abspath(args.doogit[0])
    others = [os.path.abspath(other) for other in args.doogit[1:]]
    columns = []
    notes = []
    for size in sizes:
        globals()["REPOSITORIES"] = max(1, size // PER_REPOSITORY)
        root = tempfile.mkdtemp(prefix="doogit-bench-")
        try:
            results, note = measure(doogit, others, root, args.task_limit)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        columns.append((size, results))
        if note and note not in notes:
            notes.append(note)
        if size != sizes[-1]:
            # What is measured shows as each size ends: a long run stopped later keeps it.
            print(f"\n{size:,} todos measured:")
            report(columns[-1:], others, [])
    if len(sizes) > 1:
        print(f"\nall {len(sizes)} sizes:")
    report(columns, others, notes)


def ms(value):
    if value is None:
        return "-"
    if value == math.inf:
        return "> 20 s"
    return f"{value:.1f}" if value < 1000 else f"{value:,.0f}"


def report(columns, others, notes):
    """The table of `columns` ([(size, results)]), doogit beside the peers, then one of each other build."""
    names = list(columns[0][1])
    print(f"\nmedian ms (wall), {len(columns)} size{'s' if len(columns) > 1 else ''}, 100 todos per repository, "
          "a fifth done; x: doogit's time over the sqlite3 shell's reading the same rows with their tags\n")
    header = "| operation |" + "".join(f" doogit {size:,} | sqlite3 | x | task | todo.txt |" for size, _ in columns)
    print(header)
    print("|---|" + "---:|" * (5 * len(columns)))
    for name in names:
        cells = []
        for _, results in columns:
            mine, _, t, x, s = results[name]
            cells += [ms(mine), ms(s), f"{mine / s:.2f}x" if s else "-", ms(t), ms(x)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    for index, other in enumerate(others):
        print(f"\nother build {index + 1} ({other}), same run:\n")
        print("| operation |" + "".join(f" {size:,} | x |" for size, _ in columns))
        print("|---|" + "---:|" * (2 * len(columns)))
        for name in names:
            cells = []
            for _, results in columns:
                _, o, _, _, s = results[name]
                cells += [ms(o[index]), f"{o[index] / s:.2f}x" if s else "-"]
            print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nReads beside the sqlite3 shell run doogit, the other builds and the shell in turn (40 rounds; 15 at"
          " 100,000); the rest are hyperfine medians. '> 20 s': one run took longer and was stopped.")
    for note in notes:
        print(note + ".")


if __name__ == "__main__":
    main()
