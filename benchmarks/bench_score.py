"""The scoring benchmark (docs/performance.md, "bench_score"): scoring is linear, and cheap next to loading.

    python -m benchmarks.bench_score [--quick] [--repeat 3]

Generates, into a temporary folder, a 100,000-finding gold file and a 100,000-finding run of it
(two reviewers; ~70% of the gold found, ~10% of those through dual_flaggable, the rest spurious,
a few invalid findings), then measures, each the best of `--repeat` rounds:

  load          read + decode + `load_json` of both files (what any consumer pays first)
  score         `score_run(payloads, gold)`: the coordinator contract and the matching
  score 10x smaller   the same on a 10,000-finding pair. The algorithm is linear (one pass per
                side, dictionary look-ups, then the output sorted); measured per finding it still
                costs more on the big pair, because its dictionaries no longer fit the CPU caches
  command       `voyage-tui score --format json` in-process: load, gold checks, score, JSON out

`bench_score()` returns (label, seconds) rows; run as a script it prints them with the ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from voyage_tui.engine.formats.vocabulary import SEVERITIES
from voyage_tui.engine.references.catalogue import parse_catalogue
from voyage_tui.engine.references.loaded import default_text
from voyage_tui.engine.scoring.verdict import compute_verdict

RULES_PER_FILE = 10


def _catalogue() -> list[str]:
    catalogue, _ = parse_catalogue(default_text("rule-catalogue.yaml"), "rule-catalogue.yaml")
    return list(catalogue.keys)


def generate(folder: Path, findings: int, seed: int = 3) -> tuple[Path, Path]:
    """gold.json and runs/run.json with `findings` findings each. Deterministic."""
    rng = random.Random(seed)
    keys = _catalogue()
    gold: list[dict[str, Any]] = []
    for i in range(findings):
        file = f"src/pkg{i // 1000}/module_{i // RULES_PER_FILE}.py"
        slot = i % RULES_PER_FILE
        rule_key = keys[(slot * 2) % len(keys)]
        entry: dict[str, Any] = {
            "file": file,
            "line": rng.randint(0, 400),
            "rule_key": rule_key,
            "severity": rng.choice(SEVERITIES),
            "owner_reviewer": rng.choice(("correctness", "conformance")),
        }
        if slot % 3 == 0:
            entry["dual_flaggable"] = keys[(slot * 2 + 1) % len(keys)]
        gold.append(entry)
    run: dict[str, list[Any]] = {"correctness": [], "conformance": []}
    for g in gold:
        if len(run["correctness"]) + len(run["conformance"]) >= findings:
            break
        roll = rng.random()
        reviewer = g["owner_reviewer"]
        if roll < 0.63:
            run[reviewer].append({k: g[k] for k in ("file", "line", "rule_key", "severity")})
        elif roll < 0.70 and "dual_flaggable" in g:
            run[reviewer].append(
                {
                    "file": g["file"],
                    "line": g["line"] + 1,
                    "rule_key": g["dual_flaggable"],
                    "severity": g["severity"],
                }
            )
        elif 0.70 <= roll < 0.71:
            run[reviewer].append({"file": g["file"], "line": "bad", "rule_key": g["rule_key"]})
        else:
            run[reviewer].append(
                {
                    "file": g["file"] + ".bak",
                    "line": g["line"],
                    "rule_key": g["rule_key"],
                    "severity": "MINOR",
                }
            )
    record = {
        "schema": "voyage-eval-gold/1",
        "source": "benchmarks/bench_score.py",
        "description": f"generated: {findings} findings",
        "expected_verdict": compute_verdict(gold),
        "findings": gold,
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "runs").mkdir(exist_ok=True)
    gold_path, run_path = folder / "gold.json", folder / "runs" / "run.json"
    gold_path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    payloads = [{"reviewer": name, "findings": items} for name, items in run.items()]
    run_path.write_text(json.dumps(payloads, indent=1), encoding="utf-8")
    return gold_path, run_path


def _load(path: Path) -> Any:
    from voyage_tui.engine.loading.json_doc import load_json
    from voyage_tui.engine.loading.safe_read import read_bytes
    from voyage_tui.engine.loading.text import decode

    data = read_bytes(str(path), path.name, root_real=str(path.parent), max_bytes=1 << 30)
    assert isinstance(data, bytes), data
    text = decode(data, path.name)
    assert isinstance(text, str), text
    doc = load_json(text, path.name)
    assert doc.ok, doc.diagnostics
    return doc.data


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def bench_score(quick: bool = False, repeat: int = 3) -> list[tuple[str, float]]:
    from voyage_tui.cli import score_cmd
    from voyage_tui.engine.scoring.report import score_run

    size = 10_000 if quick else 100_000
    small = size // 10
    with tempfile.TemporaryDirectory(prefix="voyage-bench-score-") as tmp:
        gold_path, run_path = generate(Path(tmp) / "big", size)
        small_gold, small_run = generate(Path(tmp) / "small", small)

        load_s, (gold, payloads) = _best(lambda: (_load(gold_path), _load(run_path)), repeat)
        score_s, result = _best(lambda: score_run(payloads, gold), repeat)
        sg, sr = _load(small_gold), _load(small_run)
        small_s, _ = _best(lambda: score_run(sr, sg), repeat)

        def command() -> int:
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                return score_cmd.run(
                    ["--gold", str(gold_path), "--run", str(run_path), "--format", "json"]
                )

        command_s, code = _best(command, repeat)
        assert code in (0, 1), code
    n = f"{size:,}"
    return [
        (f"load gold + run ({n} findings each: read, decode, JSON)", load_s),
        (f"score {n}-finding run against {n}-finding gold (contract + matching)", score_s),
        (f"score {small:,} against {small:,} (the 10x smaller pair, same generator)", small_s),
        (
            f"`voyage-tui score --format json` in-process ({n} each: load, gold checks, score, output)",
            command_s,
        ),
        (
            f"(figures of the {n} run: tp {result.tp}, fp {result.fp}, fn {result.fn}, "
            f"{len(result.invalid_findings)} invalid; seconds column: f1)",
            result.f1,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="10,000 findings instead of 100,000")
    parser.add_argument("--repeat", type=int, default=3, help="best of N rounds (default 3)")
    args = parser.parse_args(argv)
    rows = bench_score(quick=args.quick, repeat=args.repeat)
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label.ljust(width)}  {value:9.4f}" + ("" if label.startswith("(") else " s"))
    load_s, score_s, small_s = rows[0][1], rows[1][1], rows[2][1]
    print(f"{'score / load'.ljust(width)}  {score_s / load_s:9.2f} x")
    print(
        f"{'score / score of the 10x smaller pair (10 if perfectly linear)'.ljust(width)}  {score_s / small_s:9.2f} x"
    )
    big, small = (100_000, 10_000) if not args.quick else (10_000, 1_000)
    print(
        f"{'microseconds per finding, big pair / small pair'.ljust(width)}  "
        f"{score_s / big * 1e6:6.2f} / {small_s / small * 1e6:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
