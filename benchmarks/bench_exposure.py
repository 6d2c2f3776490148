"""Benchmark of the git checks (docs/performance.md): holdout exposure over a 10,000-commit history, against a
bare `git log --name-only --no-renames` of the same repository (target: at most 2x), and the
`final_head_sha` check of 1,000 trajectories.

    python -m benchmarks.bench_exposure [--commits 10000] [--fixtures 2000] [--keep DIR]

The repository is generated with `git fast-import` (a few seconds): a workspace with `fixtures`
(one in ten a holdout with a canary), an agent bundle under `agent/`, source files under `src/`,
and a history in which most commits change source files, some change fixtures, some the bundle,
and a few do both, or copy a holdout's canary or a sentence of its prompt elsewhere. Times are medians of 5 runs (log and
exposure interleaved).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from voyage_tui.engine.git.exposure import compute_exposure
from voyage_tui.engine.git.repo import open_repo
from voyage_tui.engine.git.sha_check import check_shas
from voyage_tui.engine.validation.suite import Suite

WORDS = [
    "cache",
    "invalidation",
    "retry",
    "budget",
    "token",
    "session",
    "parser",
    "migration",
    "schema",
    "rollback",
    "deadline",
    "queue",
    "worker",
    "lock",
    "timeout",
    "handler",
    "request",
    "response",
    "payload",
    "checksum",
    "index",
    "shard",
    "replica",
    "config",
    "flag",
    "feature",
    "toggle",
    "release",
    "branch",
    "commit",
    "review",
    "verdict",
    "boundary",
    "integration",
    "endpoint",
    "client",
    "server",
    "socket",
    "buffer",
    "stream",
    "encoder",
    "decoder",
    "audit",
    "log",
    "metric",
    "alert",
    "ledger",
    "invoice",
    "exporter",
    "importer",
    "tenant",
    "quota",
    "scheduler",
    "cron",
    "webhook",
    "signature",
    "nonce",
    "cursor",
    "page",
    "offset",
    "window",
    "throttle",
    "backoff",
    "jitter",
    "breaker",
    "fallback",
    "canary",
    "shadow",
    "rollout",
    "drain",
]
CUSTODIANS = [("Cora Custodian", "cora@evals.example"), ("Dan Keeper", "dan@evals.example")]
OTHERS = [(f"Dev {n}", f"dev{n}@agents.example") for n in range(8)]
ENV = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _fixture(rng: random.Random, fixture_id: str, holdout: bool) -> str:
    lines = [f"# canary: {uuid.UUID(int=rng.getrandbits(128))}"] if holdout else []
    lines += [
        f"id: {fixture_id}",
        "class: bug-diagnosis",
        "prompt: >-",
        *(f"  {_sentence(rng, rng.randint(12, 20))}" for _ in range(4)),
        "ground_truth: >-",
        *(f"  {_sentence(rng, rng.randint(12, 20))}" for _ in range(2)),
        "expected_boundary: unit",
        f"visibility: {'holdout' if holdout else 'public'}",
    ]
    return "\n".join(lines) + "\n"


class _Stream:
    """A `git fast-import` stream written straight into the process's stdin."""

    def __init__(self, repo: Path) -> None:
        self.proc = subprocess.Popen(
            ["git", "fast-import", "--quiet", f"--export-marks={repo / '.git' / 'marks'}"],
            cwd=repo,
            stdin=subprocess.PIPE,
            env={**os.environ, **ENV},
        )
        assert self.proc.stdin is not None
        self.out = self.proc.stdin
        self.mark = 0
        self.when = 1_600_000_000

    def _data(self, payload: bytes) -> None:
        self.out.write(b"data %d\n" % len(payload) + payload + b"\n")

    def commit(self, who: tuple[str, str], files: dict[str, str], message: str) -> int:
        self.mark += 1
        self.when += 600
        ident = f"{who[0]} <{who[1]}> {self.when} +0000"
        self.out.write(
            f"commit refs/heads/main\nmark :{self.mark}\nauthor {ident}\ncommitter {ident}\n".encode()
        )
        self._data(message.encode())
        if self.mark > 1:
            self.out.write(f"from :{self.mark - 1}\n".encode())
        for path, content in files.items():
            self.out.write(f"M 100644 inline {path}\n".encode())
            self._data(content.encode())
        return self.mark

    def close(self) -> None:
        self.out.write(b"done\n")
        self.out.close()
        if self.proc.wait() != 0:
            raise RuntimeError("git fast-import failed")


