"""The adjudications file (SPEC 3.9, docs/workspace.md "Adjudications"): the final scores a lead
gives a disputed item, read and checked with line numbers, the adjudication in force per item,
and the durable append of one record.

`adjudications.jsonl` (`Workspace.adjudications_rel`) holds one JSON object per line, read by
the same line reader and field checks as a ratings file (records.py `read_lines`, rules.py
`rubric_scores` and `unknown_run`), with codes of its own. The file is append-only; the
adjudication in force for an item is its latest record that counts, in file order, unless that
record is a retraction (`scores: null`). An adjudication in force whose `based_on` names a
rating that is no longer that rater's rating in force for the item (superseded or withdrawn
since) is stale: a warning, the scores still count.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.atomic import ContentChanged, Expected, WriteRefused
from voyage_tui.engine.diagnostics import Diagnostic, Position
from voyage_tui.engine.formats.schema_errors import describe
from voyage_tui.engine.loading.line_stream import LineStream
from voyage_tui.engine.loading.positions import PathKey, Positions
from voyage_tui.engine.ratings.records import (
    FieldCheck,
    Foreign,
    LineCodes,
    LineFormat,
    Rating,
    json_line,
    parse_time,
    read_lines,
)
from voyage_tui.engine.ratings.rules import Locate, ScoreCodes, rubric_scores, unknown_run
from voyage_tui.engine.ratings.runs import RunIndex, RunKey
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import append_line, write_file

INVALID_JSON = "adjudication-invalid-json"
TORN_LINE = "adjudication-torn-line"
MISSING_FIELD = "adjudication-missing-field"
WRONG_TYPE = "adjudication-wrong-type"
INVALID_TIME = "adjudication-invalid-time"
BAD_BASED_ON = "adjudication-bad-based-on"
UNKNOWN_DIMENSION = "adjudication-unknown-dimension"
SCORE_OUT_OF_SCALE = "adjudication-score-out-of-scale"
UNKNOWN_RUN = "adjudication-unknown-run"
STALE = "adjudication-stale"

CODES = LineCodes(INVALID_JSON, TORN_LINE, MISSING_FIELD, WRONG_TYPE, INVALID_TIME)
REQUIRED_FIELDS = ("fixture_id", "run_id", "adjudicator", "scores", "rated_at")
OPTIONAL_FIELDS = ("based_on", "note")
FIELDS = REQUIRED_FIELDS + OPTIONAL_FIELDS
MAX_BASED_ON = 1000
"""More ratings than any item has: a longer list is no list of ratings seen."""

_FIELD_HELP = {
    "fixture_id": "the id of the fixture whose run was adjudicated",
    "run_id": "the run_id of the agent run adjudicated",
    "adjudicator": "the name of who settled the scores",
    "scores": 'an object of rubric dimension -> final score, like {"correctness": 4}, or null '
    "for a withdrawn adjudication",
    "rated_at": "when the adjudication was made, ISO 8601 in UTC, like 2026-11-20T14:03:11Z",
    "based_on": 'the ratings shown, a list like [{"rater": "ann", "rated_at": '
    '"2026-11-20T14:03:11Z"}]',
    "note": "the adjudicator's note, text",
}


@dataclass(frozen=True, slots=True)
class BasedOn:
    """A rating the adjudicator was shown: its rater and its `rated_at`."""

    rater: str
    rated_at: str

    @classmethod
    def of(cls, rating: Rating) -> BasedOn:
        return cls(rating.rater, rating.rated_at)


@dataclass(frozen=True, slots=True)
class Adjudication:
    """One record. `scores` is None for a retraction (an undo). `path` and `line` say where the
    record was read ("" and 0 for one not yet written)."""

    fixture_id: str
    run_id: str
    adjudicator: str
    scores: Mapping[str, int] | None
    rated_at: str
    based_on: tuple[BasedOn, ...] = ()
    note: str = ""
    path: str = ""
    line: int = 0

    @property
    def run_key(self) -> RunKey:
        return (self.fixture_id, self.run_id)

    @property
    def retracted(self) -> bool:
        return self.scores is None

    def to_json(self) -> dict[str, Any]:
        """The record as written, its fields in the documented order."""
        return {
            "fixture_id": self.fixture_id,
            "run_id": self.run_id,
            "adjudicator": self.adjudicator,
            "scores": None if self.scores is None else dict(self.scores),
            "based_on": [{"rater": b.rater, "rated_at": b.rated_at} for b in self.based_on],
            "note": self.note,
            "rated_at": self.rated_at,
        }

    def to_line(self) -> str:
        """One line of JSON, no newline, written as a rating's is."""
        return json_line(self.to_json())


