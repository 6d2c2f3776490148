"""The short label of each rater in a table of pairs, decided once for every face (the
agreement screen's columns and `voyage-tui agreement`'s rows both ask here, so a pair is called
the same everywhere).

A pair column or row names two raters, so two long names (`Firstname Lastname` and
`Firstname Lastname-Other`) cut to fit a column come out the same. While every name is short
the names themselves are the labels; otherwise every rater gets their initials (`FL`, `FLO`,
`FO`), made unique with a number where two share them, and a face shows the legend (`legend`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

SHORT_NAME = 8
"""Names up to this many characters are their own labels (`alice · carol` reads better than
`A · C`, and three such pairs fit 80 columns)."""
MAX_INITIALS = 4
"""Initials taken from a name of many words."""

_WORDS = re.compile(r"[^\W_]+")
"""A word of a name: letters and digits (spaces, dashes, dots and underscores part them)."""


@dataclass(frozen=True, slots=True)
class RaterLabels:
    labels: dict[str, str]
    """Each rater's label, in the order given (the raters sorted, as a report lists them)."""

    @property
    def abbreviated(self) -> bool:
        """Whether some label is not the rater's name (a face then shows the legend)."""
        return any(label != name for name, label in self.labels.items())

    def of(self, rater: str) -> str:
        """`rater`'s label (a name the report does not list is its own label)."""
        return self.labels.get(rater, rater)

    def pair(self, raters: tuple[str, str], sep: str = " · ") -> str:
        return f"{self.of(raters[0])}{sep}{self.of(raters[1])}"

    @property
    def legend(self) -> list[tuple[str, str]]:
        """(label, name) of each rater, in the raters' order."""
        return [(label, name) for name, label in self.labels.items()]


def rater_labels(raters: Iterable[str]) -> RaterLabels:
    """The labels of `raters` (see the module's note)."""
    names = list(dict.fromkeys(raters))
    if all(len(name) <= SHORT_NAME for name in names):
        return RaterLabels({name: name for name in names})
    wanted = {name: _initials(name) for name in names}
    shared: dict[str, int] = {}
    for initials in wanted.values():
        shared[initials] = shared.get(initials, 0) + 1
    used: set[str] = set()
    labels: dict[str, str] = {}
    counter: dict[str, int] = {}
    for name in names:
        base = wanted[name]
        label = base
        if shared[base] > 1 or label in used:
            # `A1`, `A2`: in the raters' order, past any label another rater already has
            while True:
                counter[base] = counter.get(base, 0) + 1
                label = f"{base}{counter[base]}"
                if label not in used and label not in shared:
                    break
        used.add(label)
        labels[name] = label
    return RaterLabels(labels)


def _initials(name: str) -> str:
    words = _WORDS.findall(name)
    initials = "".join(word[0] for word in words[:MAX_INITIALS]).upper()
    return initials or "?"
