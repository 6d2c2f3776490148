"""One line of `ratings/<rater>.jsonl`: its JSON read and its fields checked, with line numbers.

This is the part of a ratings file's validation that needs nothing but the line itself (is it
JSON, an object, are the fields there and of the right type). What needs the rubric or the suite
(dimensions, scales, which agent runs exist) is in rules.py.
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Generic, TypeVar

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic, Position
from voyage_tui.engine.formats.rating_fields import (
    FIELD_HELP,
    FIELDS,
    PERSON,
    PROGRAM,
    RATER_KINDS,
    REQUIRED_FIELDS,
)
from voyage_tui.engine.formats.schema_errors import describe
from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.loading.line_stream import (
    LINE_TOO_LONG,
    MAX_LINE_BYTES,
    MAX_LINE_PROBLEMS,
    BufferLines,
    Line,
    LineStream,
    Unlisted,
)
from voyage_tui.engine.loading.positions import PathKey, Positions
from voyage_tui.engine.suggest import hint

MAX_DURATION_S = 1_000_000_000
"""About 31 years: any time spent on one item is below it, and a float holds it exactly."""

INVALID_JSON = "rating-invalid-json"
TORN_LINE = "rating-torn-line"
MISSING_FIELD = "rating-missing-field"
WRONG_TYPE = "rating-wrong-type"
INVALID_TIME = "rating-invalid-time"
UNKNOWN_FIELD = "unknown-field"
DUPLICATE_KEY = "duplicate-key"
INVALID_UTF8 = "invalid-utf8"

_UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class LineCodes:
    """The codes of the reading problems of one JSON-lines format: each format has its own, so
    a rule table (and a filter) tells a bad rating from a bad adjudication."""

    invalid_json: str
    torn_line: str
    missing_field: str
    wrong_type: str
    invalid_time: str


RATING_CODES = LineCodes(INVALID_JSON, TORN_LINE, MISSING_FIELD, WRONG_TYPE, INVALID_TIME)


def json_line(record: Mapping[str, Any]) -> str:
    """One line of JSON, no newline. Non-ASCII text stays readable; a lone surrogate (which
    UTF-8 cannot hold) is written as its `\\uXXXX` escape instead."""
    text = json.dumps(record, ensure_ascii=False, separators=(", ", ": "))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, ensure_ascii=True, separators=(", ", ": "))
    return text


@dataclass(frozen=True, slots=True)
class Rating:
    """One record. `scores` is None for a retraction (an undo): the item is unrated again.

    `path` and `line` say where the record was read ("" and 0 for one not yet written)."""

    fixture_id: str
    run_id: str
    rater: str
    scores: Mapping[str, int] | None
    rated_at: str
    blind: bool = True
    note: str = ""
    duration_s: float | None = None
    path: str = ""
    line: int = 0
    rater_kind: str = PERSON
    """`person` or `program` (SPEC 3.11): who counts where is decided once, by the campaign
    snapshot (engine/campaign/)."""
    judge: Mapping[str, Any] | None = None
    """A program's record: its `{"command_sha256", "repeat"}`, as read."""

    @property
    def is_program(self) -> bool:
        return self.rater_kind == PROGRAM

    @property
    def run_key(self) -> tuple[str, str]:
        """(fixture_id, run_id): the agent run rated."""
        return (self.fixture_id, self.run_id)

    @property
    def key(self) -> tuple[str, str, str]:
        """(fixture_id, run_id, rater): a later record with the same key supersedes this one."""
        return (self.fixture_id, self.run_id, self.rater)

    @property
    def retracted(self) -> bool:
        return self.scores is None

    def to_json(self) -> dict[str, Any]:
        """The record as written to the file, its fields in the documented order (docs/workspace.md, "Ratings")."""
        out: dict[str, Any] = {
            "fixture_id": self.fixture_id,
            "run_id": self.run_id,
            "rater": self.rater,
            "scores": None if self.scores is None else dict(self.scores),
            "note": self.note,
            "rated_at": self.rated_at,
            "blind": self.blind,
        }
        if self.duration_s is not None:
            out["duration_s"] = self.duration_s
        if self.rater_kind != PERSON:  # a person's record has none, as it always had
            out["rater_kind"] = self.rater_kind
        if self.judge is not None:
            out["judge"] = dict(self.judge)
        return out

    def to_line(self) -> str:
        return json_line(self.to_json())


