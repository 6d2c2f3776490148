"""The app's first screen on the large corpus over a 10-fixture one, and live reload latency.

    python -m benchmarks.bench_app [--corpus DIR] [--repeat N]

Each measure is the best of several runs of `benchmarks.app_probe` in a fresh process (imports
included, the watcher armed as `voyage-tui PATH` arms it), the two corpora interleaved so machine
noise hits both alike. Cold: a first start (an empty cache folder), every file checked before
the first screen and the watcher armed after it; the `--no-cache` line arms it before. Warm: reopening an unchanged suite: the first screen drawn from the
record the previous start left (engine/validation/first_screen.py), then the files found
unchanged in the validation cache ("checked" rows).

Targets (issue 14): the first full screen at 11,000 fixtures at most 1.5x the 10-fixture one
cold, at most 1.2x warm. Issue 23: cold, the first screen a person can act on (the tree drawn
from the listing, engine/validation/listed.py) at most 1.5x the sample's, and the first screen
with every count (the checked suite) at most 2.0x the sample's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bench_validate import _s, _verdict
from benchmarks.generate_corpus import generate

HEADER = ("measure", "seconds", "ratio", "target", "result")
"""The columns; each row's value holds the last four, joined by ' | '."""

REPEAT = 5
COLD_TARGET = 1.5
WARM_TARGET = 1.2
FULL_COUNTS_TARGET = 2.0


def probe(
    workspace: Path, change: str | None = None, cache_home: Path | None = None
) -> dict[str, float]:
    """One run of app_probe in a fresh interpreter. Python keeps its bytecode caches, as an
    installed app has them: with PYTHONDONTWRITEBYTECODE every start would compile the
    project again, a fixed cost that would flatter every ratio."""
    command = [sys.executable, "-m", "benchmarks.app_probe", str(workspace)]
    if change:
        command += ["--change", change]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache_home is not None:
        command.append("--cache")
        env["XDG_CACHE_HOME"] = str(cache_home)
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


@dataclass(frozen=True)
class FirstScreens:
    """Best first-screen times (seconds) of a corpus and of the 10-fixture sample."""

    cold: float
    warm: float
    small_cold: float
    small_warm: float
    warm_checked: float = 0.0
    small_warm_checked: float = 0.0
    """Warm: until the checked suite replaced the recorded first screen."""
    no_cache: float = 0.0
    """The corpus with `--no-cache`: cold, and the watcher armed before the files are listed."""
    cold_counts: float = 0.0
    small_cold_counts: float = 0.0
    """Cold: until the checked suite (every count) was on screen."""

    @property
    def cold_ratio(self) -> float:
        return self.cold / self.small_cold

    @property
    def warm_ratio(self) -> float:
        return self.warm / self.small_warm


def first_screens(corpus: Path, small: Path, cache_home: Path, repeat: int) -> FirstScreens:
    """Cold and warm, the corpus and the sample interleaved. The first warm round of each
    fills the cache (it is a cold start), so warm takes the best of the later ones."""
    shutil.rmtree(cache_home, ignore_errors=True)
    empty = cache_home.with_name(cache_home.name + "-empty")
    cold, small_cold, warm, small_warm, no_cache = [], [], [], [], []
    cold_counts, small_cold_counts = [], []

    def first_start(workspace: Path, counts: list[float]) -> float:
        shutil.rmtree(empty, ignore_errors=True)  # a first start: the cache folder is empty
        timings = probe(workspace, cache_home=empty)
        counts.append(timings["loaded"])
        return timings["first_screen"]

    for _ in range(max(repeat, 2)):
        small_cold.append(first_start(small, small_cold_counts))
        cold.append(first_start(corpus, cold_counts))
        no_cache.append(probe(corpus)["first_screen"])
        small_warm.append(probe(small, cache_home=cache_home))
        warm.append(probe(corpus, cache_home=cache_home))
    shutil.rmtree(empty, ignore_errors=True)
    return FirstScreens(
        min(cold),
        min(w["first_screen"] for w in warm[1:]),
        min(small_cold),
        min(w["first_screen"] for w in small_warm[1:]),
        min(w["loaded"] for w in warm[1:]),
        min(w["loaded"] for w in small_warm[1:]),
        min(no_cache),
        min(cold_counts),
        min(small_cold_counts),
    )


