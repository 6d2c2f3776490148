"""Starting from an existing fixture: its answers become the starting point of a new one.

The id is left empty (the new fixture needs its own) and so is the canary (two holdouts sharing a
canary cannot tell which one leaked). Context file references are kept, each with the file it
names in the old fixture's folder as what to copy into the new one. A value of the wrong type in
the old file is left out (the wizard asks for it again); nothing of the old folder but the
context files is copied (its runs belong to it).
"""

from __future__ import annotations

import math
import os
from typing import Any

from voyage_tui.engine.authoring.answers import (
    Answers,
    ContextEntry,
    GateMark,
    Note,
    PhaseMark,
    RoutingSkip,
    TaskAnswers,
    TrajectoryAnswers,
)
from voyage_tui.engine.authoring.choices import gate_title, merge_phases
from voyage_tui.engine.formats.vocabulary import TRAJECTORY_KIND
from voyage_tui.engine.loading.numbers import small_int
from voyage_tui.engine.references.journey import Journey
from voyage_tui.engine.rules.pipes import split_pipes
from voyage_tui.engine.rules.trajectory_rules import (
    GATE_ENTRY,
    PHASE_ENTRY,
    SKIPPED_GATE_ENTRY,
    SKIPPED_PHASE_ENTRY,
)


def answers_from_fixture(data: dict[Any, Any], folder: str, journey: Journey) -> Answers:
    """`data` is the loaded task.yaml of the fixture in `folder` (workspace-relative)."""
    if data.get("kind") == TRAJECTORY_KIND:
        return _trajectory(data, journey)
    return _task(data, folder)


def _text(data: dict[Any, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _task(data: dict[Any, Any], folder: str) -> TaskAnswers:
    answers = TaskAnswers(
        fixture_class=_text(data, "class"),
        prompt=_text(data, "prompt"),
        ground_truth=_text(data, "ground_truth"),
        expected_boundary=_text(data, "expected_boundary"),
        visibility=_text(data, "visibility") or "public",
        adversarial_intent=_text(data, "adversarial_intent"),
    )
    raw = data.get("context")
    for item in raw if isinstance(raw, list) else [raw] if raw is not None else []:
        if isinstance(item, str):
            answers.context.append(ContextEntry(text=item))
        elif isinstance(item, dict) and set(item) == {"file"} and isinstance(item["file"], str):
            answers.context.append(ContextEntry(file=item["file"], source=_source(folder, item)))
    notes = data.get("scoring_notes")
    if isinstance(notes, dict):
        for dimension, note in notes.items():
            kept = _note(note)
            if isinstance(dimension, str) and kept is not None:
                answers.scoring_notes[dimension] = kept
    harness = data.get("harness_constraints")
    if harness is not None and _plain(harness):
        answers.harness_constraints = harness
    return answers


def _source(folder: str, item: dict[str, str]) -> str | None:
    """The old fixture's file a reference names, when it stays inside that folder."""
    ref = item["file"].strip()
    if not ref or os.path.isabs(ref) or ref.startswith(("/", "\\")):
        return None
    joined = os.path.normpath(f"{folder}/{ref}").replace(os.sep, "/")
    return joined if joined.startswith(folder + "/") else None


def _note(note: Any) -> Note | None:
    if isinstance(note, str):
        return note
    if isinstance(note, list) and all(isinstance(x, str) for x in note):
        return list(note)
    if isinstance(note, dict) and all(
        isinstance(k, int) and not isinstance(k, bool) and isinstance(v, str)
        for k, v in note.items()
    ):
        return dict(note)
    return None


def _plain(value: Any, depth: int = 0) -> bool:
    """Data a draft (JSON) and the YAML writer can both hold."""
    if depth > 50:
        return False
    if value is None or isinstance(value, (str, bool, int, float)):
        return not isinstance(value, float) or math.isfinite(value)
    if isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _trajectory(data: dict[Any, Any], journey: Journey) -> TrajectoryAnswers:
    answers = TrajectoryAnswers(
        path=_text(data, "path"),
        prompt=_text(data, "prompt"),
        terminal_state=_text(data, "terminal_state"),
        final_head_sha=_text(data, "final_head_sha").strip(),
        visibility=_text(data, "visibility") or "public",
    )
    # An entry whose number cannot be read (over MAX_DIGITS digits) is left out like a value of
    # the wrong type: the wizard asks about that phase or gate again, and validate reports it.
    marks: list[PhaseMark] = []
    for entry in split_pipes(_text(data, "phases")):
        match = PHASE_ENTRY.match(entry.text)
        number = small_int(match.group(1)) if match else None
        if match and number is not None:
            marks.append(PhaseMark(number, match.group(2).strip()))
    for entry in split_pipes(_text(data, "skipped_phases")):
        match = SKIPPED_PHASE_ENTRY.match(entry.text)
        if match:
            number, name, reason = small_int(match.group(1)), match.group(2), match.group(3)
            if number is not None:
                marks.append(
                    PhaseMark(number, name.strip(), traversed=False, reason=reason.strip())
                )
        elif ":" in entry.text:
            number_text, _, name = entry.text.partition(":")
            number = small_int(number_text.strip())
            if number is not None:
                marks.append(PhaseMark(number, name.strip(), traversed=False))
    answers.phases = merge_phases(journey, marks)

    gates: dict[int, GateMark] = {}
    for entry in split_pipes(_text(data, "gates")):
        match = GATE_ENTRY.match(entry.text)
        number = small_int(match.group(1)) if match else None
        if match and number is not None:
            gates.setdefault(
                number, GateMark(number, description=match.group(2), verdict=match.group(3))
            )
    for entry in split_pipes(_text(data, "skipped_gates")):
        match = SKIPPED_GATE_ENTRY.match(entry.text)
        number = small_int(match.group(1)) if match else None
        if match and number is not None:
            gates.setdefault(number, GateMark(number, recorded=False, reason=match.group(2)))
    for number in journey.gate_numbers:
        gates.setdefault(number, GateMark(number, description=gate_title(journey, number)))
    answers.gates = [gates[n] for n in sorted(gates)]

    selected = data.get("routing_selected")
    if isinstance(selected, str):
        answers.routing_selected = [s.strip() for s in selected.split(",") if s.strip()]
    skipped = data.get("routing_skipped")
    if isinstance(skipped, str):
        for entry in split_pipes(skipped):
            if entry.text:
                skill, _, reason = entry.text.partition(":")
                answers.routing_skipped.append(RoutingSkip(skill.strip(), reason.strip()))
    return answers