def generate(
    root: Path, commits: int = 10_000, fixtures: int = 2_000, seed: int = 7
) -> dict[str, object]:
    """Write the repository at `root` and check it out. Returns facts about it."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    subprocess.run(
        ["git", "init", "-q", "-b", "main"], cwd=root, check=True, env={**os.environ, **ENV}
    )
    ids = [f"f{n:05d}" for n in range(fixtures)]
    holdouts = set(ids[::10])
    texts = {i: _fixture(rng, i, i in holdouts) for i in ids}
    paths = {i: f"fixtures/bug-diagnosis/{i}/task.yaml" for i in ids}
    bundle = [f"agent/prompts/p{n:02d}.md" for n in range(40)] + [
        f"agent/tools/t{n:02d}.py" for n in range(20)
    ]
    source = [f"src/pkg{n % 20:02d}/mod{n:03d}.py" for n in range(400)]

    def body(lines: int) -> str:
        return "\n".join(f"# {_sentence(rng, rng.randint(6, 14))}" for _ in range(lines)) + "\n"

    stream = _Stream(root)
    config = (
        "[holdout]\n"
        'custodians = ["cora@evals.example", "dan@evals.example"]\n'
        'bundle_paths = ["agent/**"]\n'
        'ignore_paths = ["*.md"]\n'
    )
    stream.commit(CUSTODIANS[0], {"voyage.toml": config, **{p: body(30) for p in source}}, "source")
    stream.commit(CUSTODIANS[0], {p: body(20) for p in bundle}, "bundle")
    stream.commit(CUSTODIANS[1], {paths[i]: texts[i] for i in ids}, "fixtures")
    holdout_list = sorted(holdouts)
    leaks = 0
    while stream.mark < commits:
        roll = rng.random()
        who = rng.choice(OTHERS) if rng.random() < 0.8 else rng.choice(CUSTODIANS)
        files: dict[str, str] = {}
        if roll < 0.70:
            for path in rng.sample(source, rng.randint(1, 3)):
                files[path] = body(30)
        elif roll < 0.85:
            for path in rng.sample(bundle, rng.randint(1, 2)):
                files[path] = body(20)
        elif roll < 0.97:
            fixture = rng.choice(ids)
            if fixture in holdouts:
                who = rng.choice(CUSTODIANS)
            texts[fixture] += f"# note {stream.mark}\n"
            files[paths[fixture]] = texts[fixture]
        elif roll < 0.995:
            fixture = rng.choice(holdout_list)  # the exposure to find: holdout and bundle together
            texts[fixture] += f"# tweak {stream.mark}\n"
            files[paths[fixture]] = texts[fixture]
            files[rng.choice(bundle)] = body(20)
        elif roll < 0.9975:
            fixture = rng.choice(holdout_list)  # a canary copied into the source
            canary = texts[fixture].split("\n", 1)[0].split(": ", 1)[1]
            files[f"src/copied_{stream.mark}.py"] = f"FIXTURE = {canary!r}\n"
            leaks += 1
        else:
            fixture = rng.choice(holdout_list)  # a sentence of its prompt pasted into a tool
            sentence = texts[fixture].split("prompt: >-\n  ", 1)[1].split("\n", 1)[0]
            files[f"agent/tools/pasted_{stream.mark}.py"] = body(5) + f"# {sentence}\n" + body(5)
            leaks += 1
        stream.commit(who, files, f"change {stream.mark + 1}")
    stream.close()
    subprocess.run(
        ["git", "checkout", "-q", "-f", "main"], cwd=root, check=True, env={**os.environ, **ENV}
    )
    marks = dict(
        line.split(" ", 1) for line in (root / ".git" / "marks").read_text().splitlines() if line
    )
    return {
        "commits": stream.mark,
        "fixtures": fixtures,
        "holdouts": len(holdouts),
        "marks": [sha.strip() for sha in marks.values()],
        "leaks": leaks,
    }  # leaks: commits


def _median(fn: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_exposure(
    commits: int = 10_000, fixtures: int = 2_000, keep: str | None = None
) -> list[tuple[str, float]]:
    """[(name, value)]: seconds for each timing, and the exposure/log ratio."""
    saved = {k: os.environ.get(k) for k in ENV}
    os.environ.update(ENV)
    tmp = tempfile.mkdtemp(prefix="voyage-bench-exposure-")
    try:
        root = Path(keep) if keep else Path(tmp) / "repo"
        if keep and root.exists():
            shutil.rmtree(root)
        start = time.perf_counter()
        facts = generate(root, commits, fixtures)
        generated = time.perf_counter() - start

        suite = Suite.open(root, use_git=False)
        items = list(suite.items.values())

        def bare_log() -> None:
            subprocess.run(
                ["git", "log", "--name-only", "--no-renames"],
                cwd=root,
                check=True,
                capture_output=True,
            )

        report = compute_exposure(suite.ws, items)  # warm the file cache for both
        bare_log()
        log_times, exposure_times = [], []
        for _ in range(5):  # interleaved, so a busy moment of the machine hits both alike
            log_times.append(_median(bare_log, 1))
            exposure_times.append(_median(lambda: compute_exposure(suite.ws, items), 1))
        log_s, exposure_s = statistics.median(log_times), statistics.median(exposure_times)

        rng = random.Random(3)
        commits_known = facts["marks"]  # type: ignore[assignment]
        shas = [rng.choice(commits_known) for _ in range(990)] + [f"{n:040x}" for n in range(10)]

        def sha_check() -> None:
            with open_repo(str(root)) as repo:
                outcomes, _ = check_shas(repo, shas)
            assert sum(1 for o in outcomes.values() if o.kind == "missing") == 10

        sha_s = _median(sha_check)
        return [
            ("repository generated (s)", generated),
            ("commits", float(facts["commits"])),  # type: ignore[arg-type]
            ("holdouts", float(len(report.holdouts))),
            ("holdouts exposed", float(len(report.exposed))),
            ("bare git log --name-only --no-renames (s)", log_s),
            ("exposure (s)", exposure_s),
            ("exposure / git log (ratio, target <= 2)", exposure_s / log_s),
            ("final_head_sha check of 1,000 trajectories (s)", sha_s),
        ]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_exposure", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--fixtures", type=int, default=2_000)
    parser.add_argument("--keep", help="generate the repository here and leave it")
    args = parser.parse_args(argv)
    results = bench_exposure(args.commits, args.fixtures, args.keep)
    width = max(len(name) for name, _ in results)
    for name, value in results:
        shown = f"{value:.0f}" if value.is_integer() and "(s)" not in name else f"{value:.3f}"
        print(f"{name.ljust(width)}  {shown}")
    ratio = dict(results)["exposure / git log (ratio, target <= 2)"]
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
