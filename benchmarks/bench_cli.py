"""Issue 23's table: what a user and CI pay, every row a process, each against the floor of the
same run.

    python -m benchmarks.bench_cli [CORPUS] [--corpus100k DIR] [--repeat 3] [--quick]

Every `voyage-tui` line is the whole command in a fresh process (interpreter start-up, imports,
the check, printing to /dev/null, the cache written), its wall time over the floor measured in
the same round: `open` + `read` + `yaml.load(CSafeLoader)` / `json.loads` of every file validate
reads, in this process. The app lines run `benchmarks.app_probe` (the app headless, as
`voyage-tui PATH` starts it) against the 10-fixture sample in the same round, cold (an empty
cache folder): the first screen a person can act on is the probe's `first_screen` (the tree
drawn from the listing), the one with every count its `loaded` (the checked suite on screen),
each over the sample's same measure. Each row prints
its best ratio over the rounds and the spread (lowest to highest), so a loaded machine shows as
a wide spread rather than as a regression. Peak memory is wait4's max RSS of the command and
its forked child (the larger of the two), as `/usr/bin/time -v` reports it.

The validation cache lives in a temporary $XDG_CACHE_HOME, never the user's; Python's bytecode
cache is used (PYTHONDONTWRITEBYTECODE unset), as for an installed tool.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.bench_validate import (
    corpus_files,
    describe_corpus,
    floor_gc_off,
    floor_once,
    generate_corpus,
    load_average,
    markdown_table,
    voyage_command,
)
from voyage_tui.engine.workspace.layout import scan
from voyage_tui.engine.workspace.model import Workspace

HEADER = ("measure (issue 23's table)", "best", "ratio (best, spread)", "target", "result")


@dataclass
class Series:
    """One measure over the rounds: its values and, for ratios, the round's reference."""

    values: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)

    def add(self, value: float, reference: float | None = None) -> None:
        self.values.append(value)
        if reference:
            self.ratios.append(value / reference)

    @property
    def best(self) -> float:
        return min(self.values)

    def ratio_text(self, of: str) -> str:
        if not self.ratios:
            return ""
        low, high = min(self.ratios), max(self.ratios)
        return f"{low:.2f}x {of} ({low:.2f}-{high:.2f})"


def _env(cache_home: Path) -> dict[str, str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home), NO_COLOR="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, max RSS in MB of the process and its waited-for children)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {code}")
    return wall, usage.ru_maxrss / 1024


def floor_of(corpus: Path) -> Callable[[], float]:
    ws = Workspace.load(str(corpus))
    files = corpus_files(ws, scan(ws, use_git=False))

    def measure() -> float:
        best = float("inf")
        for fn in (floor_once, floor_gc_off):
            start = time.perf_counter()
            fn(files)
            best = min(best, time.perf_counter() - start)
        return best

    return measure


@dataclass
class Table:
    rows: list[tuple[str, str]] = field(default_factory=list)

    def row(self, label: str, best: str, ratio: str, target: str, ok: bool | None) -> None:
        result = "" if ok is None else ("met" if ok else "**missed**")
        self.rows.append((label, f"{best} | {ratio} | {target} | {result}"))


def _app_probe(workspace: Path, cache_home: Path | None) -> dict[str, float]:
    from benchmarks.bench_app import probe

    return probe(workspace, cache_home=cache_home)