@dataclass(slots=True)
class AdjudicationsFile:
    """The adjudications file checked: the records that count (file order) and every problem.
    A record with an error does not count, as if its line were absent."""

    path: str
    records: list[Adjudication] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    readable: bool = True
    """False when the file as a whole could not be read: nothing may be appended to it."""
    line_count: int = 0
    ends_with_newline: bool = True
    foreign: Foreign = field(default_factory=lambda: Foreign())

    def latest(self) -> dict[RunKey, Adjudication]:
        """The last record per item, retractions included."""
        out: dict[RunKey, Adjudication] = {}
        for record in self.records:
            out[record.run_key] = record
        return out

    def effective(self) -> dict[RunKey, Adjudication]:
        """The adjudication in force per item: its last record, unless it is a retraction."""
        return {pair: a for pair, a in self.latest().items() if a.scores is not None}

    def in_force(self) -> dict[RunKey, dict[str, int]]:
        """Item -> its final scores, for effective.item_scores."""
        return {pair: dict(a.scores or {}) for pair, a in self.effective().items()}

    def refusal(self) -> str | None:
        """Why nothing may be appended to the file, or None when it may."""
        if not self.readable:
            first = self.diagnostics[0].message if self.diagnostics else "it cannot be read"
            return f"{self.path} cannot be read ({first}); nothing was written to it"
        return self.foreign.refusal(self.path, "an adjudications file", "one adjudication")


# --- reading -------------------------------------------------------------------------------


def _check_record(check: FieldCheck) -> Adjudication | None:
    obj, before = check.obj, len(check.out)
    check.required(REQUIRED_FIELDS, _FIELD_HELP)
    check.known(FIELDS, "adjudication")
    check.texts(("fixture_id", "run_id", "adjudicator"), _FIELD_HELP)
    scores = check.scores(_FIELD_HELP, "withdraw the adjudication")
    note = check.note()
    check.time("rated_at", _FIELD_HELP)
    based_on = _based_on(check)
    if check.errors_since(before):
        return None
    return Adjudication(
        fixture_id=obj["fixture_id"],
        run_id=obj["run_id"],
        adjudicator=obj["adjudicator"],
        scores=None if scores is None else dict(scores),
        rated_at=obj["rated_at"],
        based_on=based_on,
        note=note,
        path=check.rel,
        line=check.number,
    )


def _based_on(check: FieldCheck) -> tuple[BasedOn, ...]:
    """`based_on`: a list of {rater, rated_at}; each problem a `adjudication-bad-based-on`."""
    value = check.obj.get("based_on", [])

    def bad(path: tuple[PathKey, ...], what: str) -> None:
        check.out.append(
            dg.error(
                check.rel,
                check.at(*path),
                BAD_BASED_ON,
                f"{what}; `based_on` is {_FIELD_HELP['based_on']}. This record does not count "
                "until it is fixed",
            )
        )

    if not isinstance(value, list):
        bad(("based_on",), f"`based_on` is {describe(value, json=True)}")
        return ()
    if len(value) > MAX_BASED_ON:
        bad(
            ("based_on",), f"`based_on` lists {plural(len(value), 'rating')}, over {MAX_BASED_ON:,}"
        )
        return ()
    out: list[BasedOn] = []
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            bad(("based_on", index), f"entry {index + 1} is {describe(entry, json=True)}")
            continue
        rater, rated_at = entry.get("rater"), entry.get("rated_at")
        extra = sorted(set(entry) - {"rater", "rated_at"})
        if not (isinstance(rater, str) and rater.strip()):
            where: tuple[PathKey, ...] = (
                ("based_on", index, "rater")
                if "rater" in entry
                else (
                    "based_on",
                    index,
                )
            )
            bad(where, f"entry {index + 1} has no rater's name (`rater`, text)")
        elif not (isinstance(rated_at, str) and parse_time(rated_at) is not None):
            where = ("based_on", index, "rated_at") if "rated_at" in entry else ("based_on", index)
            bad(where, f"entry {index + 1} has no `rated_at` in UTC, like 2026-11-20T14:03:11Z")
        elif extra:
            bad(("based_on", index, extra[0]), f"entry {index + 1} has `{extra[0]}` too")
        else:
            out.append(BasedOn(rater, rated_at))
    return tuple(out)


FORMAT: LineFormat[Adjudication] = LineFormat(
    "adjudication", CODES, REQUIRED_FIELDS, _check_record, "adjudicate the item again"
)


