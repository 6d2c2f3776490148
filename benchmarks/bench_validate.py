"""The validate benchmark (docs/performance.md): every number measured in one run.

    python -m benchmarks.bench_validate [CORPUS] [--repeat 3] [--quick]

Without CORPUS, the standard corpus (10,000 task fixtures, 1,000 trajectories, 100 gold files with
10 runs each) is generated into a temporary folder first. Each time is the best of `--repeat`
rounds; within a round every measure runs once, so noise from other processes hits all of them
alike. The corpus is edited during the run (one task file, then a references/journey.md) and put
back exactly as it was.

Measures (see benchmarks/README.md):
  floor          open + read every file validate reads (the list comes from the engine's `scan`),
                 `yaml.load(data, Loader=yaml.CSafeLoader)` or `json.loads` each, in one process
  validate       `Suite.open(corpus, use_git=False, parallel=True)` (as the CLI calls it) and
                 `parallel=False`, in this process; and `voyage-tui validate CORPUS --no-git
                 --no-cache` as a subprocess (wall time, interpreter start-up included)
  warm validate  the validation cache: `voyage-tui validate CORPUS --no-git` as a subprocess with
                 no cache (the first run, which writes it) and then with it (the unchanged suite
                 is answered from it); `result_cache.validate(corpus, use_git=False)` in this
                 process, unchanged (replayed) and after the one-file edit (partly checked)
  check-jsonschema  the same files against the schemas `voyage-tui schema ...` exports
  one-file       `suite.revalidate([task])` after that task.yaml was edited on disk
  journey.md     `suite.revalidate(["references/journey.md"])` after it changed (all trajectories)
  memory         max RSS of the `voyage-tui validate --no-cache` subprocess (wait4, from a small
                 launcher: the largest of it and its forked child), and the peak of their summed
                 RSS, sampled from /proc

The validation cache lives in a temporary $XDG_CACHE_HOME for the run, never the user's.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import yaml

from voyage_tui.engine.formats.vocabulary import TRAJECTORIES_FOLDER
from voyage_tui.engine.references.loaded import default_text, load_references
from voyage_tui.engine.validation import result_cache
from voyage_tui.engine.validation.parallel import MIN_ITEMS, can_fork
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.layout import Layout, scan
from voyage_tui.engine.workspace.model import Workspace

HEADER = ("measure", "seconds", "ratio", "target", "result")
"""The columns of this benchmark's table; each row's value holds the last four, joined by ' | '."""

FLOOR_RATIO_TARGET = 1.5
ONE_FILE_TARGET = 1 / 100
MEMORY_TARGET_MB = 150.0
CLI_WALL_TARGET_S = 1.5
"""Issue 2: "in under a second and a half for ten thousand fixtures"."""
WARM_FLOOR_TARGET = 0.25
"""Issue 14: a warm `validate` of the unchanged suite costs at most a quarter of the floor."""

JSONSCHEMA_SUBSET = 1_000
JSONSCHEMA_BUDGET_S = 60.0
"""If check-jsonschema over every file would take longer than this per round, it runs on a
deterministic 1,000-file subset and the time is scaled linearly (the table says so)."""

STANDARD = {"tasks": 10_000, "trajectories": 1_000, "gold": 100}
QUICK = {"tasks": 1_000, "trajectories": 100, "gold": 10}


# --- small helpers -------------------------------------------------------------------------------


def markdown_table(header: Sequence[str], rows: Sequence[tuple[str, str]]) -> str:
    """A Markdown table; a row's value may already hold several cells joined by ' | '."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    for label, value in rows:
        lines.append(f"| {label} | {value} |")
    return "\n".join(lines)


def load_average() -> str:
    """The 1-minute load average with the core count: how busy the machine was (timings are
    only comparable on an otherwise idle machine)."""
    try:
        return f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    except OSError:
        return "unknown"


def generate_corpus(out: Path, *, quick: bool = False) -> Path:
    from benchmarks.generate_corpus import generate

    sizes = QUICK if quick else STANDARD
    generate(out, sizes["tasks"], sizes["trajectories"], sizes["gold"])
    return out


def voyage_command() -> list[str]:
    script = Path(sys.executable).with_name("voyage-tui")
    if script.exists():
        return [str(script)]
    found = shutil.which("voyage-tui")
    return [found] if found else [sys.executable, "-m", "voyage_tui"]