@dataclass(slots=True)
class ParsedLine:
    """A line that holds a well-formed record (every field present and of its type)."""

    rating: Rating
    positions: Positions
    """Positions inside the line's text (line 1): see `at`."""

    def at(self, path: tuple[PathKey, ...], *, key: bool = False) -> Position:
        """The file position of a key (or its value) of this record."""
        pos = self.positions.key(path) if key else self.positions.value(path)
        return (self.rating.line, pos[1]) if pos is not None else (self.rating.line, 1)


@dataclass(slots=True)
class ParsedFile:
    path: str
    lines: list[ParsedLine] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    readable: bool = True
    """False when the file as a whole could not be read (too large, a symlink out, UTF-16):
    nothing was parsed, and a rater session must not append to it."""
    line_count: int = 0
    ends_with_newline: bool = True
    foreign: Foreign = field(default_factory=lambda: Foreign())
    """The lines that are no rating record at all (see Foreign)."""

    @property
    def rater(self) -> str:
        """The rater the file belongs to: its name without `.jsonl`."""
        return rater_of_path(self.path)


@dataclass(slots=True)
class Foreign:
    """The lines of a ratings file that are not rating records at all: not text, not JSON, JSON
    other than an object, or an object with none of a record's fields (a shell script, a git
    config, someone else's JSON lines). A record with errors (a score off the scale, a missing
    field) is a record, and a line cut off by a crash (`rating-torn-line`) is not counted
    here: neither means the file is something else. A session never appends to a file with
    one such line (`refusal`)."""

    count: int = 0
    first: list[tuple[int, str]] = field(default_factory=list)
    """(line, why) of the first few."""

    SHOWN: ClassVar[int] = 3

    def add(self, line: int, why: str) -> None:
        self.count += 1
        if len(self.first) < self.SHOWN:
            self.first.append((line, why))

    def refusal(
        self, path: str, file: str = "a ratings file", record: str = "one rating"
    ) -> str | None:
        """Why a session does not write to the file `path`, or None when it may. `file` and
        `record` name what the file should be ("an adjudications file", "one adjudication")."""
        if not self.count:
            return None
        said = "; ".join(f"line {line} {why}" for line, why in self.first)
        more = self.count - len(self.first)
        if more:
            said += f" (and {more} more {'line' if more == 1 else 'lines'} like these)"
        return (
            f"{path} is not {file}: {said}. Every line of {file} is {record}, a "
            "JSON object (a line cut off by a crash aside), so nothing was written to it. "
            "Move the file aside if it is something else, or fix those lines "
            "(`voyage-tui validate` lists them)"
        )


@dataclass(slots=True)
class RatingsFile:
    """A ratings file checked against the rubric and the suite: the records that count (in file
    order) and every problem found. A record with an error does not count, as if its line were
    absent, so the rating before it stays in force."""

    path: str
    ratings: list[Rating] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    readable: bool = True
    line_count: int = 0
    ends_with_newline: bool = True
    foreign: Foreign = field(default_factory=lambda: Foreign())

    @property
    def rater(self) -> str:
        return rater_of_path(self.path)


RATINGS_SUFFIX = ".jsonl"


def rater_of_path(rel: str) -> str:
    return rel.rsplit("/", 1)[-1].removesuffix(RATINGS_SUFFIX)


def utc_now() -> str:
    """The time of a record, as the files hold it: ISO 8601, UTC, whole seconds."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 date and time in UTC (`Z` or `+00:00`), else None."""
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    if stamp.tzinfo is None or stamp.utcoffset() != timedelta(0):
        return None
    return stamp


_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)

_FIELD_HELP = FIELD_HELP


R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class LineFormat(Generic[R]):
    """A JSON-lines file of records (ratings, adjudications): what its records are called, its
    codes, the fields that make a line one of its records, and the check of one record's fields
    (None when the record does not count; each problem reported)."""

    noun: str
    """`rating`: "this line holds ..., not a rating"."""
    codes: LineCodes
    required: tuple[str, ...]
    check: Callable[[FieldCheck], R | None]
    redo: str
    """What to do about a torn line besides deleting it: "rate the run again"."""


