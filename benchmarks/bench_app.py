"""The app's start-up on the large corpus against a 10-fixture one, and live reload latency.

    python -m benchmarks.bench_app [--corpus DIR]

Each measure is the best of several runs of `benchmarks.app_probe` in a fresh process (imports
included), the two corpora interleaved so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.generate_corpus import generate

REPEAT = 5


def _probe(workspace: Path, change: str | None = None) -> dict[str, float]:
    command = [sys.executable, "-m", "benchmarks.app_probe", str(workspace)]
    if change:
        command += ["--change", change]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_app(corpus: Path | None = None) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if corpus is None:
            corpus = base / "large"
            generate(corpus, 10_000, 1_000, 100)
        small = base / "small"
        generate(small, 10, 0, 0)
        large_times, small_times = [], []
        for _ in range(REPEAT):
            small_times.append(_probe(small)["first_screen"])
            large_times.append(_probe(corpus)["first_screen"])
        large, little = min(large_times), min(small_times)
        work = base / "changed"
        shutil.copytree(corpus, work)
        target = next(iter(sorted((work / "fixtures").glob("*/*/task.yaml"))))
        change = str(target.relative_to(work))
        latencies = [_probe(work, change)["change_to_header"] for _ in range(3)]
        ratio = large / little
        return [
            ("app: first full screen, 10-fixture corpus (s)", f"{little:.3f}"),
            ("app: first full screen, large corpus (s)", f"{large:.3f}"),
            ("app: large / small first screen (target <= 2x)", f"{ratio:.2f}x {'PASS' if ratio <= 2 else 'FAIL'}"),
            ("app: file changed on disk -> header updated (s)", f"{min(latencies):.3f}"),
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    for label, value in bench_app(args.corpus):
        print(f"{label:55s} {value}")


if __name__ == "__main__":
    main()
