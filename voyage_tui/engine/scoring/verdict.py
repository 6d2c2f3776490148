"""computeVerdict: any BLOCKER -> BLOCK, else any MAJOR -> WARN, else ALLOW."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def verdict_of_severities(severities: Iterable[str]) -> str:
    seen = set(severities)
    if "BLOCKER" in seen:
        return "BLOCK"
    if "MAJOR" in seen:
        return "WARN"
    return "ALLOW"


def compute_verdict(findings: Iterable[Mapping[str, Any]]) -> str:
    """The coordinator's Pass-4 verdict over findings (mappings with a `severity`)."""
    return verdict_of_severities(
        f.get("severity")
        for f in findings
        if isinstance(f, Mapping)  # type: ignore[misc]
    )
