"""Diagnostics are data: produced once by the engine, rendered by the CLI and the app alike."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


class Diagnostic:
    """One problem at one place. `path` is workspace-relative and `/`-separated; line and column
    are 1-based and None where the problem has no single place (a missing file, a suite rule).

    A value, immutable, compared and hashed by its six fields, as a frozen dataclass would be;
    written out because `dataclasses` (with `inspect`, `ast` and `dis`) was a tenth of every
    command's start-up, and a replay from the cache makes no other dataclass (issue 23).
    tests/engine/test_diagnostic_value.py checks each property."""

    __slots__ = ("code", "column", "line", "message", "path", "severity")
    __match_args__ = ("path", "line", "column", "severity", "code", "message")

    path: str
    line: int | None
    column: int | None
    severity: Severity
    code: str
    message: str

    def __init__(
        self,
        path: str,
        line: int | None,
        column: int | None,
        severity: Severity,
        code: str,
        message: str,
    ) -> None:
        init = object.__setattr__
        init(self, "path", path)
        init(self, "line", line)
        init(self, "column", column)
        init(self, "severity", severity)
        init(self, "code", code)
        init(self, "message", message)

    def __eq__(self, other: object) -> bool:
        if type(other) is Diagnostic:  # no class derives from it
            # the tuples written out, as the dataclass's __eq__ does: no call per comparison
            return (self.path, self.line, self.column, self.severity, self.code, self.message) == (
                other.path,
                other.line,
                other.column,
                other.severity,
                other.code,
                other.message,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.path, self.line, self.column, self.severity, self.code, self.message))

    def __repr__(self) -> str:
        return (
            f"Diagnostic(path={self.path!r}, line={self.line!r}, column={self.column!r}, "
            f"severity={self.severity!r}, code={self.code!r}, message={self.message!r})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Diagnostic is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Diagnostic is immutable")

    def __reduce__(self) -> tuple[type[Diagnostic], tuple[object, ...]]:
        # pickle (the forked check's results) and copy: made again through __init__
        return (
            Diagnostic,
            (self.path, self.line, self.column, self.severity, self.code, self.message),
        )

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
