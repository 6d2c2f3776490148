"""A harness's score as a number, the way Inspect AI's `value_to_float` reads one.

Inspect's letter grades: C (correct) = 1, I (incorrect) = 0, P (partial) = 0.5, N (no
answer) = 0; booleans 1/0; "yes"/"true" 1 and "no"/"false" 0; a number, or a string holding
one, as it is. A dict score (several values) gives `name/key` for each of its numbers. Anything
else (a list, free text) has no number and is left out of the outcome, but kept in `scores`.
"""

from __future__ import annotations

import math
from typing import Any

_LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
_WORDS = {"yes": 1.0, "true": 1.0, "no": 0.0, "false": 0.0}


def to_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        text = value.strip()
        if text in _LETTERS:
            return _LETTERS[text]
        if text.lower() in _WORDS:
            return _WORDS[text.lower()]
        try:
            number = float(text)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def outcome_of(scores: dict[str, Any]) -> dict[str, float]:
    """`{score name: number}` from `{score name: value}`."""
    out: dict[str, float] = {}
    for name, value in scores.items():
        if isinstance(value, dict):
            for key, inner in value.items():
                number = to_number(inner)
                if number is not None:
                    out[f"{name}/{key}"] = number
            continue
        number = to_number(value)
        if number is not None:
            out[str(name)] = number
    return out
