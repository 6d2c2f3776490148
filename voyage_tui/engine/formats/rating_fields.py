"""The fields of a rating record, written down once: their order in a file, which are required,
and what each holds. The engine's checker (engine/ratings/records.py) reads its field lists and
its messages from here, and the JSON Schema (`RatingRecord`, formats/rating.py) is built from
here, so the two can no longer drift apart. No pydantic here: reading a ratings file imports
this module, and no command should pay for pydantic to start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PERSON = "person"
PROGRAM = "program"
RATER_KINDS = (PERSON, PROGRAM)
"""SPEC 3.11: a record with `"rater_kind": "program"` is a program's (a judge's); one without
`rater_kind`, or with `"person"`, is a person's."""


@dataclass(frozen=True, slots=True)
class RecordField:
    name: str
    annotation: Any
    """The value's type as the schema states it (a Python type for pydantic)."""
    help: str
    """What the value is, as the checker's messages say it ("the id of the fixture ...")."""
    description: str
    """The schema's description of the field."""
    required: bool = True
    default: Any = None
    constraints: Mapping[str, Any] = field(default_factory=dict)
    """pydantic `Field` constraints (`min_length`, `ge`)."""


RATING_FIELDS: tuple[RecordField, ...] = (
    RecordField(
        "fixture_id",
        str,
        "the id of the fixture whose run was rated",
        "The rated fixture's `id`.",
        constraints={"min_length": 1},
    ),
    RecordField(
        "run_id",
        str,
        "the run_id of the agent run rated",
        "The rated agent run's `run_id`.",
        constraints={"min_length": 1},
    ),
    RecordField(
        "rater",
        str,
        "the rater's name, the file's or the one its name is the slug of",
        "The rater's name; equals the file's name.",
        constraints={"min_length": 1},
    ),
    RecordField(
        "scores",
        dict[str, int] | None,
        'an object of rubric dimension -> score, like {"correctness": 4}, or null for a '
        "withdrawn rating",
        "Rubric dimension -> score, each within the dimension's scale; null for a retraction "
        "(an undo: the run is unrated again).",
    ),
    RecordField(
        "note",
        str,
        "the rater's note, text",
        "The rater's note.",
        required=False,
        default="",
    ),
    RecordField(
        "rated_at",
        str,
        "when the rating was made, ISO 8601 in UTC, like 2026-11-20T14:03:11Z",
        "ISO 8601, UTC.",
    ),
    RecordField(
        "blind",
        bool,
        "true when the agent's name was hidden from the rater, else false",
        "Whether the agent's label was hidden from the rater.",
    ),
    RecordField(
        "duration_s",
        float | None,
        "the seconds spent on the item, a number from 0 to 1,000,000,000",
        "Seconds spent on the item.",
        required=False,
        constraints={"ge": 0},
    ),
    RecordField(
        "rater_kind",
        str,
        f"who rated: {PERSON!r} (a person, the default) or {PROGRAM!r} (a judge)",
        f"{PERSON!r} (the default when absent) or {PROGRAM!r}: a program's records never count "
        "where people's do (agreement, assignment, status, disputes, results by default).",
        required=False,
        default=PERSON,
        constraints={"pattern": f"^({PERSON}|{PROGRAM})$"},
    ),
    RecordField(
        "judge",
        dict[str, Any] | None,
        'an object {"command_sha256": ..., "repeat": ...} naming the judge\'s command',
        "A program's record: the sha256 of the judge's command and the repeat (1..K).",
        required=False,
    ),
)

REQUIRED_FIELDS = tuple(f.name for f in RATING_FIELDS if f.required)
OPTIONAL_FIELDS = tuple(f.name for f in RATING_FIELDS if not f.required)
FIELDS = tuple(f.name for f in RATING_FIELDS)
"""In the documented order (docs/workspace.md, "Ratings"): the order a record is written in."""
FIELD_HELP = {f.name: f.help for f in RATING_FIELDS}
