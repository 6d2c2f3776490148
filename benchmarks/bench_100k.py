"""How cost grows with size: `validate` and the app's first screen on 100,000 fixtures.

    python -m benchmarks.bench_100k DIR [--repeat N]

DIR holds a corpus generated the standard way at ten times the size (100,000 single-task
fixtures, 10,000 trajectories, 1,000 gold files with 10 runs each; about 900 MB). When DIR does
not exist yet, it is generated there first (a few minutes) and kept, so later runs reuse it.

Targets (issue 14): cold `validate` at most 1.5x the read + C-parse floor of the same files,
peak memory of the process tree under 600 MB, the app's first screen under 3x the 10-fixture
sample's (cold and warm).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks.bench_app import first_screen_rows, first_screens, sample_corpus
from benchmarks.bench_validate import (
    FLOOR_RATIO_TARGET,
    Best,
    _s,
    _timed,
    _verdict,
    corpus_files,
    floor_gc_off,
    floor_once,
    max_rss_kb_of,
    tree_peak,
    voyage_command,
)
from benchmarks.generate_corpus import generate
from voyage_tui.engine.workspace.layout import scan
from voyage_tui.engine.workspace.model import Workspace

HEADER = ("measure", "seconds", "ratio", "target", "result")

SIZES = {"tasks": 100_000, "trajectories": 10_000, "gold": 1_000}
MEMORY_TARGET_MB = 600.0
APP_TARGET = 3.0
WARM_TARGET = 0.25
"""Not a target of issue 14 at this size; the 11k one, shown for comparison."""


def ensure_corpus(out: Path) -> Path:
    """The 100k corpus in `out`, generated there first when `out` does not exist yet."""
    out = out.resolve()
    if not out.exists():
        generate(out, SIZES["tasks"], SIZES["trajectories"], SIZES["gold"])
    elif not (out / "fixtures").is_dir():
        raise SystemExit(f"{out} exists but holds no generated corpus (no fixtures/)")
    return out


def _wall(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    code = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
    ).returncode
    return time.perf_counter() - start, code


def bench_100k(corpus100k: Path, *, repeat: int = 3) -> list[tuple[str, str]]:
    corpus = ensure_corpus(Path(corpus100k))
    ws = Workspace.load(str(corpus))
    files = corpus_files(ws, scan(ws, use_git=False))
    cold_cli = [*voyage_command(), "validate", str(corpus), "--no-git", "--no-cache"]
    cached_cli = [*voyage_command(), "validate", str(corpus), "--no-git"]
    floor, cold, first, warm = Best(), Best(), Best(), Best()
    codes: set[int] = set()
    with tempfile.TemporaryDirectory(prefix="voyage-bench-100k-") as tmp:
        base = Path(tmp)
        cache_home = base / "cache-home"
        env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached
        for _ in range(repeat):
            floor.add(
                min(_timed(lambda: floor_once(files))[0], _timed(lambda: floor_gc_off(files))[0])
            )
            seconds, code = _wall(cold_cli, env)
            cold.add(seconds)
            codes.add(code)
            shutil.rmtree(cache_home, ignore_errors=True)
            seconds, code = _wall(cached_cli, env)  # checks everything, writes the cache
            first.add(seconds)
            codes.add(code)
            seconds, code = _wall(cached_cli, env)  # answered from the cache
            warm.add(seconds)
            codes.add(code)
        saved = os.environ.get("XDG_CACHE_HOME")
        os.environ["XDG_CACHE_HOME"] = str(cache_home)  # tree_peak's child inherits it
        try:
            peak = tree_peak(cold_cli)
            max_rss_kb = max_rss_kb_of(cold_cli)
        finally:
            if saved is None:
                os.environ.pop("XDG_CACHE_HOME", None)
            else:
                os.environ["XDG_CACHE_HOME"] = saved
        screens = first_screens(corpus, sample_corpus(base / "small"), base / "app-cache", repeat)

    rows: list[tuple[str, str]] = []

    def row(label: str, seconds: str, ratio: str, target: str, result: str) -> None:
        rows.append((label, f"{seconds} | {ratio} | {target} | {result}"))

    f = floor.value
    row(
        f"floor: read + C-parse the {files.total:,} files validate reads ({files.bytes / 1e6:.0f} MB)",
        _s(f),
        "1.00x",
        "reference",
        "",
    )
    row(
        "`voyage-tui validate --no-git --no-cache`, subprocess wall (cold)",
        _s(cold.value),
        f"{cold.value / f:.2f}x floor",
        f"<= {FLOOR_RATIO_TARGET:g}x",
        _verdict(cold.value / f <= FLOOR_RATIO_TARGET),
    )
    row(
        "first `voyage-tui validate --no-git` with an empty cache (checks all, writes it)",
        _s(first.value),
        f"{first.value / cold.value:.2f}x cold",
        "",
        "info",
    )
    row(
        "warm `voyage-tui validate --no-git`, unchanged suite, subprocess wall",
        _s(warm.value),
        f"{warm.value / f:.2f}x floor",
        f"(<= {WARM_TARGET:g}x at 11k)",
        "info",
    )
    if codes - {0, 1}:
        row("exit codes of the validate runs", str(sorted(codes)), "", "0 or 1", "**FAIL**")
    if peak is not None:
        kb, samples = peak
        row(
            f"peak memory: `validate --no-cache` process tree, summed RSS ({samples} samples; "
            "shared pages counted twice)",
            f"{kb / 1024:.1f} MB",
            "",
            f"< {MEMORY_TARGET_MB:.0f} MB",
            _verdict(kb / 1024 < MEMORY_TARGET_MB),
        )
    row(
        "peak memory: max RSS of one `validate --no-cache` process (wait4)",
        f"{max_rss_kb / 1024:.1f} MB",
        "",
        f"< {MEMORY_TARGET_MB:.0f} MB",
        _verdict(max_rss_kb / 1024 < MEMORY_TARGET_MB),
    )
    rows += first_screen_rows(screens, "100k corpus", APP_TARGET, APP_TARGET)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus100k", type=Path, help="the 100k corpus (generated there if absent)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for label, value in bench_100k(args.corpus100k, repeat=args.repeat):
        print(f"{label:70s} {value}")


if __name__ == "__main__":
    main()