def parse_adjudications(
    data: bytes | LineStream,
    rel: str,
    rubric: Rubric,
    runs: RunIndex | None = None,
    in_force: Mapping[tuple[str, str, str], Rating] | None = None,
) -> AdjudicationsFile:
    """Check the bytes of an adjudications file: each line, its dimensions and scales against
    the rubric, its items against `runs` (when given) and, with the raters' ratings in force
    (`RatingStore.effective()`), whether the adjudications in force are stale."""
    read = read_lines(data, rel, FORMAT)
    checked = AdjudicationsFile(
        rel,
        diagnostics=list(read.diagnostics),
        readable=read.readable,
        line_count=read.line_count,
        ends_with_newline=read.ends_with_newline,
        foreign=read.foreign,
    )
    where: dict[int, Positions] = {}
    for record, positions in read.records:
        problems: list[Diagnostic] = []
        at = _locate(record.line, positions)
        if record.scores is not None:
            scores = rubric_scores(
                record.scores,
                rubric,
                rel,
                at,
                problems,
                ScoreCodes(UNKNOWN_DIMENSION, SCORE_OUT_OF_SCALE),
            )
            if list(scores) != list(record.scores):
                record = replace(record, scores=scores)
        if runs is not None and record.run_key not in runs:
            problems.append(unknown_run(rel, record.run_key, at, runs, UNKNOWN_RUN, None))
        checked.diagnostics.extend(problems)
        if not any(p.severity is dg.Severity.ERROR for p in problems):
            checked.records.append(record)
            where[record.line] = positions
    if in_force is not None:
        for adjudication in checked.effective().values():
            positions = where[adjudication.line]
            checked.diagnostics.extend(_stale(adjudication, positions, in_force))
    checked.diagnostics.sort(key=Diagnostic.sort_key)
    return checked


def _locate(line: int, positions: Positions) -> Locate:
    def at(path: tuple[PathKey, ...], *, key: bool = False) -> Position:
        pos = positions.key(path) if key else positions.value(path)
        return (line, pos[1]) if pos is not None else (line, 1)

    return at


def _stale(
    adjudication: Adjudication,
    positions: Positions,
    in_force: Mapping[tuple[str, str, str], Rating],
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    at = _locate(adjudication.line, positions)
    for index, seen in enumerate(adjudication.based_on):
        rating = in_force.get((adjudication.fixture_id, adjudication.run_id, seen.rater))
        if rating is not None and parse_time(rating.rated_at) == parse_time(seen.rated_at):
            continue
        now = (
            f"{seen.rater} has no rating of it in force now (withdrawn, or never recorded)"
            if rating is None
            else f"{seen.rater} rated it again at {rating.rated_at}"
        )
        out.append(
            dg.warning(
                adjudication.path,
                at(("based_on", index)),
                STALE,
                f"this adjudication of `{adjudication.fixture_id}` / `{adjudication.run_id}` "
                f"was based on {seen.rater}'s rating of {seen.rated_at}, and {now}; its scores "
                "still count. Adjudicate the item again if the new rating changes the picture",
            )
        )
    return out


def load_adjudications(
    ws: Workspace,
    rubric: Rubric,
    runs: RunIndex | None = None,
    in_force: Mapping[tuple[str, str, str], Rating] | None = None,
    *,
    data: bytes | None = None,
) -> AdjudicationsFile:
    """Read (bounded, no symlink out of the workspace) and check the workspace's adjudications
    file; a missing file is an empty one. Without `runs` the items are not checked against the
    suite; without `in_force` (the ratings in force) staleness is not checked."""
    rel = ws.adjudications_rel
    if data is None:
        if not os.path.lexists(ws.abs(rel)):
            return AdjudicationsFile(rel)
        source = ws.open_lines(rel)
        if isinstance(source, Diagnostic):
            return AdjudicationsFile(rel, diagnostics=[source], readable=False)
        return parse_adjudications(source, rel, rubric, runs, in_force)
    return parse_adjudications(data, rel, rubric, runs, in_force)


# --- writing -------------------------------------------------------------------------------


def append_adjudication(ws: Workspace, record: Adjudication) -> Adjudication:
    """Append `record` durably (write, flush, fsync) to the adjudications file, made when
    missing; a last line left without its newline by a crash is ended first. Refuses (raises
    WriteRefused) a file that cannot be read or holds lines that are no adjudications, and, as
    every write, a symlink out of the workspace. Returns the record with its path and line."""
    rel = ws.adjudications_rel
    full = ws.abs(rel)
    if not os.path.lexists(full):
        with contextlib.suppress(ContentChanged):  # made meanwhile: append to it all the same
            write_file(ws, rel, b"", expect=Expected(None), make_folders=True)
    source = ws.open_lines(rel)
    if isinstance(source, Diagnostic):
        raise WriteRefused(rel, f"{rel}: {source.message}; nothing was written to it")
    lines = read_lines(source, rel, FORMAT)
    refusal = (
        lines.foreign.refusal(rel, "an adjudications file", "one adjudication")
        if lines.readable
        else f"{rel} is not UTF-8; nothing was written to it"
    )
    if refusal is not None:
        raise WriteRefused(rel, refusal)
    line = record.to_line()
    if not lines.ends_with_newline:
        line = "\n" + line
    append_line(ws, rel, line)
    return replace(record, path=rel, line=lines.line_count + 1)
