"""The kinds of triage item, their order of urgency, and the key that names an item.

A key must survive unrelated edits: a snooze is stored by key, so a key holding a line number
would wake every snoozed item below a line someone inserted. A key is the kind, the path, the
rule code (or the exposure signals) and what the item names, never a line or a column:

    error:fixtures/refactor/x/task.yaml:invalid-enum:feature-chang
    exposed:fixtures/bug-diagnosis/h1/task.yaml:canary-leak+co-change
    low-score:fixtures/gold/jwt-auth/runs/run-empty.json
    unrated:fixtures/refactor/x/runs/run-a1.yaml:x/run-a1
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

ERROR = "error"
EXPOSED = "exposed"
LOW_SCORE = "low-score"
DRIFT = "drift"
WARNING = "warning"
UNRATED = "unrated"

KINDS: tuple[str, ...] = (ERROR, EXPOSED, LOW_SCORE, DRIFT, WARNING, UNRATED)
"""Worst first: the order of the queue."""
RANK: dict[str, int] = {kind: rank for rank, kind in enumerate(KINDS)}

_PLURALS = {ERROR: "errors", WARNING: "warnings"}
"""The kinds whose count reads as a plural noun; the others are adjectives (`2 exposed`)."""

MAX_NAME_CHARS = 80
_QUOTED = re.compile(r"`([^`]+)`")
_PAIR = re.compile(r"\(([^()]+, [^()]+)\)")
_DIGITS = re.compile(r"\d+(?:[.,_]\d+)*")
_SPACES = re.compile(r"\s+")


def count_label(kind: str, n: int) -> str:
    """`3 errors`, `1 error`, `2 low-score`, `1 exposed`."""
    return f"{n:,} {_PLURALS.get(kind, kind) if n != 1 else kind}"


def named(message: str) -> str:
    """What a diagnostic's message names: its first `quoted` text (a field, a value, an id),
    else its first `(file, rule_key)` pair; else a digest of the message with every number
    blanked, so a count or a line quoted in the text does not move the key."""
    for pattern in (_QUOTED, _PAIR):
        found = pattern.search(message)
        if found:
            name = _SPACES.sub(" ", found.group(1)).strip()
            if name:
                return name[:MAX_NAME_CHARS]
    blanked = _DIGITS.sub("#", _SPACES.sub(" ", message).strip())
    return "msg-" + hashlib.sha256(blanked.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def diagnostic_key(kind: str, path: str, code: str, message: str) -> str:
    return f"{kind}:{path}:{code}:{named(message)}"


def exposed_key(path: str, signal_kinds: Iterable[str]) -> str:
    """A new kind of signal is news about the holdout: it gives a new key, so a snooze of the
    old news does not hide it."""
    return f"{EXPOSED}:{path}:{'+'.join(sorted(set(signal_kinds))) or 'exposed'}"


def low_score_key(run_path: str) -> str:
    return f"{LOW_SCORE}:{run_path}"


def unrated_key(run_path: str, fixture_id: str, run_id: str) -> str:
    return f"{UNRATED}:{run_path}:{fixture_id}/{run_id}"


def unique(keys: Iterable[str]) -> list[str]:
    """The keys, the second and later of equal ones suffixed `#2`, `#3`: two diagnostics that
    name the same thing with the same code in one file stay two items."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return out