def watcher_arm(workspace: Path) -> float:
    """Seconds to arm the app's watcher on `workspace`, best of 3. `voyage-tui PATH` does it
    before the first load lists the files: cold, before the first screen; warm, after it."""
    from voyage_tui.cli.common import arm_watcher
    from voyage_tui.engine.workspace.model import Workspace

    ws = Workspace.load(str(workspace))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        watcher = arm_watcher(ws, True)
        best = min(best, time.perf_counter() - start)
        if watcher is not None:
            watcher.close()
    return best


def sample_corpus(out: Path) -> Path:
    generate(out, 10, 0, 0)
    return out


def first_screen_rows(
    screens: FirstScreens, name: str, cold_target: float, warm_target: float
) -> list[tuple[str, str]]:
    def row(label: str, seconds: float, ratio: str, target: str, result: str) -> tuple[str, str]:
        return label, f"{_s(seconds)} | {ratio} | {target} | {result}"

    counts_ratio = screens.cold_counts / screens.small_cold_counts
    return [
        row(
            "app, cold: first screen a user can act on, 10-fixture sample",
            screens.small_cold,
            "1.00x",
            "",
            "",
        ),
        row(
            f"app, cold: first screen a user can act on, {name}",
            screens.cold,
            f"{screens.cold_ratio:.2f}x sample",
            f"<= {cold_target:g}x",
            _verdict(screens.cold_ratio <= cold_target),
        ),
        row(
            "app, cold: first screen with every count, 10-fixture sample",
            screens.small_cold_counts,
            "1.00x",
            "",
            "",
        ),
        row(
            f"app, cold: first screen with every count, {name}",
            screens.cold_counts,
            f"{counts_ratio:.2f}x sample",
            f"<= {FULL_COUNTS_TARGET:g}x",
            _verdict(counts_ratio <= FULL_COUNTS_TARGET),
        ),
        row(
            f"app, `--no-cache`: first full screen, {name}",
            screens.no_cache,
            f"{screens.no_cache / screens.small_cold:.2f}x sample",
            "",
            "info",
        ),
        row("app, warm: first full screen, 10-fixture sample", screens.small_warm, "1.00x", "", ""),
        row(
            f"app, warm: first full screen, {name}",
            screens.warm,
            f"{screens.warm_ratio:.2f}x sample",
            f"<= {warm_target:g}x",
            _verdict(screens.warm_ratio <= warm_target),
        ),
        row(
            "app, warm: the checked suite on screen, 10-fixture sample",
            screens.small_warm_checked,
            "1.00x",
            "",
            "",
        ),
        row(
            f"app, warm: the checked suite on screen, {name}",
            screens.warm_checked,
            f"{screens.warm_checked / screens.small_warm_checked:.2f}x sample",
            "",
            "info",
        ),
    ]


def bench_app(corpus: Path | None = None, *, repeat: int = REPEAT) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory(prefix="voyage-bench-app-") as tmp:
        base = Path(tmp)
        if corpus is None:
            corpus = base / "large"
            generate(corpus, 10_000, 1_000, 100)
        small = sample_corpus(base / "small")
        screens = first_screens(corpus, small, base / "cache", repeat)
        rows = first_screen_rows(screens, "large corpus", COLD_TARGET, WARM_TARGET)

        work = base / "changed"
        shutil.copytree(corpus, work)
        target = next(iter(sorted((work / "fixtures").glob("*/*/task.yaml"))))
        change = str(target.relative_to(work))
        original = target.read_bytes()
        latencies = []
        for _ in range(3):
            target.write_bytes(original)  # each probe breaks the same file afresh
            latencies.append(probe(work, change)["change_to_header"])
        rows.append(
            (
                "arming the watcher (the configured folders), large corpus; the sample's: "
                f"{_s(watcher_arm(small))}",
                f"{_s(watcher_arm(corpus))} |  |  | info: before the first screen only with --no-cache",
            )
        )
        rows.append(
            (
                "app: file changed on disk -> header updated",
                f"{_s(min(latencies))} |  |  | info",
            )
        )
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=REPEAT)
    args = parser.parse_args()
    for label, value in bench_app(args.corpus, repeat=args.repeat):
        print(f"{label:55s} {value}")


if __name__ == "__main__":
    main()