def check_jsonschema_command() -> list[str] | None:
    script = Path(sys.executable).with_name("check-jsonschema")
    if script.exists():
        return [str(script)]
    found = shutil.which("check-jsonschema")
    return [found] if found else None


def _s(seconds: float) -> str:
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds:.3f}"


def _verdict(ok: bool) -> str:
    return "pass" if ok else "**FAIL**"


@dataclass
class Best:
    """The best (lowest) of several timings."""

    times: list[float] = field(default_factory=list)

    def add(self, seconds: float) -> None:
        self.times.append(seconds)

    @property
    def value(self) -> float:
        return min(self.times)


def _timed(fn: Callable[[], object]) -> tuple[float, object]:
    gc.collect()
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


# --- corpus facts ----------------------------------------------------------------------------------


@dataclass
class Files:
    yaml_files: list[str]
    json_files: list[str]
    tasks: int
    trajectories: int
    agent_runs: int
    bytes: int

    @property
    def total(self) -> int:
        return len(self.yaml_files) + len(self.json_files)


def is_trajectory(ws: Workspace, rel: str) -> bool:
    prefix = f"{ws.fixtures_rel}/" if ws.fixtures_rel else ""
    return rel.startswith(f"{prefix}{TRAJECTORIES_FOLDER}/")


def is_run(rel: str) -> bool:
    return "/runs/" in f"/{rel}"


def corpus_files(ws: Workspace, layout: Layout) -> Files:
    trajectories = sum(1 for rel in layout.tasks if is_trajectory(ws, rel))
    yaml_files = [ws.abs(rel) for rel in layout.tasks + layout.agent_runs]
    json_files = [ws.abs(rel) for rel in layout.json_candidates]
    size = sum(os.path.getsize(p) for p in yaml_files + json_files)
    return Files(
        yaml_files,
        json_files,
        tasks=len(layout.tasks) - trajectories,
        trajectories=trajectories,
        agent_runs=len(layout.agent_runs),
        bytes=size,
    )


def describe_corpus(corpus: Path) -> str:
    ws = Workspace.load(str(corpus))
    layout = scan(ws, use_git=False)
    files = corpus_files(ws, layout)
    gold = sum(1 for rel in layout.json_candidates if not is_run(rel))
    runs = len(layout.json_candidates) - gold
    return (
        f"{files.tasks:,} single-task fixtures, {files.trajectories:,} trajectories, "
        f"{gold:,} gold-folder JSON files and {runs:,} run files"
        + (f", {files.agent_runs:,} agent runs" if files.agent_runs else "")
        + f" ({files.total:,} files, {files.bytes / 1e6:.1f} MB)"
    )


# --- the measures ----------------------------------------------------------------------------------


def floor_once(files: Files) -> None:
    load, loader, loads = yaml.load, yaml.CSafeLoader, json.loads
    for path in files.yaml_files:
        with open(path, "rb") as handle:
            load(handle.read(), Loader=loader)
    for path in files.json_files:
        with open(path, "rb") as handle:
            loads(handle.read())


def floor_gc_off(files: Files) -> None:
    enabled = gc.isenabled()
    gc.disable()
    try:
        floor_once(files)
    finally:
        if enabled:
            gc.enable()


def run_cli(cmd: list[str]) -> tuple[float, int, int]:
    """(wall seconds, exit code, max RSS in kB of the process and its waited-for children)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, proc.returncode, usage.ru_maxrss


MAX_RSS_LAUNCHER = """\
import os, sys
pid = os.fork()
if pid == 0:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss)
"""


def max_rss_kb_of(cmd: list[str]) -> int:
    """Max RSS in kB of `cmd` and its waited-for children, as wait4 reports it, measured from a
    small launcher process. Started from this process directly, the count would start at this
    process's own peak: Linux carries the peak RSS of the memory a process was spawned from
    (vfork, or fork before exec) into the child's max RSS, and this process has validated the
    corpus in-process by then."""
    proc = subprocess.run(
        [sys.executable, "-c", MAX_RSS_LAUNCHER, *cmd], capture_output=True, text=True, check=True
    )
    return int(proc.stdout.strip())


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                out += [int(c) for c in handle.read().split()]
    except OSError:
        pass
    return out


def _rss_kb(pid: int) -> int:
    """VmRSS of one process in kB; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_peak(cmd: list[str], interval: float = 0.002) -> tuple[int, int] | None:
    """Peak of the summed RSS of a subprocess and its children, sampled from /proc: (kB, samples).
    An upper bound: pages a forked child still shares with its parent are counted twice.
    None where /proc is absent."""
    if not os.path.isdir("/proc/self"):
        return None
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak, samples = 0, 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, samples
        while not done.is_set():
            total = sum(_rss_kb(pid) for pid in [proc.pid, *_children(proc.pid)])
            peak = max(peak, total)
            samples += 1
            time.sleep(interval)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    proc.wait()
    done.set()
    thread.join()
    return peak, samples


