"""What the app shows for one item: its fields read from disk, and for a trajectory the journey
checklist. The suite keeps only summaries, so a detail is loaded when an item is selected."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.loading.numbers import small_int
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.references.journey import Journey
from voyage_tui.engine.rules.pipes import split_pipes
from voyage_tui.engine.rules.task_context import TaskContext, task_context
from voyage_tui.engine.rules.trajectory_rules import (
    GATE_ENTRY,
    PHASE_ENTRY,
    SKIPPED_GATE_ENTRY,
    SKIPPED_PHASE_ENTRY,
)
from voyage_tui.engine.workspace.model import Workspace


class DetailFormat(StrEnum):
    """How an item's file is read for its detail."""

    YAML = "yaml"
    JSON = "json"
    RECORDS = "records"
    """JSON lines, not one document: its records and their problems are the item's diagnostics,
    so the detail reads nothing."""
    NONE = "none"
    """Never an item: nothing to show."""


DETAIL_FORMAT: dict[FileKind, DetailFormat] = {
    FileKind.TASK: DetailFormat.YAML,
    FileKind.TRAJECTORY: DetailFormat.YAML,
    FileKind.AGENT_RUN: DetailFormat.YAML,
    FileKind.GOLD: DetailFormat.JSON,
    FileKind.GOLD_RUN: DetailFormat.JSON,
    FileKind.RATING: DetailFormat.RECORDS,
    FileKind.ADJUDICATION: DetailFormat.RECORDS,
    FileKind.REFERENCE: DetailFormat.NONE,
    FileKind.CONFIG: DetailFormat.NONE,
    FileKind.MISPLACED_TASK: DetailFormat.NONE,
    FileKind.OTHER: DetailFormat.NONE,
}
"""The detail concern of each file kind (see engine/kinds.py); what the app draws from the
loaded document is its own table (`KIND_WIDGETS` in app/widgets/detail_pane.py)."""

TRAVERSED, SKIPPED, MISSING = "traversed", "skipped", "missing"
RECORDED = "recorded"


@dataclass(frozen=True, slots=True)
class PhaseRow:
    number: int
    name: str
    status: str
    """traversed, skipped or missing (neither)."""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class GateRow:
    number: int
    description: str
    status: str
    """recorded, skipped or missing."""
    verdict: str = ""
    reason: str = ""


@dataclass(slots=True)
class Detail:
    item: Item
    data: Any = None
    """The parsed document, or None when it could not be loaded (see the item's diagnostics)."""
    text: str = ""
    phases: list[PhaseRow] = field(default_factory=list)
    gates: list[GateRow] = field(default_factory=list)
    load_problem: Diagnostic | None = None
    context: TaskContext = field(default_factory=TaskContext)
    """A task's `context`, its files read (engine/rules/task_context.py)."""

    def field(self, name: str) -> Any:
        return self.data.get(name) if isinstance(self.data, dict) else None


def journey_checklist(
    data: dict[str, Any], journey: Journey
) -> tuple[list[PhaseRow], list[GateRow]]:
    """Every journey phase and gate with what the trajectory says of it."""
    traversed: set[int] = set()
    skipped: dict[int, str] = {}
    if isinstance(data.get("phases"), str):
        for entry in split_pipes(data["phases"]):
            match = PHASE_ENTRY.match(entry.text)
            number = small_int(match.group(1)) if match else None
            if number is not None:
                traversed.add(number)
    if isinstance(data.get("skipped_phases"), str):
        for entry in split_pipes(data["skipped_phases"]):
            match = SKIPPED_PHASE_ENTRY.match(entry.text)
            number = small_int(match.group(1)) if match else None
            if match and number is not None:
                skipped[number] = match.group(3).strip()
    phases = []
    for number in sorted(journey.phases):
        phase = journey.phases[number]
        if number in traversed:
            phases.append(PhaseRow(number, phase.name, TRAVERSED))
        elif number in skipped:
            phases.append(PhaseRow(number, phase.name, SKIPPED, skipped[number]))
        else:
            phases.append(PhaseRow(number, phase.name, MISSING))
    recorded: dict[int, tuple[str, str]] = {}
    skipped_gates: dict[int, str] = {}
    if isinstance(data.get("gates"), str):
        for entry in split_pipes(data["gates"]):
            match = GATE_ENTRY.match(entry.text)
            number = small_int(match.group(1)) if match else None
            if match and number is not None:
                recorded.setdefault(number, (match.group(2).strip(), match.group(3).strip()))
    if isinstance(data.get("skipped_gates"), str):
        for entry in split_pipes(data["skipped_gates"]):
            match = SKIPPED_GATE_ENTRY.match(entry.text)
            number = small_int(match.group(1)) if match else None
            if match and number is not None:
                skipped_gates[number] = match.group(2).strip()
    gates = []
    for number in journey.gate_numbers:
        known = journey.gates.get(number)
        description = known.description if known else ""
        if number in recorded:
            said, verdict = recorded[number]
            gates.append(GateRow(number, said or description, RECORDED, verdict))
        elif number in skipped_gates:
            gates.append(GateRow(number, description, SKIPPED, reason=skipped_gates[number]))
        else:
            gates.append(GateRow(number, description, MISSING))
    return phases, gates


def load_detail(ws: Workspace, journey: Journey, item: Item) -> Detail:
    how = DETAIL_FORMAT[item.kind]
    if how is DetailFormat.RECORDS or how is DetailFormat.NONE:
        return Detail(item, data={})
    detail = Detail(item)
    text = ws.read_text(item.path)
    if isinstance(text, Diagnostic):
        detail.load_problem = text
        return detail
    detail.text = text
    doc = load_json(text, item.path) if how is DetailFormat.JSON else load_yaml(text, item.path)
    if not doc.ok:
        detail.load_problem = doc.diagnostics[0] if doc.diagnostics else None
        return detail
    detail.data = doc.data
    if item.kind is FileKind.TASK and isinstance(doc.data, dict):
        detail.context = task_context(ws, item.path, doc.data.get("context"))
    if item.kind is FileKind.TRAJECTORY and isinstance(doc.data, dict):
        detail.phases, detail.gates = journey_checklist(doc.data, journey)
    return detail


__all__ = [
    "DETAIL_FORMAT",
    "Detail",
    "DetailFormat",
    "GateRow",
    "PhaseRow",
    "journey_checklist",
    "load_detail",
]
