"""journey.md: the canonical phases and gates, read from Markdown structure, never hard-coded.

Accepted: headings `N. Name`, `N: Name`, `Phase N: Name` at any level; numbered list items
`N. Name` under a heading that mentions "phase"; gates as `gate-N: description` headings or list
items. A phase's name is the first line of its heading or item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.vocabulary import DEFAULT_GATES
from voyage_tui.engine.loading.numbers import NUMBER_TOO_LONG, small_int, too_long
from voyage_tui.engine.references.markdown import line_of, parse, plain

_PHASE_HEADING = re.compile(r"^(?:phase\s+)?(\d+)\s*[.:)]\s*(.+)$", re.IGNORECASE)
_PHASE_ITEM = re.compile(r"^(?:phase\s+)?(\d+)\s*[.:)]\s*(.+)$", re.IGNORECASE)
_GATE = re.compile(r"^gate-(\d+)\s*(?:[:.)\-\u2013\u2014]\s*(.*))?$", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class Phase:
    number: int
    name: str
    line: int | None = None

    @property
    def label(self) -> str:
        return f"{self.number}: {self.name}"


@dataclass(frozen=True, slots=True)
class Gate:
    number: int
    description: str
    line: int | None = None

    @property
    def label(self) -> str:
        return f"gate-{self.number}"


@dataclass(slots=True)
class Journey:
    phases: dict[int, Phase] = field(default_factory=dict)
    gates: dict[int, Gate] = field(default_factory=dict)

    @property
    def gate_numbers(self) -> tuple[int, ...]:
        return tuple(sorted(self.gates)) if self.gates else DEFAULT_GATES

    def phase_named(self, name: str) -> Phase | None:
        for phase in self.phases.values():
            if phase.name == name:
                return phase
        return None


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0].strip().rstrip(".").strip()


def parse_journey(text: str, rel: str) -> tuple[Journey, list[Diagnostic]]:
    journey = Journey()
    diagnostics: list[Diagnostic] = []
    tokens = parse(text)
    heading_mentions_phase = False
    in_item_depth = 0

    def readable(digits: str, what: str, line: int | None) -> int | None:
        number = small_int(digits)
        if number is None:
            diagnostics.append(
                dg.error(
                    rel,
                    (line, 1) if line else None,
                    NUMBER_TOO_LONG,
                    f"{too_long(digits, what)}; this {what.split()[-1]} is left out of the journey",
                )
            )
        return number

    def add_phase(digits: str, name: str, line: int | None) -> None:
        number = readable(digits, "the number of a phase", line)
        if number is None:
            return
        if number in journey.phases:
            first = journey.phases[number]
            diagnostics.append(
                dg.error(
                    rel,
                    (line, 1) if line else None,
                    "journey-duplicate-phase",
                    f"phase {number} is defined twice (first as {first.name!r} at line {first.line}); "
                    "keep one",
                )
            )
            return
        journey.phases[number] = Phase(number, name, line)

    def add_gate(digits: str, description: str, line: int | None) -> None:
        number = readable(digits, "the number of a gate", line)
        if number is None:
            return
        if number in journey.gates:
            diagnostics.append(
                dg.error(
                    rel,
                    (line, 1) if line else None,
                    "journey-duplicate-gate",
                    f"gate-{number} is defined twice; keep one",
                )
            )
            return
        journey.gates[number] = Gate(number, description, line)

    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[index + 1]
            content = _first_line(plain(inline))
            line = line_of(token)
            gate = _GATE.match(content)
            if gate:
                add_gate(gate.group(1), (gate.group(2) or "").strip(), line)
                continue
            phase = _PHASE_HEADING.match(content)
            if phase:
                add_phase(phase.group(1), _first_line(phase.group(2)), line)
                continue
            heading_mentions_phase = "phase" in content.lower()
        elif token.type == "list_item_open":
            in_item_depth += 1
            # The item's own text is the inline token of its first paragraph.
            first = next((t for t in tokens[index + 1 : index + 4] if t.type == "inline"), None)
            if first is None:
                continue
            content = plain(first)
            line = line_of(token)
            gate = _GATE.match(_first_line(content))
            if gate:
                add_gate(gate.group(1), (gate.group(2) or "").strip(), line)
                continue
            if not heading_mentions_phase or in_item_depth > 1:
                continue
            if token.info.isdigit():
                add_phase(token.info, _first_line(content), line)
                continue
            phase = _PHASE_ITEM.match(_first_line(content))
            if phase:
                add_phase(phase.group(1), _first_line(phase.group(2)), line)
        elif token.type == "list_item_close":
            in_item_depth -= 1
    if not journey.phases:
        diagnostics.append(
            dg.error(
                rel,
                (1, 1),
                "journey-no-phases",
                "journey.md defines no phases: write them as headings `## 1. Name` or as a "
                "numbered list `1. Name` under a heading that mentions phases",
            )
        )
    return journey, diagnostics
