"""Diagnostics are data: produced once by the engine, rendered by the CLI and the app alike."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem at one place. `path` is workspace-relative and `/`-separated; line and column
    are 1-based and None where the problem has no single place (a missing file, a suite rule)."""

    path: str
    line: int | None
    column: int | None
    severity: Severity
    code: str
    message: str

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.path, self.line or 0, self.column or 0, self.severity.rank, self.code)

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
        }

    def location(self) -> str:
        if self.line is None:
            return self.path
        if self.column is None:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.column}"


Position = tuple[int, int] | None
"""A 1-based (line, column), or None where no place exists."""


def make(path: str, pos: Position, severity: Severity, code: str, message: str) -> Diagnostic:
    line, column = pos if pos is not None else (None, None)
    return Diagnostic(path, line, column, severity, code, message)


def error(path: str, pos: Position, code: str, message: str) -> Diagnostic:
    return make(path, pos, Severity.ERROR, code, message)


def warning(path: str, pos: Position, code: str, message: str) -> Diagnostic:
    return make(path, pos, Severity.WARNING, code, message)


def info(path: str, pos: Position, code: str, message: str) -> Diagnostic:
    return make(path, pos, Severity.INFO, code, message)


def count(diagnostics: Iterable[Diagnostic]) -> dict[Severity, int]:
    counts = {Severity.ERROR: 0, Severity.WARNING: 0, Severity.INFO: 0}
    for d in diagnostics:
        counts[d.severity] += 1
    return counts
