"""Assertions on validation results."""

from __future__ import annotations

import ast
import functools
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


# Several tests scan the package's own sources (the codes it gives, who imports what). Each parsed
# every file again, and in the whole run that was thousands of parses and millions of walked
# nodes; a worker now parses each file once. Keyed by the file's mtime too, so a source edited
# while the tests run is parsed again.
def source_nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a Python file's syntax tree, in `ast.walk` order."""
    return _nodes(path, path.stat().st_mtime_ns)


def string_constants(path: Path) -> tuple[str, ...]:
    """Every string constant of a Python file, docstrings included, in `ast.walk` order."""
    return _strings(path, path.stat().st_mtime_ns)


@functools.cache
def _nodes(path: Path, mtime_ns: int) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))))


@functools.cache
def _strings(path: Path, mtime_ns: int) -> tuple[str, ...]:
    return tuple(
        node.value
        for node in _nodes(path, mtime_ns)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
