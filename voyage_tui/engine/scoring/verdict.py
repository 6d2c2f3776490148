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
    # Only a text severity can name BLOCKER or MAJOR; anything else counts as no severity.
    return verdict_of_severities(
        severity
        for f in findings
        if isinstance(f, Mapping) and isinstance(severity := f.get("severity"), str)
    )