@dataclass(slots=True)
class LinesRead(Generic[R]):
    """Every line of a JSON-lines file read: its well-formed records (with the positions of
    their keys and values inside the line) and a diagnostic for each other line."""

    path: str
    records: list[tuple[R, Positions]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    readable: bool = True
    line_count: int = 0
    ends_with_newline: bool = True
    foreign: Foreign = field(default_factory=lambda: Foreign())


def read_lines(data: bytes | LineStream, rel: str, fmt: LineFormat[R]) -> LinesRead[R]:
    """Every line of a JSON-lines file of `fmt`'s records, from its bytes (an editor's buffer)
    or a stream of the file (line_stream.open_lines: one line in memory at a time). A bad
    line, one over the line bound included, never hides the lines after it."""
    read: LinesRead[R] = LinesRead(rel)
    # A file of junk lines would make a diagnostic of each (GiB of them): the first are
    # listed, the rest counted.
    unlisted = Unlisted()
    stream: BufferLines | LineStream = BufferLines(data) if isinstance(data, bytes) else data
    for line in stream:
        if line.number == 1:
            wide = next((name for bom, name in _WIDE_BOMS if stream.head.startswith(bom)), None)
            if wide is not None:
                read.diagnostics.append(
                    dg.error(rel, (1, 1), "not-utf8", f"the file is {wide}; save it as UTF-8")
                )
                read.readable = False
                if isinstance(stream, LineStream):
                    stream.close()
                return read
        raw = line.data
        if raw is None:
            read.diagnostics.append(_too_long(rel, line, fmt))
            continue
        if line.number == 1:
            raw = raw.removeprefix(_UTF8_BOM)
        _parse_line(raw.removesuffix(b"\r"), line.number, read, fmt)
        if len(read.diagnostics) > MAX_LINE_PROBLEMS:
            unlisted.add(read.diagnostics[MAX_LINE_PROBLEMS:])
            del read.diagnostics[MAX_LINE_PROBLEMS:]
    if unlisted.count:
        read.diagnostics.append(unlisted.diagnostic(rel))
    read.line_count = stream.line_count
    read.ends_with_newline = stream.ends_with_newline
    if stream.problem is not None:
        # Stopped part-way (the file grew past its bound, a read failed): what was read is
        # not the file, so nothing of it counts and nothing is appended to it.
        read.records.clear()
        read.diagnostics.append(stream.problem)
        read.readable = False
    return read


def _too_long(rel: str, line: Line, fmt: LineFormat[Any]) -> Diagnostic:
    return dg.error(
        rel,
        (line.number, 1),
        LINE_TOO_LONG,
        f"this line has {line.length:,} bytes, over the bound of {MAX_LINE_BYTES:,} for one "
        f"line; it was not read (no {fmt.noun} is that long). It is ignored; delete the line",
    )


def parse_ratings(data: bytes | LineStream, rel: str) -> ParsedFile:
    """Every line of a ratings file: its well-formed records and a diagnostic for each other
    line. A bad line never hides the lines after it."""
    read = read_lines(data, rel, RATING_FORMAT)
    return ParsedFile(
        rel,
        lines=[ParsedLine(rating, positions) for rating, positions in read.records],
        diagnostics=read.diagnostics,
        readable=read.readable,
        line_count=read.line_count,
        ends_with_newline=read.ends_with_newline,
        foreign=read.foreign,
    )


def _parse_line(raw: bytes, number: int, read: LinesRead[R], fmt: LineFormat[R]) -> None:
    rel, out = read.path, read.diagnostics
    if not raw.strip():
        return
    if not raw.strip(b"\x00 \t"):
        out.append(_torn(rel, number, "holds only NUL bytes", fmt))
        return
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
        bad = raw[exc.start : exc.start + 1].hex()
        out.append(
            dg.error(
                rel,
                (number, column),
                INVALID_UTF8,
                f"byte 0x{bad} is not valid UTF-8; this record is ignored until the line is fixed",
            )
        )
        # A record with one byte of another encoding (a note saved as Latin-1) is still a
        # record; bytes that are not even that are something else.
        replaced = raw.decode("utf-8", "replace")
        if not _cut_off(replaced) and not _record_like(load_json(replaced, rel), fmt):
            read.foreign.add(number, "is not text (UTF-8)")
        return
    doc = load_json(text, rel)
    if not doc.ok:
        if _cut_off(text):
            out.append(_torn(rel, number, "is a record cut off before its end", fmt))
            return
        read.foreign.add(number, "is not JSON")
        first = doc.diagnostics[0] if doc.diagnostics else None
        reason = first.message if first is not None else "not valid JSON"
        column = first.column if first is not None and first.column is not None else 1
        out.append(
            dg.error(
                rel,
                (number, column),
                fmt.codes.invalid_json,
                f"{reason}; each line holds one record, a JSON object. This record is ignored "
                "until the line is fixed",
            )
        )
        return
    usable = True
    for problem in doc.diagnostics:  # duplicate keys: JSON readers keep one of them silently
        out.append(_moved(problem, number))
        usable = usable and problem.severity is not dg.Severity.ERROR
    if not isinstance(doc.data, dict):
        read.foreign.add(number, f"holds {_json_kind(doc.data)}, not a {fmt.noun}")
        out.append(
            dg.error(
                rel,
                (number, 1),
                fmt.codes.invalid_json,
                f"this line holds {describe(doc.data, json=True)}; each line holds one record, a "
                'JSON object like {"fixture_id": ..., "run_id": ..., "scores": {...}}',
            )
        )
        return
    if not _record_like(doc, fmt):
        read.foreign.add(number, f"is a JSON object with none of the fields of a {fmt.noun}")
    before = len(out)
    record = fmt.check(FieldCheck(doc.data, number, rel, doc.positions, out, fmt.codes))
    if any(d.severity is dg.Severity.ERROR for d in out[before:]):
        record = None
    if record is not None and usable:
        read.records.append((record, doc.positions))


def _json_kind(value: Any) -> str:
    """What a JSON value is, without any of its text (a refusal names no content of the file)."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool) or value is None:
        return "true, false or null"
    return "a number"


def _record_like(doc: Any, fmt: LineFormat[Any]) -> bool:
    """Whether a line's JSON is an object holding at least one field of `fmt`'s records."""
    data = doc.data if doc.ok else None
    return isinstance(data, dict) and any(name in data for name in fmt.required)


def _moved(problem: Diagnostic, number: int) -> Diagnostic:
    """A diagnostic of the line's own JSON document, placed at the line in the file."""
    return dg.make(
        problem.path, (number, problem.column or 1), problem.severity, problem.code, problem.message
    )


def _torn(rel: str, number: int, what: str, fmt: LineFormat[Any]) -> Diagnostic:
    return dg.warning(
        rel,
        (number, 1),
        fmt.codes.torn_line,
        f"this line {what}: what a session killed while saving leaves behind. It is ignored (the "
        f"{fmt.noun} it held was not saved); delete the line, or {fmt.redo}",
    )


def _cut_off(text: str) -> bool:
    """The line opens an object and ends before closing it (inside a string or not): a record
    whose write stopped part-way, not one written wrong."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return False
    depth, in_string, escaped = 0, False, False
    for char in stripped:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth <= 0:
                return False
    return True


@dataclass(slots=True)
class FieldCheck:
    """The fields of one line's JSON object, checked one kind at a time: each check reports
    at the key or value it is about, with the format's own codes. A format's `check` calls the
    ones its fields need (the shared fields read alike in every format)."""

    obj: dict[str, Any]
    number: int
    rel: str
    positions: Positions
    out: list[Diagnostic]
    codes: LineCodes

    def at(self, *path: PathKey, key: bool = False) -> Position:
        pos = self.positions.key(path) if key else self.positions.value(path)
        return (self.number, pos[1]) if pos is not None else (self.number, 1)

    def wrong(self, path: tuple[PathKey, ...], message: str) -> None:
        self.out.append(dg.error(self.rel, self.at(*path), self.codes.wrong_type, message))

    def required(self, names: tuple[str, ...], helps: Mapping[str, str]) -> None:
        for name in names:
            if name not in self.obj:
                self.out.append(
                    dg.error(
                        self.rel,
                        (self.number, 1),
                        self.codes.missing_field,
                        f"this record has no `{name}`: {helps[name]}. It is ignored until "
                        "the field is added",
                    )
                )

    def known(self, fields: tuple[str, ...], noun: str) -> None:
        for name in self.obj:
            if name not in fields:
                self.out.append(
                    dg.warning(
                        self.rel,
                        self.at(name, key=True),
                        UNKNOWN_FIELD,
                        f"`{name}` is not a field of a {noun} record{hint(name, fields)}; it is "
                        "ignored",
                    )
                )

    def texts(self, names: tuple[str, ...], helps: Mapping[str, str]) -> None:
        """Each of `names` (when present) non-blank text."""
        for name in names:
            value = self.obj.get(name)
            if name in self.obj and not (isinstance(value, str) and value.strip()):
                what = "blank" if isinstance(value, str) else describe(value, json=True)
                self.wrong((name,), f"`{name}` must be {helps[name]} (text), not {what}")

    def scores(self, helps: Mapping[str, str], withdraw: str) -> Mapping[str, int] | None:
        """`scores`: an object of whole numbers, not empty, or null (None then, as when it is
        wrong: the caller reads `failed`)."""
        scores = self.obj.get("scores")
        if isinstance(scores, dict):
            if not scores:
                self.wrong(
                    ("scores",),
                    f"`scores` is empty: give each dimension's score, or write null to {withdraw}",
                )
            for dimension, score in scores.items():
                if type(score) is not int:
                    self.wrong(
                        ("scores", dimension),
                        f"the score of `{dimension}` must be a whole number, not "
                        f"{describe(score, json=True)}",
                    )
            return scores
        if scores is not None:
            self.wrong(
                ("scores",),
                f"`scores` must be {helps['scores']}; not {describe(scores, json=True)}",
            )
        return None

    def note(self) -> str:
        note = self.obj.get("note", "")
        if not isinstance(note, str):
            self.wrong(("note",), f"`note` must be text, not {describe(note, json=True)}")
            return ""
        return note

    def time(self, name: str, helps: Mapping[str, str]) -> None:
        """`name` (when present) an ISO 8601 time in UTC."""
        value = self.obj.get(name)
        if isinstance(value, str):
            if parse_time(value) is None:
                self.out.append(
                    dg.error(
                        self.rel,
                        self.at(name),
                        self.codes.invalid_time,
                        f"`{name}` is {value!r}; write {helps[name]}",
                    )
                )
        elif name in self.obj:
            self.wrong(
                (name,),
                f"`{name}` must be text, {helps[name]}; not {describe(value, json=True)}",
            )

    def errors_since(self, before: int) -> bool:
        return any(d.severity is dg.Severity.ERROR for d in self.out[before:])


def _check_rating(check: FieldCheck) -> Rating | None:
    """The record, or None when a field is missing or of the wrong type (each one reported)."""
    obj, before = check.obj, len(check.out)
    check.required(REQUIRED_FIELDS, _FIELD_HELP)
    check.known(FIELDS, "rating")
    check.texts(("fixture_id", "run_id", "rater"), _FIELD_HELP)
    scores = check.scores(_FIELD_HELP, "withdraw the rating")
    note = check.note()
    check.time("rated_at", _FIELD_HELP)
    blind = obj.get("blind")
    if "blind" in obj and not isinstance(blind, bool):
        check.wrong(("blind",), f"`blind` must be true or false, not {describe(blind, json=True)}")
    duration = obj.get("duration_s")
    if duration is not None and not (
        isinstance(duration, (int, float))
        and not isinstance(duration, bool)
        # bounded before anything converts it: math.isfinite (and any mean of it) turns an int
        # into a float, which raises OverflowError past 1e308; NaN fails the comparison
        and 0 <= duration <= MAX_DURATION_S
        and math.isfinite(duration)
    ):
        check.wrong(
            ("duration_s",),
            f"`duration_s` must be {_FIELD_HELP['duration_s']}, not "
            f"{describe(duration, json=True)}",
        )
    kind = obj.get("rater_kind", PERSON)
    if kind not in RATER_KINDS:
        check.wrong(
            ("rater_kind",),
            f"`rater_kind` must be {_FIELD_HELP['rater_kind']}, not {describe(kind, json=True)}",
        )
    judge = obj.get("judge")
    if judge is not None and not isinstance(judge, dict):
        check.wrong(
            ("judge",),
            f"`judge` must be {_FIELD_HELP['judge']}, not {describe(judge, json=True)}",
        )
    if check.errors_since(before):
        return None
    return Rating(
        fixture_id=obj["fixture_id"],
        run_id=obj["run_id"],
        rater=obj["rater"],
        scores=None if scores is None else dict(scores),
        rated_at=obj["rated_at"],
        blind=obj["blind"],
        note=note,
        duration_s=None if duration is None else float(duration),
        path=check.rel,
        line=check.number,
        rater_kind=kind,
        judge=judge,
    )


RATING_FORMAT: LineFormat[Rating] = LineFormat(
    "rating", RATING_CODES, REQUIRED_FIELDS, _check_rating, "rate the run again"
)
