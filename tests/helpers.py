"""Assertions on validation results."""

from __future__ import annotations

from pathlib import Path

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.validation.suite import Suite


def validate(root: Path, *, use_git: bool = False) -> list[Diagnostic]:
    return Suite.open(root, use_git=use_git).diagnostics()


def codes(diagnostics: list[Diagnostic], path: str | None = None) -> list[str]:
    return [d.code for d in diagnostics if path is None or d.path == path]


def only(diagnostics: list[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, f"expected one {code}, got {[(d.code, d.message) for d in diagnostics]}"
    return found[0]