def bench_cli(
    corpus: Path | None = None,
    *,
    repeat: int = 3,
    quick: bool = False,
    corpus100k: Path | None = None,
    app: bool = True,
    cli: bool = True,
) -> list[tuple[str, str]]:
    """Every row of issue 23's table, `repeat` rounds, interleaved; `app=False` leaves out
    the app's rows, `cli=False` the command line's (the 11k `validate` rows)."""
    with tempfile.TemporaryDirectory(prefix="voyage-bench-cli-") as tmp:
        base = Path(tmp)
        if corpus is None:
            corpus = generate_corpus(base / "corpus", quick=quick)
        corpus = Path(corpus).resolve()
        empty = base / "empty-workspace"
        (empty / "fixtures").mkdir(parents=True)
        cache_home = base / "cache"
        env = _env(cache_home)
        voyage = voyage_command()
        floor = floor_of(corpus)
        first, no_cache, warm, startup = Series(), Series(), Series(), Series()
        first_mb, warm_mb = Series(), Series()
        app_act, app_full = Series(), Series()
        big_first, big_warm, big_first_mb, big_warm_mb = Series(), Series(), Series(), Series()
        app_big_warm = Series()
        small = None
        if app:
            from benchmarks.bench_app import sample_corpus

            small = sample_corpus(base / "sample")
        floor100k = floor_of(corpus100k.resolve()) if corpus100k is not None else None
        for _ in range(repeat):
            if cli:
                f = floor()
                shutil.rmtree(cache_home, ignore_errors=True)
                wall, mb = run([*voyage, "validate", str(corpus), "--no-git"], env)
                first.add(wall, f)
                first_mb.add(mb)
                wall, mb = run([*voyage, "validate", str(corpus), "--no-git"], env)
                warm.add(wall, f)
                warm_mb.add(mb)
                wall, _ = run([*voyage, "validate", str(corpus), "--no-git", "--no-cache"], env)
                no_cache.add(wall, f)
                wall, _ = run([*voyage, "validate", str(empty), "--no-git"], env)
                startup.add(wall)
            if small is not None:
                # Cold: a first start, with an empty cache folder each time.
                shutil.rmtree(base / "app-cold", ignore_errors=True)
                sample = _app_probe(small, base / "app-cold")
                shutil.rmtree(base / "app-cold", ignore_errors=True)
                large = _app_probe(corpus, base / "app-cold")
                # Cold, the probe's first screen is the tree drawn from the listing (the screen
                # a person can act on) and `loaded` the checked suite on screen (every count).
                app_act.add(large["first_screen"], sample["first_screen"])
                app_full.add(large["loaded"], sample["loaded"])
            if floor100k is not None and corpus100k is not None:
                f100 = floor100k()
                shutil.rmtree(cache_home, ignore_errors=True)
                big = str(corpus100k.resolve())
                wall, mb = run([*voyage, "validate", big, "--no-git"], env)
                big_first.add(wall, f100)
                big_first_mb.add(mb)
                wall, mb = run([*voyage, "validate", big, "--no-git"], env)
                big_warm.add(wall, f100)
                big_warm_mb.add(mb)
                if app:
                    app_cache = base / "app-100k"
                    if not app_cache.exists():
                        _app_probe(corpus100k.resolve(), app_cache)  # the first start fills it
                    app_big_warm.add(_app_probe(corpus100k.resolve(), app_cache)["loaded"])
        shutil.rmtree(cache_home, ignore_errors=True)

    t = Table()
    if first.values:
        _cli_rows(t, first, no_cache, warm, startup)
    if app_act.values:
        t.row(
            "app, first screen a user can act on (the tree from the listing), cold, 11k / sample",
            f"{app_act.best:.3f} s",
            app_act.ratio_text("sample"),
            "<= 1.5x",
            min(app_act.ratios) <= 1.5,
        )
        t.row(
            "app, first screen with every count (the checked suite), cold, 11k / sample",
            f"{app_full.best:.3f} s",
            app_full.ratio_text("sample"),
            "<= 2.0x",
            min(app_full.ratios) <= 2.0,
        )
    if app_big_warm.values:
        t.row(
            "app, checked suite on screen, warm, 100k",
            f"{app_big_warm.best:.3f} s",
            f"spread {min(app_big_warm.values):.3f}-{max(app_big_warm.values):.3f} s",
            "<= 1.5 s",
            app_big_warm.best <= 1.5,
        )
    if big_first.values:
        t.row(
            "first `validate`, 100k fixtures: time",
            f"{big_first.best:.3f} s",
            big_first.ratio_text("floor"),
            "<= 1.3x",
            min(big_first.ratios) <= 1.3,
        )
        t.row(
            "first `validate`, 100k fixtures: peak memory (max RSS)",
            f"{min(big_first_mb.values):.0f} MB",
            f"spread {min(big_first_mb.values):.0f}-{max(big_first_mb.values):.0f} MB",
            "< 450 MB",
            min(big_first_mb.values) < 450,
        )
        t.row(
            "`validate` again, 100k: time",
            f"{big_warm.best:.3f} s",
            big_warm.ratio_text("floor"),
            "<= 0.15x",
            min(big_warm.ratios) <= 0.15,
        )
        t.row(
            "`validate` again, 100k: peak memory (max RSS)",
            f"{min(big_warm_mb.values):.0f} MB",
            f"spread {min(big_warm_mb.values):.0f}-{max(big_warm_mb.values):.0f} MB",
            "< 250 MB",
            min(big_warm_mb.values) < 250,
        )
    if first_mb.values:
        t.row(
            "(11k first `validate`: peak memory, max RSS)",
            f"{min(first_mb.values):.0f} MB",
            f"warm: {min(warm_mb.values):.0f} MB",
            "",
            None,
        )
    return t.rows


def _cli_rows(t: Table, first: Series, no_cache: Series, warm: Series, startup: Series) -> None:
    t.row(
        "first `validate` (empty cache, writes the cache)",
        f"{first.best:.3f} s",
        first.ratio_text("floor"),
        "<= 1.2x (bar 1.5x)",
        min(first.ratios) <= 1.2,
    )
    t.row(
        "`validate --no-cache`",
        f"{no_cache.best:.3f} s",
        no_cache.ratio_text("floor"),
        "<= 1.1x",
        min(no_cache.ratios) <= 1.1,
    )
    t.row(
        "`validate` again, unchanged",
        f"{warm.best:.3f} s",
        warm.ratio_text("floor"),
        "<= 0.25x (0.15x stretch)",
        min(warm.ratios) <= 0.25,
    )
    t.row(
        "`validate` of an empty workspace (start-up alone)",
        f"{startup.best:.3f} s",
        f"spread {min(startup.values):.3f}-{max(startup.values):.3f} s",
        "<= 0.12 s",
        startup.best <= 0.12,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", nargs="?", type=Path, help="a generated corpus (default: new)")
    parser.add_argument("--corpus100k", type=Path, default=None, help="the 100k corpus")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a 10x smaller generated corpus")
    parser.add_argument("--no-app", action="store_true", help="leave out the app's rows")
    parser.add_argument(
        "--app-only", action="store_true", help="the app's rows alone (no 11k `validate` rows)"
    )
    args = parser.parse_args(argv)
    print(f"load average before: {load_average()}")
    if args.corpus is not None:
        print(f"corpus: {describe_corpus(args.corpus)}")
    rows = bench_cli(
        args.corpus,
        repeat=args.repeat,
        quick=args.quick,
        corpus100k=args.corpus100k,
        app=not args.no_app,
        cli=not args.app_only,
    )
    print(f"load average after: {load_average()}\n")
    print(markdown_table(HEADER, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
