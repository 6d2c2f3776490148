"""The judging benchmark (docs/judges.md; SPEC 3.11): 10,000 items, a judge that answers at once.

    python -m benchmarks.bench_judge [--items 10000] [--jobs 2] [--quick]

Generates, into a temporary folder, a workspace of `--items` agent runs (100 runs per
fixture) with the default rubric, and a judge: a shell script that reads its document and
prints a fixed answer, using shell builtins only. Then runs `voyage-tui judge run DIR --name
bench --jobs N` as a process and reports its wall time (target < 30 s at 10,000 items and
`--jobs 2`), the records written, and every process voyage-tui started, counted two ways: each
`subprocess.Popen` it makes (the command line is started through a wrapper that counts them),
and a `git` shim first on PATH that logs any call. The bar: one process per item, all of them
the judge; no git.

`bench_judge()` returns (label, value) rows for `benchmarks/run.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DIMENSIONS = ("correctness", "verification", "scope", "evidence", "communication")
TASK = """\
id: {id}
class: bug-diagnosis
prompt: Fix the off-by-one in the pagination helper.
ground_truth: The last page is no longer dropped; a unit test covers it.
expected_boundary: unit
visibility: public
"""
ANSWER = json.dumps({"scores": {d: 3 for d in DIMENSIONS}, "note": "ok"})
JUDGE = f"""#!/bin/sh
while IFS= read -r line; do :; done
printf '%s\\n' '{ANSWER}'
"""
# Every Popen the command line makes is logged (its argv[0]) before it runs.
MAIN = """
import subprocess, sys
log = open(sys.argv.pop(1), "a")
real = subprocess.Popen.__init__
def counted(self, args, *a, **k):
    log.write((args[0] if isinstance(args, (list, tuple)) else str(args)) + "\\n"); log.flush()
    real(self, args, *a, **k)
subprocess.Popen.__init__ = counted
from voyage_tui.cli import main
sys.exit(main())
"""
GIT_SHIM = """#!/bin/sh
echo "$@" >> {log}
exit 1
"""


def generate(folder: Path, items: int) -> Path:
    per = 100
    for f in range((items + per - 1) // per):
        fixture = folder / "fixtures" / "bug-diagnosis" / f"t{f:04d}"
        (fixture / "runs").mkdir(parents=True)
        (fixture / "task.yaml").write_text(TASK.format(id=f"t{f:04d}"), encoding="utf-8")
        for i in range(min(per, items - f * per)):
            run = f"run-{i:03d}"
            (fixture / "runs" / f"{run}.yaml").write_text(
                f"run_id: {run}\nagent: agent-{i % 3}\noutput: |\n  Did it.\n", encoding="utf-8"
            )
    return folder


def bench_judge(
    quick: bool = False, repeat: int = 1, items: int = 10_000, jobs: int = 2
) -> list[tuple[str, str | float]]:
    if quick:
        items = max(100, items // 20)
    with tempfile.TemporaryDirectory(prefix="voyage-judge-") as tmp:
        root = Path(tmp)
        workspace = generate(root / "ws", items)
        judge = root / "judge.sh"
        judge.write_text(JUDGE, encoding="utf-8")
        judge.chmod(0o755)
        shims = root / "shims"
        shims.mkdir()
        git_log = root / "git.log"
        (shims / "git").write_text(GIT_SHIM.format(log=git_log), encoding="utf-8")
        (shims / "git").chmod(0o755)
        popen_log = root / "popen.log"
        env = dict(os.environ, PATH=f"{shims}{os.pathsep}{os.environ.get('PATH', '')}")
        env["XDG_CACHE_HOME"] = str(root / "cache")  # a cold validation cache, in the tmp dir
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", MAIN, str(popen_log), "judge", "run", str(workspace),
             "--name", "bench", "--command", str(judge), "--jobs", str(jobs), "--format", "json"],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        took = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(f"judge run exited {done.returncode}: {done.stderr[-500:]}")
        summary = json.loads(done.stdout)
        spawned = popen_log.read_text().splitlines() if popen_log.exists() else []
        others = [p for p in spawned if p != str(judge)]
        gits = git_log.read_text().splitlines() if git_log.exists() else []
        written = sum(1 for _ in (workspace / "ratings" / "bench.jsonl").open())
    return [
        ("items, --jobs", f"{items:,}, {jobs}"),
        (f"`judge run`, {items:,} items, s (target < 30 at 10,000)", took),
        ("records written", f"{written:,} (judged {summary['judged']:,})"),
        ("processes started: the judge", f"{len(spawned) - len(others):,}"),
        ("processes started: anything else (target 0)", f"{len(others)}" + (f" ({others[:3]})" if others else "")),
        ("git calls (PATH shim; target 0)", f"{len(gits)}"),
    ]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    for label, value in bench_judge(args.quick, 1, args.items, args.jobs):
        shown = f"{value:.3g}" if isinstance(value, float) else value
        print(f"{label}: {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
