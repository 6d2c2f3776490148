"""From samples to writes: match each to a fixture, decide new / changed / unchanged, check it
by the run rules, and only then write (SPEC 3.13).

The plan is computed whole before anything is written, so `--dry-run` prints exactly what a real
import would do, and a log that cannot be read leaves the workspace as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.importing.model import ImportedSample
from voyage_tui.engine.importing.runfile import run_document, run_id_of, run_yaml
from voyage_tui.engine.items import Item
from voyage_tui.engine.loading.safe_read import read_bytes_inside
from voyage_tui.engine.validation.file_check import check_agent_run_file
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_file

State = Literal["new", "changed", "unchanged"]


@dataclass(frozen=True)
class Planned:
    sample: ImportedSample
    fixture_id: str
    rel: str
    run_id: str
    data: bytes
    state: State


@dataclass(frozen=True)
class Unmatched:
    sample: ImportedSample
    key: str | None
    """What was looked up (the sample's id, or its metadata value); None when the metadata
    key was missing."""


@dataclass(frozen=True)
class Refused:
    planned: Planned
    diagnostics: tuple[Diagnostic, ...]


@dataclass
class Plan:
    runs: list[Planned] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    duplicates: list[Planned] = field(default_factory=list)
    """Samples whose run id another sample of this import already takes (the first wins)."""

    def count(self, state: State) -> int:
        return sum(1 for p in self.runs if p.state == state)


def fixture_index(fixtures: Iterable[Item]) -> dict[str, str]:
    """fixture id -> its folder, for fixtures with an id (a duplicated id matches none: the
    validator reports it, and a sample is never placed by a guess)."""
    seen: dict[str, str] = {}
    twice: set[str] = set()
    for item in fixtures:
        if item.id is None:
            continue
        if item.id in seen:
            twice.add(item.id)
        seen[item.id] = item.folder
    return {k: v for k, v in seen.items() if k not in twice}


def match_key(sample: ImportedSample, mapping: str) -> str | None:
    if mapping == "id":
        return sample.sample
    key = mapping.removeprefix("metadata:")
    value = sample.sample_metadata.get(key)
    if value is None or isinstance(value, dict | list):
        return None
    return str(value)


def make_plan(
    ws: Workspace, samples: Iterable[ImportedSample], fixtures: dict[str, str], mapping: str = "id"
) -> Plan:
    plan = Plan()
    taken: set[str] = set()
    for sample in samples:
        key = match_key(sample, mapping)
        folder = fixtures.get(key) if key is not None else None
        if folder is None:
            plan.unmatched.append(Unmatched(sample, key))
            continue
        run_id = run_id_of(sample)
        rel = f"{folder}/runs/{run_id}.yaml"
        data = run_yaml(run_document(sample, run_id))
        planned = Planned(sample, key or "", rel, run_id, data, _state(ws, rel, data))
        if rel in taken:
            plan.duplicates.append(planned)
            continue
        taken.add(rel)
        errors = tuple(
            d
            for d in check_agent_run_file(
                ws, rel, data.decode("utf-8", "surrogatepass")
            ).diagnostics
            if d.severity is Severity.ERROR
        )
        if errors:
            plan.refused.append(Refused(planned, errors))
        else:
            plan.runs.append(planned)
    return plan


def _state(ws: Workspace, rel: str, data: bytes) -> State:
    old = read_bytes_inside(
        ws.abs(rel), rel, root_real=ws.root_real, max_bytes=max(ws.max_file_bytes, len(data))
    )
    if isinstance(old, bytes):
        return "unchanged" if old == data else "changed"
    return "new"


def apply(ws: Workspace, plan: Plan) -> list[str]:
    """Write the new and changed runs through the workspace's writer; returns what was
    written. Raises WriteRefused or OSError on the first that cannot be written."""
    written: list[str] = []
    for planned in plan.runs:
        if planned.state == "unchanged":
            continue
        write_file(ws, planned.rel, planned.data, make_folders=True)
        written.append(planned.rel)
    return written
