"""The app's start-up on the large corpus against a 10-fixture one, and live reload latency.

    python -m benchmarks.bench_app [--corpus DIR]

Each measure is the best of several runs of `benchmarks.app_probe` in a fresh process (imports
included), the two corpora interleaved so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.generate_corpus import generate

REPEAT = 5


def _probe(
    workspace: Path, change: str | None = None, cache_home: Path | None = None
) -> dict[str, float]:
    command = [sys.executable, "-m", "benchmarks.app_probe", str(workspace)]
    if change:
        command += ["--change", change]
    env = dict(os.environ)
    if cache_home is not None:
        command.append("--cache")
        env["XDG_CACHE_HOME"] = str(cache_home)
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_app(corpus: Path | None = None) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if corpus is None:
            corpus = base / "large"
            generate(corpus, 10_000, 1_000, 100)
        small = base / "small"
        generate(small, 10, 0, 0)
        large_times, small_times, warm_times, warm_small_times = [], [], [], []
        cache_home = base / "cache"
        for _ in range(REPEAT):
            small_times.append(_probe(small)["first_screen"])
            large_times.append(_probe(corpus)["first_screen"])
            # With the item cache (the app's default): the first round fills it, later rounds
            # start warm, as reopening the app on an unchanged suite does.
            warm_small_times.append(_probe(small, cache_home=cache_home)["first_screen"])
            warm_times.append(_probe(corpus, cache_home=cache_home)["first_screen"])
        large, little = min(large_times), min(small_times)
        warm, warm_little = (
            min(warm_times[1:] or warm_times),
            min(warm_small_times[1:] or warm_small_times),
        )
        work = base / "changed"
        shutil.copytree(corpus, work)
        target = next(iter(sorted((work / "fixtures").glob("*/*/task.yaml"))))
        change = str(target.relative_to(work))
        original = target.read_bytes()
        latencies = []
        for _ in range(3):
            target.write_bytes(original)  # each probe breaks the same file afresh
            latencies.append(_probe(work, change)["change_to_header"])
        ratio = large / little
        warm_ratio = warm / warm_little
        return [
            (
                "app, cold (no item cache): first full screen, 10-fixture corpus (s)",
                f"{little:.3f}",
            ),
            ("app, cold (no item cache): first full screen, large corpus (s)", f"{large:.3f}"),
            (
                "app, cold: large / small (target <= 2x)",
                f"{ratio:.2f}x {'PASS' if ratio <= 2 else 'FAIL'}",
            ),
            (
                "app, warm (item cache, unchanged suite): 10-fixture corpus (s)",
                f"{warm_little:.3f}",
            ),
            ("app, warm (item cache, unchanged suite): large corpus (s)", f"{warm:.3f}"),
            (
                "app, warm: large / small (target <= 2x)",
                f"{warm_ratio:.2f}x {'PASS' if warm_ratio <= 2 else 'FAIL'}",
            ),
            ("app: file changed on disk -> header updated (s)", f"{min(latencies):.3f}"),
        ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    for label, value in bench_app(args.corpus):
        print(f"{label:55s} {value}")


if __name__ == "__main__":
    main()
