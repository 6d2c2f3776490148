"""Trajectory fixtures (docs/rules.md, "Trajectories"): phases and gates checked against journey.md."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.schema_errors import translate, unknown_fields
from voyage_tui.engine.formats.trajectory import TrajectoryFixture
from voyage_tui.engine.formats.vocabulary import (
    GATE_VERDICTS,
    TERMINAL_STATES,
    TRAJECTORY_PATHS,
    VISIBILITIES,
)
from voyage_tui.engine.loading.numbers import NUMBER_TOO_LONG, small_int, too_long
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.references.journey import Journey
from voyage_tui.engine.rules.common import blank_text, id_mismatch
from voyage_tui.engine.rules.context import FileContext
from voyage_tui.engine.rules.pipes import Entry, entry_position, split_pipes
from voyage_tui.engine.rules.sha import check_sha_format
from voyage_tui.engine.suggest import closest, hint
from voyage_tui.engine.wording import plural

PHASE_ENTRY = re.compile(r"^(\d+)\s*:\s*(.+)$", re.DOTALL)
SKIPPED_PHASE_ENTRY = re.compile(r"^(\d+)\s*:\s*([^:]+?)\s*:\s*(.*)$", re.DOTALL)
GATE_ENTRY = re.compile(r"^gate-(\d+)\s*:\s*(.+?)\s*:\s*([^:]+)$", re.DOTALL | re.IGNORECASE)
SKIPPED_GATE_ENTRY = re.compile(r"^gate-(\d+)\s*:\s*(.*)$", re.DOTALL | re.IGNORECASE)

# A skip written without its reason (`3: Design and planning`, `gate-2`): the entry is
# understood, and the missing reason is what gets reported.
_BARE_SKIPPED_PHASE = re.compile(r"^(\d+)\s*:\s*([^:]+?)\s*()$", re.DOTALL)
_BARE_SKIPPED_GATE = re.compile(r"^gate-(\d+)\s*()$", re.IGNORECASE)

_VOCABULARIES = {
    "path": TRAJECTORY_PATHS,
    "terminal_state": TERMINAL_STATES,
    "visibility": VISIBILITIES,
    "kind": ("trajectory",),
}


def check_trajectory(
    ctx: FileContext, data: dict[Any, Any], positions: Positions, folder_id: str
) -> list[Diagnostic]:
    rel = ctx.rel
    out: list[Diagnostic] = []
    try:
        TrajectoryFixture.model_validate(data)
    except ValidationError as exc:
        out += translate(
            exc, rel, positions, models=(TrajectoryFixture,), vocabularies=_VOCABULARIES
        )
    out += unknown_fields(data, TrajectoryFixture, rel, positions)
    out += blank_text(data, ("id", "prompt", "phases", "gates"), rel, positions)

    out += id_mismatch(data, folder_id, rel, positions)

    journey = ctx.refs.journey.value
    journey_name = (
        f"the default journey ({ctx.refs.journey.path} is absent)"
        if ctx.refs.journey.is_default
        else ctx.refs.journey.path
    )
    checker = _JourneyChecker(rel, positions, journey, journey_name)
    traversed = checker.phases(data.get("phases"))
    skipped = checker.skipped_phases(data.get("skipped_phases"), traversed)
    recorded = checker.gates(data.get("gates"))
    checker.skipped_gates(data.get("skipped_gates"), recorded)
    out += checker.out

    sha = data.get("final_head_sha")
    if isinstance(sha, str):
        out += check_sha_format(rel, sha, positions.value(("final_head_sha",)))

    if data.get("path") == "full":
        out += _full_path(rel, data, positions, journey, traversed, recorded, skipped)
    return out


def _full_path(
    rel: str,
    data: dict[Any, Any],
    positions: Positions,
    journey: Journey,
    traversed: set[int],
    recorded: set[int],
    skipped: set[int],
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    if isinstance(data.get("phases"), str):
        missing = [journey.phases[n].label for n in sorted(journey.phases) if n not in traversed]
        if missing:
            out.append(
                dg.error(
                    rel,
                    positions.value(("phases",)),
                    "full-path-missing-phases",
                    f"a full-path trajectory traverses all {plural(len(journey.phases), 'journey phase')}; "
                    f"missing: {', '.join(missing)}",
                )
            )
    if isinstance(data.get("gates"), str):
        missing_gates = [f"gate-{n}" for n in journey.gate_numbers if n not in recorded]
        if missing_gates:
            out.append(
                dg.error(
                    rel,
                    positions.value(("gates",)),
                    "full-path-missing-gates",
                    f"a full-path trajectory records all {plural(len(journey.gate_numbers), 'gate')}; "
                    f"missing: {', '.join(missing_gates)}",
                )
            )
    sha = data.get("final_head_sha")
    if sha is None or (isinstance(sha, str) and not sha.strip()):
        where = (
            positions.key(("final_head_sha",))
            if "final_head_sha" in data
            else positions.value(("path",))
        )
        out.append(
            dg.error(
                rel,
                where,
                "full-path-missing-sha",
                "a full-path trajectory binds its final verdict to a commit: add "
                "`final_head_sha: <full 40-hex SHA>`",
            )
        )
    return out


class _JourneyChecker:
    def __init__(self, rel: str, positions: Positions, journey: Journey, journey_path: str) -> None:
        self.rel = rel
        self.positions = positions
        self.journey = journey
        self.journey_path = journey_path
        self.out: list[Diagnostic] = []
        self.labels = [p.label for p in journey.phases.values()]

    def _error(self, field: str, entry: Entry, code: str, message: str) -> None:
        self.out.append(
            dg.error(self.rel, entry_position(self.positions, (field,), entry), code, message)
        )

    def _entries(self, field: str, value: Any) -> list[Entry]:
        if not isinstance(value, str) or not value.strip():
            return []
        entries = split_pipes(value)
        for entry in entries:
            if not entry.text:
                self._error(
                    field,
                    entry,
                    "empty-entry",
                    f"`{field}` has an empty entry between pipes; remove the extra `|`",
                )
        return [e for e in entries if e.text]

    def _number(self, field: str, entry: Entry, digits: str, what: str) -> int | None:
        """The entry's number, or None (reported) when it is too long to be any phase or gate."""
        number = small_int(digits)
        if number is None:
            self._error(
                field,
                entry,
                NUMBER_TOO_LONG,
                f"{too_long(digits, what)}; write the number journey.md gives it",
            )
        return number

    def _match_phase(self, field: str, entry: Entry, number: int, name: str) -> bool:
        phase = self.journey.phases.get(number)
        if phase is not None and phase.name == name:
            return True
        same_name = self.journey.phase_named(name)
        if phase is not None and same_name is None:
            best = closest(f"{number}: {name}", self.labels, cutoff=0.5) or phase.label
            self._error(
                field,
                entry,
                "phase-name-mismatch",
                f"phase {number} is named {phase.name!r} in {self.journey_path}, not {name!r}; "
                f"did you mean `{best}`?",
            )
        elif same_name is not None:
            self._error(
                field,
                entry,
                "phase-number-mismatch",
                f"{name!r} is phase {same_name.number} in {self.journey_path}, not {number}; "
                f"write `{same_name.label}`",
            )
        else:
            self._error(
                field,
                entry,
                "unknown-phase",
                f"`{number}: {name}` is not a phase of {self.journey_path}"
                f"{hint(f'{number}: {name}', self.labels, cutoff=0.5)}",
            )
        return False

    def phases(self, value: Any) -> set[int]:
        traversed: set[int] = set()
        last = 0
        for entry in self._entries("phases", value):
            match = PHASE_ENTRY.match(entry.text)
            if not match:
                self._error(
                    "phases",
                    entry,
                    "phase-syntax",
                    f"{entry.text!r} is not a phase entry; write `N: Phase Name`",
                )
                continue
            number = self._number("phases", entry, match.group(1), "the phase's number")
            if number is None:
                continue
            name = match.group(2).strip()
            if not self._match_phase("phases", entry, number, name):
                continue
            if number in traversed:
                self._error("phases", entry, "duplicate-phase", f"phase {number} is listed twice")
                continue
            if number < last:
                self._error(
                    "phases",
                    entry,
                    "phases-out-of-order",
                    f"phase {number} comes after phase {last}; list phases in ascending order",
                )
            last = max(last, number)
            traversed.add(number)
        return traversed

    def skipped_phases(self, value: Any, traversed: set[int]) -> set[int]:
        skipped: set[int] = set()
        last = 0
        for entry in self._entries("skipped_phases", value):
            match = SKIPPED_PHASE_ENTRY.match(entry.text) or _BARE_SKIPPED_PHASE.match(entry.text)
            if not match:
                self._error(
                    "skipped_phases",
                    entry,
                    "skipped-phase-syntax",
                    f"{entry.text!r} is not a skipped phase; write `N: Phase Name: reason`",
                )
                continue
            number = self._number("skipped_phases", entry, match.group(1), "the phase's number")
            if number is None:
                continue
            name = match.group(2).strip()
            reason = (match.group(3) or "").strip()
            if not reason:
                self._error(
                    "skipped_phases",
                    entry,
                    "skipped-phase-no-reason",
                    f"skipped phase {number} has no reason; every skip says why (`{number}: {name}: why`)",
                )
            if not self._match_phase("skipped_phases", entry, number, name):
                continue
            if number in traversed:
                self._error(
                    "skipped_phases",
                    entry,
                    "phase-traversed-and-skipped",
                    f"phase {number} is both traversed (in `phases`) and skipped; keep one",
                )
            if number in skipped:
                self._error(
                    "skipped_phases", entry, "duplicate-phase", f"phase {number} is skipped twice"
                )
            elif number < last:
                self._error(
                    "skipped_phases",
                    entry,
                    "phases-out-of-order",
                    f"skipped phase {number} comes after {last}; list phases in ascending order",
                )
            last = max(last, number)
            skipped.add(number)
        return skipped

    def _gate_number(self, field: str, entry: Entry, number: int) -> bool:
        allowed = self.journey.gate_numbers
        if number in allowed:
            return True
        self._error(
            field,
            entry,
            "unknown-gate",
            f"gate-{number} is not a journey gate; gates are "
            + ", ".join(f"gate-{n}" for n in allowed),
        )
        return False

    def gates(self, value: Any) -> set[int]:
        recorded: set[int] = set()
        for entry in self._entries("gates", value):
            match = GATE_ENTRY.match(entry.text)
            if not match:
                self._error(
                    "gates",
                    entry,
                    "gate-syntax",
                    f"{entry.text!r} is not a gate entry; write `gate-N: description: verdict` "
                    "(verdict pass, conditional or blocked)",
                )
                continue
            number = self._number("gates", entry, match.group(1), "the gate's number")
            if number is None:
                continue
            verdict = match.group(3).strip()
            if verdict not in GATE_VERDICTS:
                self._error(
                    "gates",
                    entry,
                    "invalid-gate-verdict",
                    f"gate-{number}'s verdict is {verdict!r}, not pass, conditional or blocked"
                    f"{hint(verdict, GATE_VERDICTS)}",
                )
            if not self._gate_number("gates", entry, number):
                continue
            if number in recorded:
                self._error("gates", entry, "duplicate-gate", f"gate-{number} is recorded twice")
                continue
            recorded.add(number)
        return recorded

    def skipped_gates(self, value: Any, recorded: set[int]) -> None:
        skipped: set[int] = set()
        for entry in self._entries("skipped_gates", value):
            match = SKIPPED_GATE_ENTRY.match(entry.text) or _BARE_SKIPPED_GATE.match(entry.text)
            if not match:
                self._error(
                    "skipped_gates",
                    entry,
                    "skipped-gate-syntax",
                    f"{entry.text!r} is not a skipped gate; write `gate-N: reason`",
                )
                continue
            number = self._number("skipped_gates", entry, match.group(1), "the gate's number")
            if number is None:
                continue
            reason = (match.group(2) or "").strip()
            if not reason:
                self._error(
                    "skipped_gates",
                    entry,
                    "skipped-gate-no-reason",
                    f"skipped gate-{number} has no reason; say why it was skipped",
                )
            if not self._gate_number("skipped_gates", entry, number):
                continue
            if number in recorded or number in skipped:
                self._error(
                    "skipped_gates",
                    entry,
                    "duplicate-gate",
                    f"gate-{number} appears more than once across `gates` and `skipped_gates`",
                )
                continue
            skipped.add(number)
