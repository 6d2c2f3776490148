"""Run every benchmark present and print one report.

    python -m benchmarks.run [--corpus DIR] [--quick] [--repeat N] [--corpus100k DIR]

The report opens with the machine (CPU model, cores, Python, libyaml) and the corpus, then one
Markdown table per benchmark. Without --corpus, the standard corpus (10,000 task fixtures, 1,000
trajectories, 100 gold files with 10 runs each) is generated into a temporary folder and removed
afterwards; --quick generates one 10x smaller, for a smoke run.

Benchmarks are looked up by module and function name: `bench_validate.bench_validate`, and where
they import, `bench_score.bench_score`, `bench_exposure.bench_exposure`, `bench_app.bench_app`,
`bench_agreement.bench_agreement` (1,000 raters x 12 items; its own generated workspace),
`bench_judge.bench_judge` (10,000 items judged by a judge that answers at once, `--jobs 2`).
Each returns a list of (label, value) rows; one that is missing is skipped with a note. A
benchmark module may define HEADER (its column names) when its values hold several cells joined
by ' | '.

The 100,000-fixture section (`bench_100k`: validate cold and warm over its floor, peak memory,
the app's first screen over the sample's) runs only with --corpus100k DIR: the corpus there, or
generated there first (about 900 MB, a few minutes) and kept for the next runs.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.bench_validate import describe_corpus, generate_corpus, load_average, markdown_table

BENCHMARKS = (
    ("bench_validate", "bench_validate"),
    ("bench_cli", "bench_cli"),
    ("bench_score", "bench_score"),
    ("bench_exposure", "bench_exposure"),
    ("bench_app", "bench_app"),
    ("bench_agreement", "bench_agreement"),
    ("bench_results", "bench_results"),
    ("bench_judge", "bench_judge"),
    ("bench_100k", "bench_100k"),
)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_facts() -> list[tuple[str, str]]:
    import yaml

    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    try:
        import pydantic

        pydantic_version = pydantic.VERSION
    except ImportError:  # pragma: no cover
        pydantic_version = "absent"
    return [
        ("CPU", cpu_model()),
        ("cores", f"{os.cpu_count()} ({usable} usable by this process)"),
        ("OS", f"{platform.system()} {platform.release()}"),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        (
            "PyYAML",
            f"{yaml.__version__}, libyaml {'present' if yaml.__with_libyaml__ else 'ABSENT (pure-Python loader)'}",
        ),
        ("pydantic", pydantic_version),
    ]


class Skipped(Exception):
    """A benchmark that needs something this run was not given."""


def call_benchmark(
    fn: Callable[..., Any], corpus: Path, quick: bool, repeat: int, corpus100k: Path | None = None
) -> Any:
    """Call fn with what it accepts: the corpus (by name or first positional), quick, repeat;
    `corpus100k` for the benchmark that declares it (Skipped without one, unless optional)."""
    params = inspect.signature(fn).parameters
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    if "corpus100k" in params:
        if corpus100k is not None:
            kwargs["corpus100k"] = corpus100k
        elif params["corpus100k"].default is params["corpus100k"].empty:
            raise Skipped(
                "no 100,000-fixture corpus: `--corpus100k DIR` uses the one in DIR or generates "
                "it there (about 900 MB, a few minutes; kept for the next runs)"
            )
    if "corpus" in params:
        kwargs["corpus"] = corpus
    elif "corpus100k" not in params:
        positional = [
            p
            for p in params.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        ]
        if positional:
            args.append(corpus)
    if "quick" in params:
        kwargs["quick"] = quick
    if "repeat" in params:
        kwargs["repeat"] = repeat
    return fn(*args, **kwargs)


def show(value: Any) -> str:
    """A row value as printed: floats to a readable precision, anything else as it is."""
    if isinstance(value, bool) or not isinstance(value, float):
        return str(value)
    if value.is_integer():
        return f"{int(value):,}"
    if abs(value) >= 100:
        return f"{value:,.1f}"
    return f"{value:.4g}"


def run_all(
    corpus: Path, quick: bool, repeat: int, corpus100k: Path | None = None
) -> tuple[list[str], bool]:
    """The report's sections and whether every benchmark ran."""
    sections: list[str] = []
    ok = True
    for module_name, function_name in BENCHMARKS:
        title = f"## {module_name}"
        try:
            module = importlib.import_module(f"benchmarks.{module_name}")
            fn = getattr(module, function_name)
        except ModuleNotFoundError as exc:
            if exc.name not in ("benchmarks", f"benchmarks.{module_name}"):
                ok = False  # the module is there but something it imports is not
                sections.append(f"{title}\n\nFAILED to import:\n\n```\n{traceback.format_exc()}```")
            else:
                sections.append(f"{title}\n\nskipped: benchmarks/{module_name}.py is not present")
            continue
        except AttributeError:
            sections.append(
                f"{title}\n\nskipped: benchmarks/{module_name}.py has no {function_name}()"
            )
            continue
        except Exception:
            ok = False
            sections.append(f"{title}\n\nFAILED to import:\n\n```\n{traceback.format_exc()}```")
            continue
        print(f"running {module_name} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        try:
            rows = call_benchmark(fn, corpus, quick, repeat, corpus100k)
        except Skipped as skipped:
            sections.append(f"{title}\n\nskipped: {skipped}")
            continue
        except Exception:
            ok = False
            sections.append(f"{title}\n\nFAILED:\n\n```\n{traceback.format_exc()}```")
            continue
        header = getattr(module, "HEADER", ("measure", "value"))
        took = time.perf_counter() - start
        sections.append(
            f"{title}\n\n{markdown_table(header, [(str(a), show(b)) for a, b in rows])}\n\n"
            f"({module_name} took {took:.0f} s)"
        )
    return sections, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, help="a generated corpus (default: generate one)")
    parser.add_argument(
        "--quick", action="store_true", help="generate a 10x smaller corpus (smoke run)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds; each time is the best of them"
    )
    parser.add_argument(
        "--corpus100k",
        type=Path,
        metavar="DIR",
        help="also run the 100,000-fixture section on the corpus in DIR, generated there first "
        "if DIR does not exist (about 900 MB; kept for later runs)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="voyage-bench-") as tmp:
        if args.corpus is not None:
            corpus = args.corpus.resolve()
        else:
            print("generating the corpus ...", file=sys.stderr, flush=True)
            corpus = generate_corpus(Path(tmp) / "corpus", quick=args.quick)
        header = ["# voyage-tui benchmarks", ""]
        header += [f"- {label}: {value}" for label, value in machine_facts()]
        header.append(
            f"- corpus: {describe_corpus(corpus)}"
            + (" (generated, --quick)" if args.quick and args.corpus is None else "")
            + (" (generated)" if not args.quick and args.corpus is None else "")
        )
        header.append(
            f"- rounds: {args.repeat} (each time is the best of them, all measured in this run)"
        )
        load_before = load_average()
        sections, ok = run_all(corpus, args.quick, args.repeat, args.corpus100k)
        header.append(f"- load average (1 min): {load_before} before, {load_average()} after")
    print("\n".join(header))
    for section in sections:
        print()
        print(section)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