@dataclass
class JsonSchemaPlan:
    groups: list[tuple[Path, list[str]]]
    """(schema file, instance paths relative to the corpus) per check-jsonschema process."""
    scale: float
    """Files in the corpus over files checked (1.0 when every file is checked)."""
    startup: float
    """Seconds the processes take on one file each: the part of the time that is not scaled."""
    note: str

    def corpus_seconds(self, seconds: float) -> float:
        if self.scale == 1.0:
            return seconds
        return self.startup + (seconds - self.startup) * self.scale


def export_schemas(out: Path) -> dict[str, Path]:
    schemas = {}
    for kind in ("task", "trajectory", "gold", "run"):
        target = out / f"{kind}.schema.json"
        with open(target, "wb") as handle:
            subprocess.run([*voyage_command(), "schema", kind], stdout=handle, check=True)
        schemas[kind] = target
    return schemas


def jsonschema_groups(
    ws: Workspace, layout: Layout, schemas: dict[str, Path]
) -> list[tuple[Path, list[str]]]:
    tasks = [rel for rel in layout.tasks if not is_trajectory(ws, rel)]
    trajectories = [rel for rel in layout.tasks if is_trajectory(ws, rel)]
    runs = [rel for rel in layout.json_candidates if is_run(rel)]
    gold = [rel for rel in layout.json_candidates if not is_run(rel)]
    groups = [
        (schemas["task"], tasks),
        (schemas["trajectory"], trajectories),
        (schemas["gold"], gold),
        (schemas["run"], runs),
    ]
    return [(schema, paths) for schema, paths in groups if paths]


