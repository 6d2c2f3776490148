"""What a wizard offers at each choice: the closed vocabularies with a line each on what they
mean, the journey's phases and gates as checklists (read from journey.md, never a built-in
list), and the specialists of the routing table."""

from __future__ import annotations

import re
from dataclasses import dataclass

from voyage_tui.engine.authoring.answers import GateMark, PhaseMark
from voyage_tui.engine.formats.vocabulary import (
    BOUNDARIES,
    CLASSES,
    GATE_VERDICTS,
    TERMINAL_STATES,
    TRAJECTORY_PATHS,
    VISIBILITIES,
)
from voyage_tui.engine.references.journey import Journey
from voyage_tui.engine.references.markdown import parse, plain


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    meaning: str


def _choices(values: tuple[str, ...], meanings: dict[str, str]) -> tuple[Choice, ...]:
    # The vocabulary module is the source of the values; a value without a line here still
    # appears (with an empty meaning) rather than vanish from the wizard.
    return tuple(Choice(v, meanings.get(v, "")) for v in values)


CLASS_CHOICES = _choices(
    CLASSES,
    {
        "bug-diagnosis": "find the cause of a reported defect, fix it, and show how it was verified",
        "feature-change": "add or change behaviour as asked, keeping what must keep working",
        "refactor": "change the structure, not the behaviour; the evidence shows nothing moved",
        "spec-ambiguity": "the request can be read two ways; the right move is to surface that and "
        "ask (or state the assumption), not to guess silently",
        "regression-prevention": "guard a known failure with a test or check so it cannot return",
        "review-finding": "review a change and report its real problems, and only those",
        "release-verification": "decide from evidence whether a release is fit to ship",
        "no-change-needed": "the right outcome is no code change; the ground truth holds the "
        "evidence that none is warranted",
        "adversarial": "a trap for a reflexive answer (the right one is a larger change, a new "
        "dependency, a process change or no change); name the trap in adversarial_intent",
    },
)

BOUNDARY_CHOICES = _choices(
    BOUNDARIES,
    {
        "unit": "a function or module, checked by unit tests",
        "integration": "several parts together (a database, a queue, another service)",
        "end-to-end": "the whole system as a user drives it",
        "production": "what happens in production (deploys, live data, running jobs)",
    },
)

VISIBILITY_CHOICES = _choices(
    VISIBILITIES,
    {
        "public": "contributors may see and iterate on it",
        "holdout": "kept from contributors so scores stay honest; gets a `# canary:` line",
    },
)

PATH_CHOICES = _choices(
    TRAJECTORY_PATHS,
    {
        "lightweight": "low-risk changes; some phases may be skipped, each with its reason",
        "full": "every journey phase and gate, and a final_head_sha the verdict binds to",
        "refactor": "behaviour-preserving change; verification shows behaviour did not move",
        "high-risk": "payments, auth, data migrations; every gate is recorded",
    },
)

TERMINAL_STATE_CHOICES = _choices(
    TERMINAL_STATES,
    {
        "merged": "the change was merged",
        "closed": "the request was closed without a merge",
        "blocked": "a gate blocked the journey",
        "released": "the change was merged and released",
    },
)

VERDICT_CHOICES = _choices(
    GATE_VERDICTS,
    {
        "pass": "the gate passed",
        "conditional": "passed with a recorded follow-up",
        "blocked": "the gate stopped the journey",
    },
)


DEFAULT_VERDICT = "pass"
"""A recorded gate's verdict until another is given: most gates of a journey pass."""

VERDICT_LETTERS = {value[0]: value for value in GATE_VERDICTS}
"""One letter per verdict (`p`, `c`, `b`), as the wizard's keys and `new --gate N=c` take it."""


def gate_verdict(given: str) -> str:
    """The verdict `new --gate` means: none given is the default (pass), a letter is its
    verdict, anything else is kept as written (so the check names what is wrong with it)."""
    text = given.strip()
    if not text:
        return DEFAULT_VERDICT
    return VERDICT_LETTERS.get(text.lower(), text)


# --- journey checklists --------------------------------------------------------------------------


def phase_checklist(journey: Journey) -> list[PhaseMark]:
    """Every phase of journey.md, in order, ticked (traversed): the wizard unticks the skipped."""
    return [PhaseMark(p.number, p.name) for p in sorted(journey.phases.values(), key=_number)]


def gate_checklist(journey: Journey) -> list[GateMark]:
    """Every gate of journey.md (gate-1..5 when it names none), recorded as passed (the wizard
    and `new` change the verdicts that differ); the description starts as the gate's own short
    title from journey.md."""
    return [
        GateMark(n, description=gate_title(journey, n), verdict=DEFAULT_VERDICT)
        for n in sorted(journey.gate_numbers)
    ]


def gate_title(journey: Journey, number: int) -> str:
    """`Scope approved` from `gate-1: Scope approved, after phase 2. The request ...`."""
    gate = journey.gates.get(number)
    if gate is None:
        return ""
    return re.split(r"[,.;]", gate.description, maxsplit=1)[0].strip()


def merge_phases(journey: Journey, marks: list[PhaseMark]) -> list[PhaseMark]:
    """The journey's checklist with the choices already made (matched by number and name):
    a phase the marks do not mention is unticked with no reason, so the wizard asks about it;
    a mark the journey does not know stays, and the engine's rules report it."""
    known = {(m.number, m.name): m for m in marks}
    out = [
        known.pop((p.number, p.name), PhaseMark(p.number, p.name, traversed=False))
        for p in sorted(journey.phases.values(), key=_number)
    ]
    out.extend(known.values())
    return sorted(out, key=lambda m: m.number)


def _number(phase: object) -> int:
    return int(getattr(phase, "number", 0))


# --- routing table -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Specialist:
    name: str
    signal: str = ""
    skip_when: str = ""


def routing_specialists(text: str) -> list[Specialist]:
    """The specialists of the routing table: the rows of every Markdown table with a
    `Specialist` (or `Skill`) column, in order, each name once. A table without one offers none;
    the routing fields are metadata, never validated, so any name may still be typed."""
    tokens = parse(text)
    found: dict[str, Specialist] = {}
    index = 0
    while index < len(tokens):
        if tokens[index].type != "table_open":
            index += 1
            continue
        rows: list[list[str]] = []
        row: list[str] = []
        index += 1
        while index < len(tokens) and tokens[index].type != "table_close":
            token = tokens[index]
            if token.type == "tr_open":
                row = []
            elif token.type == "inline":
                row.append(plain(token))
            elif token.type == "tr_close":
                rows.append(row)
            index += 1
        if not rows:
            continue
        header = [cell.lower() for cell in rows[0]]
        name_col = _column(header, ("specialist", "skill"))
        if name_col is None:
            continue
        signal_col = _column(header, ("signal",))
        skip_col = _column(header, ("skip",))
        for cells in rows[1:]:
            name = cells[name_col].strip("` ") if name_col < len(cells) else ""
            if not name or name in found:
                continue
            found[name] = Specialist(
                name,
                _cell(cells, signal_col),
                _cell(cells, skip_col),
            )
    return list(found.values())


def _column(header: list[str], words: tuple[str, ...]) -> int | None:
    for i, cell in enumerate(header):
        if any(word in cell for word in words):
            return i
    return None


def _cell(cells: list[str], col: int | None) -> str:
    return cells[col] if col is not None and col < len(cells) else ""
