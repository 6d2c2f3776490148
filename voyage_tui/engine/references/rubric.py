"""rubric.md: each `##` heading is a dimension; list items `N: anchor` under it are its scale."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.numbers import NUMBER_TOO_LONG, small_int, too_long
from voyage_tui.engine.references.markdown import line_of, parse, plain

_ANCHOR = re.compile(r"^(\d+)\s*[:.)\-\u2013\u2014]\s*(.+)$", re.DOTALL)

LOWEST_ANCHOR = 0
HIGHEST_ANCHOR = 100
MAX_SCALE_VALUES = 20
"""SPEC 3.7: a scale is at most 20 values (every whole number from its lowest anchor to its
highest is a score), with anchors from 0 to 100. Whatever the rubric says, a Dimension's anchors
stay inside these bounds (the others are reported and left out), so nothing that walks a scale
(the rater's keypad and panel, agreement's value domain, the kappa matrices) can be made to
allocate by an anchor's value."""

SCALE_TOO_LARGE = "rubric-scale-too-large"
ANCHOR_OUT_OF_RANGE = "rubric-anchor-out-of-range"


@lru_cache(maxsize=4096)
def dimension_key(name: str) -> str:
    """Names match ignoring case and the difference between spaces, hyphens and underscores."""
    return re.sub(r"[\s_\-]+", "_", name.strip().casefold())


@dataclass(slots=True)
class Dimension:
    name: str
    description: str = ""
    anchors: dict[int, str] = field(default_factory=dict)
    line: int | None = None

    @property
    def key(self) -> str:
        return dimension_key(self.name)

    @property
    def scale(self) -> tuple[int, ...]:
        return tuple(sorted(self.anchors)) or (1, 2, 3, 4, 5)


@dataclass(slots=True)
class Rubric:
    dimensions: list[Dimension] = field(default_factory=list)

    def by_key(self) -> dict[str, Dimension]:
        # Asked once per fixture with scoring notes: keep it, the dimensions never change after
        # parsing (a new rubric.md is a new Rubric).
        cached = _BY_KEY.get(id(self))
        if cached is None or cached[0] is not self:
            cached = (self, {d.key: d for d in self.dimensions})
            _BY_KEY[id(self)] = cached
        return cached[1]

    def find(self, name: str) -> Dimension | None:
        return self.by_key().get(dimension_key(name))


_BY_KEY: dict[int, tuple[Rubric, dict[str, Dimension]]] = {}


def parse_rubric(text: str, rel: str) -> tuple[Rubric, list[Diagnostic]]:
    rubric = Rubric()
    diagnostics: list[Diagnostic] = []
    tokens = parse(text)
    current: Dimension | None = None
    depth = 0
    lines: dict[int, dict[int, int]] = {}
    """id(dimension) -> anchor -> its line, for the scale check below."""
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            if token.tag == "h2":
                name = plain(tokens[index + 1])
                current = Dimension(name=name, line=line_of(token))
                if any(d.key == current.key for d in rubric.dimensions):
                    diagnostics.append(
                        dg.error(
                            rel,
                            (current.line or 1, 1),
                            "rubric-duplicate-dimension",
                            f"dimension {name!r} is defined twice; keep one",
                        )
                    )
                    current = None
                    continue
                rubric.dimensions.append(current)
            elif token.tag == "h1":
                current = None
        elif token.type == "paragraph_open" and current is not None and depth == 0:
            if not current.description:
                current.description = plain(tokens[index + 1])
        elif token.type == "list_item_open":
            depth += 1
            if current is None or depth > 1:
                continue
            inline = next((t for t in tokens[index + 1 : index + 4] if t.type == "inline"), None)
            if inline is None:
                continue
            content = plain(inline)
            if token.info.isdigit():
                digits, anchor = token.info, content
            else:
                match = _ANCHOR.match(content)
                if not match:
                    continue
                digits, anchor = match.group(1), match.group(2).strip()
            line = line_of(token) or current.line or 1
            number = small_int(digits)
            if number is None:
                diagnostics.append(
                    dg.error(
                        rel,
                        (line, 1),
                        NUMBER_TOO_LONG,
                        f"{too_long(digits, 'an anchor of ' + repr(current.name))}; anchors are "
                        f"{LOWEST_ANCHOR} to {HIGHEST_ANCHOR}, so it is left out of the scale",
                    )
                )
                continue
            if not LOWEST_ANCHOR <= number <= HIGHEST_ANCHOR:
                diagnostics.append(
                    dg.error(
                        rel,
                        (line, 1),
                        ANCHOR_OUT_OF_RANGE,
                        f"anchor {number} of {current.name!r} is outside {LOWEST_ANCHOR} to "
                        f"{HIGHEST_ANCHOR}; it is left out of the scale",
                    )
                )
                continue
            current.anchors[number] = " ".join(anchor.split())
            lines.setdefault(id(current), {})[number] = line
        elif token.type == "list_item_close":
            depth -= 1
    if not rubric.dimensions:
        diagnostics.append(
            dg.error(
                rel,
                (1, 1),
                "rubric-no-dimensions",
                "rubric.md defines no dimensions: write each as a `## Name` heading with list "
                "items `1: anchor` … `5: anchor` under it",
            )
        )
    for dimension in rubric.dimensions:
        diagnostics += _bound_scale(dimension, lines.get(id(dimension), {}), rel)
        if not dimension.anchors:
            diagnostics.append(
                dg.warning(
                    rel,
                    (dimension.line or 1, 1),
                    "rubric-no-anchors",
                    f"dimension {dimension.name!r} has no anchors; add list items `1: …` to `5: …`",
                )
            )
    return rubric, diagnostics


def _bound_scale(dimension: Dimension, lines: dict[int, int], rel: str) -> list[Diagnostic]:
    """Keep the scale to MAX_SCALE_VALUES values: from the lowest anchor up, an anchor that
    would stretch it further is reported on its line and left out (a typo `50:` among `1:` to
    `5:` leaves the scale 1..5). The scale is clamped rather than the dimension dropped, so
    ratings of it still count, and a score beyond the clamped scale is `rating-score-out-of-scale`."""
    if not dimension.anchors:
        return []
    low = min(dimension.anchors)
    top = low + MAX_SCALE_VALUES - 1
    kept = max(n for n in dimension.anchors if n <= top)
    out: list[Diagnostic] = []
    for number in sorted(dimension.anchors):
        if number <= top:
            continue
        del dimension.anchors[number]
        out.append(
            dg.error(
                rel,
                (lines.get(number, dimension.line or 1), 1),
                SCALE_TOO_LARGE,
                f"anchor {number} would make the scale of {dimension.name!r} {low} to {number}, "
                f"{number - low + 1} values; a scale holds at most {MAX_SCALE_VALUES}, so it is "
                f"left out (the scale is {low} to {kept})",
            )
        )
    return out
