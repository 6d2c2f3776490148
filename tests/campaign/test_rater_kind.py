"""A rating record's rater kind (SPEC 3.11): a program's records say `"rater_kind": "program"`,
a person's say nothing (or `"person"`); anything else is an error of that record. The record's
fields are written down once (formats/rating_fields.py): the checker and the schema agree."""

from __future__ import annotations

from tests.ratings.common import jsonl, record
from voyage_tui.engine.formats.rating import RatingRecord
from voyage_tui.engine.formats.rating_fields import RATING_FIELDS
from voyage_tui.engine.ratings.records import FIELDS, parse_ratings

JUDGE = {"command_sha256": "ab" * 32, "repeat": 1}


def test_a_programs_record_is_read_as_a_programs_and_a_persons_as_a_persons():
    data = jsonl(
        record(),
        record(rater="gpt-judge", rater_kind="program", judge=JUDGE),
        record(rater="bea", rater_kind="person"),
    ).encode()
    parsed = parse_ratings(data, "ratings/mixed.jsonl")
    assert parsed.diagnostics == []
    kinds = [(line.rating.rater, line.rating.rater_kind) for line in parsed.lines]
    assert kinds == [("alice", "person"), ("gpt-judge", "program"), ("bea", "person")]
    assert parsed.lines[1].rating.judge == JUDGE
    # written back as read: a person's record gains no field it never had
    assert "rater_kind" not in parsed.lines[0].rating.to_json()
    assert parsed.lines[1].rating.to_json()["rater_kind"] == "program"


def test_a_rater_kind_that_is_neither_is_an_error_and_the_record_does_not_count():
    parsed = parse_ratings(jsonl(record(rater_kind="robot")).encode(), "ratings/alice.jsonl")
    assert [d.code for d in parsed.diagnostics] == ["rating-wrong-type"]
    assert parsed.lines == []


def test_the_schema_and_the_checker_name_the_same_fields_in_the_same_order():
    schema = RatingRecord.model_json_schema()
    assert list(schema["properties"]) == list(FIELDS) == [f.name for f in RATING_FIELDS]
    assert schema["required"] == [f.name for f in RATING_FIELDS if f.required]
