"""A Diagnostic is a value, as the frozen dataclass it was: built by position or keyword,
compared and hashed by its six fields, immutable, printed the same way, and carried whole
through pickle (the forked check's results) and copy. It is written out by hand so that a replay
from the cache imports no `dataclasses` (issue 23): these pin each property against a frozen
dataclass of the same fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import re
from pathlib import Path

import pytest

import voyage_tui
from voyage_tui.engine.diagnostics import Diagnostic, Severity


@dataclasses.dataclass(frozen=True, slots=True)
class Reference:
    path: str
    line: int | None
    column: int | None
    severity: Severity
    code: str
    message: str


FIELDS = ("fixtures/a/task.yaml", 3, 7, Severity.WARNING, "unknown-field", "unknown field `x`")


def test_built_by_position_or_keyword() -> None:
    by_keyword = Diagnostic(
        path=FIELDS[0],
        line=FIELDS[1],
        column=FIELDS[2],
        severity=FIELDS[3],
        code=FIELDS[4],
        message=FIELDS[5],
    )
    d = Diagnostic(*FIELDS)
    assert by_keyword == d
    assert (d.path, d.line, d.column, d.severity, d.code, d.message) == FIELDS
    with pytest.raises(TypeError):
        Diagnostic(*FIELDS[:5])  # type: ignore[call-arg]  # every field is required


def test_equal_and_hashed_by_its_fields_as_the_dataclass() -> None:
    d = Diagnostic(*FIELDS)
    assert d == Diagnostic(*FIELDS)
    assert hash(d) == hash(Diagnostic(*FIELDS)) == hash(Reference(*FIELDS))
    for index in range(len(FIELDS)):
        other = list(FIELDS)
        other[index] = None if index in (1, 2) else "other"
        assert d != Diagnostic(*other)
    assert d != FIELDS  # not a tuple
    assert d != Reference(*FIELDS)  # nor another class with the same fields
    assert len({d, Diagnostic(*FIELDS), Diagnostic(*FIELDS[:5], "other")}) == 2


def test_printed_as_the_dataclass() -> None:
    assert repr(Diagnostic(*FIELDS)) == repr(Reference(*FIELDS)).replace(
        "Reference(", "Diagnostic(", 1
    )


def test_immutable_and_without_a_dict() -> None:
    d = Diagnostic(*FIELDS)
    with pytest.raises(AttributeError):
        d.line = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del d.message  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d.extra = 1  # type: ignore[attr-defined]
    assert not hasattr(d, "__dict__")
    assert d == Diagnostic(*FIELDS)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickled_and_copied_whole(protocol: int) -> None:
    d = Diagnostic(*FIELDS)
    back = pickle.loads(pickle.dumps(d, protocol=protocol))
    assert back == d and type(back) is Diagnostic and back.severity is Severity.WARNING
    assert copy.copy(d) == d and copy.deepcopy(d) == d
    assert pickle.loads(pickle.dumps([d, (d,)], protocol=protocol)) == [d, (d,)]


def test_matched_by_position() -> None:
    match Diagnostic(*FIELDS):
        case Diagnostic(path, line, column, severity, code, message):
            assert (path, line, column, severity, code, message) == FIELDS
        case _:
            pytest.fail("no match")


def test_no_class_derives_from_it() -> None:
    # __eq__ compares `type(other) is Diagnostic`: a subclass would need the dataclass's
    # `other.__class__ is self.__class__` instead
    package = Path(voyage_tui.__file__).parent
    base = re.compile(r"^\s*class \w+\([^)]*\bDiagnostic\b", re.MULTILINE)
    derived = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if base.search(path.read_text(encoding="utf-8"))
    ]
    assert derived == []
    # the search finds one
    assert base.search("class Located(dg.Diagnostic):\n")