def run_jsonschema(
    cmd: list[str], corpus: Path, groups: list[tuple[Path, list[str]]]
) -> tuple[float, list[str]]:
    """Seconds for all groups (one process each) and the failures, if any."""
    failures = []
    total = 0.0
    for schema, paths in groups:
        start = time.perf_counter()
        proc = subprocess.run(
            [*cmd, "--schemafile", str(schema), *paths],
            cwd=corpus,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        total += time.perf_counter() - start
        if proc.returncode != 0:
            failures.append(f"{schema.name}: exit {proc.returncode}")
    return total, failures


def subset(paths: list[str], n: int) -> list[str]:
    """n paths spread evenly over the sorted list (deterministic)."""
    if len(paths) <= n:
        return list(paths)
    step = len(paths) / n
    return [paths[int(i * step)] for i in range(n)]


def plan_jsonschema(
    cmd: list[str], corpus: Path, groups: list[tuple[Path, list[str]]]
) -> JsonSchemaPlan:
    """Every file, unless that would take longer than JSONSCHEMA_BUDGET_S a round: then a
    deterministic JSONSCHEMA_SUBSET-file subset (the same share of every group), its per-file time
    scaled linearly to the whole corpus and the processes' start-up added once."""
    total_files = sum(len(paths) for _, paths in groups)
    everything = JsonSchemaPlan(groups, 1.0, 0.0, f"all {total_files:,} files")
    if total_files <= JSONSCHEMA_SUBSET:
        return everything
    share = JSONSCHEMA_SUBSET / total_files
    small = [(schema, subset(paths, max(1, round(len(paths) * share)))) for schema, paths in groups]
    small_files = sum(len(paths) for _, paths in small)
    startup, _ = run_jsonschema(cmd, corpus, [(schema, paths[:1]) for schema, paths in groups])
    probe, _ = run_jsonschema(cmd, corpus, small)
    per_file = max(probe - startup, 0.0) / max(small_files - len(groups), 1)
    estimate = startup + per_file * (total_files - len(groups))
    if estimate <= JSONSCHEMA_BUDGET_S:
        return everything
    scale = total_files / small_files
    return JsonSchemaPlan(
        small,
        scale,
        startup,
        f"a deterministic {small_files:,}-file subset (all files would take about {estimate:.0f} s "
        f"a round): its time less start-up ({startup:.2f} s) scaled linearly x{scale:.1f}",
    )


# --- edits on disk, always undone -------------------------------------------------------------------


class Edits:
    """Edit files of the corpus and put every one back exactly as it was."""

    def __init__(self) -> None:
        self.saved: dict[str, bytes | None] = {}
        self.made_dirs: list[str] = []

    def write(self, path: str, data: bytes) -> None:
        if path not in self.saved:
            self.saved[path] = Path(path).read_bytes() if os.path.exists(path) else None
        folder = os.path.dirname(path)
        if not os.path.isdir(folder):
            os.makedirs(folder)
            self.made_dirs.append(folder)
        with open(path, "wb") as handle:
            handle.write(data)

    def restore(self) -> list[str]:
        for path, data in self.saved.items():
            if data is None:
                if os.path.exists(path):
                    os.remove(path)
            else:
                with open(path, "wb") as handle:
                    handle.write(data)
        for folder in reversed(self.made_dirs):
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        restored = list(self.saved)
        self.saved.clear()
        self.made_dirs.clear()
        return restored


# --- the benchmark -----------------------------------------------------------------------------------


def bench_validate(
    corpus: Path | None = None, *, repeat: int = 3, quick: bool = False
) -> list[tuple[str, str]]:
    """Run every measure `repeat` times, interleaved; rows of (measure, 'seconds | ratio | target |
    result'). Without a corpus, one is generated into a temporary folder (10x smaller if quick)."""
    if corpus is None:
        with tempfile.TemporaryDirectory(prefix="voyage-bench-") as tmp:
            return bench_validate(generate_corpus(Path(tmp) / "corpus", quick=quick), repeat=repeat)
    corpus = Path(corpus).resolve()
    ws = Workspace.load(str(corpus))
    layout = scan(ws, use_git=False)
    files = corpus_files(ws, layout)
    cli = [*voyage_command(), "validate", str(corpus), "--no-git", "--no-cache"]
    cached_cli = [*voyage_command(), "validate", str(corpus), "--no-git"]
    jsonschema = check_jsonschema_command()
    notes: list[str] = []

    with tempfile.TemporaryDirectory(prefix="voyage-bench-schemas-") as tmp:
        plan = None
        if jsonschema is not None:
            schemas = export_schemas(Path(tmp))
            plan = plan_jsonschema(jsonschema, corpus, jsonschema_groups(ws, layout, schemas))
        else:
            notes.append("check-jsonschema is not installed: pip install -e '.[bench]'")

        # The one-file edit: a task in the middle of the sorted list; the journey: the workspace's.
        task_rels = [rel for rel in layout.tasks if not is_trajectory(ws, rel)] or layout.tasks
        one_rel = task_rels[len(task_rels) // 2]
        one_abs = ws.abs(one_rel)
        journey_rel = load_references(ws).journey.path
        journey_abs = ws.abs(journey_rel)
        one_original = Path(one_abs).read_bytes()
        journey_original = (
            Path(journey_abs).read_bytes()
            if os.path.exists(journey_abs)
            else default_text("journey.md").encode()
        )

        empty = Path(tmp) / "empty-workspace"
        (empty / "fixtures").mkdir(parents=True)
        startup_cli = [*voyage_command(), "validate", str(empty), "--no-git", "--no-cache"]
        # The validation cache of this run: never the user's, emptied when a round needs it.
        cache_home = Path(tmp) / "cache-home"
        saved_cache_home = os.environ.get("XDG_CACHE_HOME")
        os.environ["XDG_CACHE_HOME"] = str(cache_home)  # the subprocesses inherit it

        floor, floor_nogc = Best(), Best()
        par, single, wall, startup = Best(), Best(), Best(), Best()
        scan_time, schema_time, one, journey = Best(), Best(), Best(), Best()
        first_wall, warm_wall, warm, warm_edited = Best(), Best(), Best(), Best()
        max_rss_kb, exit_codes, schema_failures = 0, set(), []
        full_items = 0
        forked = can_fork() and len(layout.tasks) >= MIN_ITEMS
        edits = Edits()
        try:
            for round_ in range(repeat):
                seconds, _ = _timed(lambda: floor_once(files))
                floor.add(seconds)
                seconds, _ = _timed(lambda: floor_gc_off(files))
                floor_nogc.add(seconds)
                seconds, _ = _timed(lambda: scan(ws, use_git=False))
                scan_time.add(seconds)

                suite = None
                seconds, suite = _timed(
                    lambda: Suite.open(str(corpus), use_git=False, parallel=True)
                )
                par.add(seconds)
                suite = None
                seconds, suite = _timed(
                    lambda: Suite.open(str(corpus), use_git=False, parallel=False)
                )
                single.add(seconds)
                assert isinstance(suite, Suite)
                full_items = len(suite.items)

                seconds, _, _ = run_cli(startup_cli)
                startup.add(seconds)
                seconds, code, _ = run_cli(cli)
                wall.add(seconds)
                exit_codes.add(code)
                max_rss_kb = max(max_rss_kb, max_rss_kb_of(cli))

                # The validation cache: the first run writes it, the next is answered from it.
                shutil.rmtree(cache_home, ignore_errors=True)
                seconds, code, _ = run_cli(cached_cli)
                first_wall.add(seconds)
                exit_codes.add(code)
                seconds, code, _ = run_cli(cached_cli)
                warm_wall.add(seconds)
                exit_codes.add(code)
                seconds, answer = _timed(partial(result_cache.validate, corpus, use_git=False))
                warm.add(seconds)
                if not (isinstance(answer, result_cache.ValidationResult) and answer.replayed):
                    notes.append("the warm validate was not answered from the cache")

                if plan is not None and jsonschema is not None:
                    seconds, failures = run_jsonschema(jsonschema, corpus, plan.groups)
                    schema_time.add(plan.corpus_seconds(seconds))
                    schema_failures += failures

                # One task file edited on disk, then re-validated alone (several edits a round).
                for k in range(5):
                    edits.write(one_abs, one_original + f"# benchmark edit {round_}.{k}\n".encode())
                    seconds, touched = _timed(partial(suite.revalidate, [one_rel]))
                    one.add(seconds)
                    if touched != {one_rel}:
                        notes.append(f"revalidate([{one_rel}]) touched {len(touched)} paths")
                # journey.md changed: every trajectory is re-checked.
                edits.write(
                    journey_abs, journey_original + f"\n<!-- benchmark edit {round_} -->\n".encode()
                )
                seconds, touched = _timed(partial(suite.revalidate, [journey_rel]))
                journey.add(seconds)
                trajectories_touched = len(touched)
                for path in edits.restore():
                    suite.revalidate([os.path.relpath(path, ws.root)])
                suite = None
                # The task file was written back (a new stamp), the journey too (the same
                # content): the cached validate checks that one file again, reuses the rest.
                seconds, answer = _timed(partial(result_cache.validate, corpus, use_git=False))
                warm_edited.add(seconds)
                if isinstance(answer, result_cache.ValidationResult) and answer.replayed:
                    notes.append("the edited task file was not checked again")
        finally:
            edits.restore()
            if saved_cache_home is None:
                os.environ.pop("XDG_CACHE_HOME", None)
            else:
                os.environ["XDG_CACHE_HOME"] = saved_cache_home

    peak = tree_peak(cli)

    floor_s = min(floor.value, floor_nogc.value)
    fastest_full = min(par.value, single.value)
    rows: list[tuple[str, str]] = []

    def row(label: str, seconds: str, ratio: str, target: str, result: str) -> None:
        rows.append((label, f"{seconds} | {ratio} | {target} | {result}"))

    row(
        f"floor: read + C-parse the {files.total:,} files validate reads, one process",
        _s(floor_s),
        "1.00x",
        "reference",
        "",
    )
    row(
        "file listing (`scan`), part of validate, not of the floor",
        _s(scan_time.value),
        f"{scan_time.value / floor_s:.2f}x floor",
        "",
        "info",
    )
    row(
        "validate in-process, `parallel=True` (as the CLI)"
        + ("" if forked else " (did not fork: fewer than 2,000 fixtures or one core)"),
        _s(par.value),
        f"{par.value / floor_s:.2f}x floor",
        f"<= {FLOOR_RATIO_TARGET}x",
        _verdict(par.value / floor_s <= FLOOR_RATIO_TARGET),
    )
    row(
        "validate in-process, `parallel=False` (single process)",
        _s(single.value),
        f"{single.value / floor_s:.2f}x floor",
        f"<= {FLOOR_RATIO_TARGET}x",
        _verdict(single.value / floor_s <= FLOOR_RATIO_TARGET),
    )
    row(
        "`voyage-tui validate CORPUS --no-git --no-cache`, subprocess wall (start-up included)",
        _s(wall.value),
        f"{wall.value / floor_s:.2f}x floor",
        f"< {CLI_WALL_TARGET_S} s",
        _verdict(wall.value < CLI_WALL_TARGET_S)
        + ("" if exit_codes == {0} else f" (exit {sorted(exit_codes)})"),
    )
    row(
        "warm `validate`, unchanged suite: `result_cache.validate`, in-process, answered from "
        "the cache",
        _s(warm.value),
        f"{warm.value / floor_s:.2f}x floor",
        f"<= {WARM_FLOOR_TARGET}x",
        _verdict(warm.value / floor_s <= WARM_FLOOR_TARGET),
    )
    row(
        "warm `voyage-tui validate CORPUS --no-git`, unchanged suite, subprocess wall "
        "(start-up included)",
        _s(warm_wall.value),
        f"{warm_wall.value / floor_s:.2f}x floor",
        f"<= {WARM_FLOOR_TARGET}x",
        _verdict(warm_wall.value / floor_s <= WARM_FLOOR_TARGET),
    )
    row(
        "first `voyage-tui validate CORPUS --no-git` with the cache: checks all, writes the cache",
        _s(first_wall.value),
        f"{first_wall.value / wall.value:.2f}x of `--no-cache`",
        "",
        "info",
    )
    row(
        "warm `validate` after a one-file edit: `result_cache.validate`, in-process, that file "
        "checked, the rest from the cache",
        _s(warm_edited.value),
        f"{warm_edited.value / floor_s:.2f}x floor",
        "",
        "info",
    )
    row(
        "`voyage-tui validate` on an empty workspace: start-up and imports only",
        _s(startup.value),
        f"{startup.value / wall.value:.2f}x of the CLI wall",
        "",
        "info",
    )
    if plan is not None:
        row(
            f"check-jsonschema, exported schemas, {plan.note}; 4 processes",
            _s(schema_time.value),
            f"validate CLI = {wall.value / schema_time.value:.3f}x of it",
            "",
            "info" + (f" ({len(schema_failures)} failed runs)" if schema_failures else ""),
        )
    row(
        f"one-file re-validation: `revalidate([task])` after an edit on disk ({full_items:,} items loaded)",
        _s(one.value),
        f"1/{fastest_full / one.value:,.0f} of full",
        "<= 1/100",
        _verdict(one.value / fastest_full <= ONE_FILE_TARGET),
    )
    row(
        f"journey.md change: `revalidate([journey])`, re-checks {trajectories_touched:,} trajectories",
        _s(journey.value),
        f"{journey.value / fastest_full:.3f}x of full",
        "",
        "info",
    )
    row(
        "peak memory: max RSS of the `voyage-tui validate --no-cache` process (wait4)",
        f"{max_rss_kb / 1024:.1f} MB",
        "",
        f"< {MEMORY_TARGET_MB:.0f} MB",
        _verdict(max_rss_kb / 1024 < MEMORY_TARGET_MB),
    )
    if peak is not None:
        kb, samples = peak
        row(
            "peak memory: process tree (parent + forked child), summed RSS sampled every 2 ms "
            f"({samples} samples; shared pages counted twice)",
            f"{kb / 1024:.1f} MB",
            "",
            f"< {MEMORY_TARGET_MB:.0f} MB",
            _verdict(kb / 1024 < MEMORY_TARGET_MB),
        )
    if files.tasks < STANDARD["tasks"] or files.trajectories < STANDARD["trajectories"]:
        notes.append(
            "this corpus is smaller than the standard one (10,000 tasks, 1,000 trajectories, "
            "100 gold x 10 runs) the targets are set for: read the results as a smoke run"
        )
    for note in dict.fromkeys(notes + schema_failures):
        rows.append((f"note: {note}", " | | | "))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "corpus", nargs="?", type=Path, help="a generated corpus (default: generate one)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds; each time is the best of them"
    )
    parser.add_argument("--quick", action="store_true", help="generate a 10x smaller corpus")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="voyage-bench-") as tmp:
        corpus = args.corpus or generate_corpus(Path(tmp) / "corpus", quick=args.quick)
        print(f"corpus: {describe_corpus(corpus)}")
        print(f"rounds: {args.repeat} (each time is the best of them)")
        print(f"load average before: {load_average()}")
        rows = bench_validate(corpus, repeat=args.repeat)
    print(f"load average after: {load_average()}\n")
    print(markdown_table(HEADER, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
