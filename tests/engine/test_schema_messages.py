"""Messages about a value of the wrong shape read as written by hand: pydantic's error types
become sentences that say what the field takes and what was written, with advice only where
it helps (no "quote it" where text would be wrong too, no YAML advice in a JSON file)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tests.conftest import task_yaml
from tests.helpers import validate
from voyage_tui.engine.formats.rating import RatingRecord
from voyage_tui.engine.formats.schema_errors import translate
from voyage_tui.engine.loading.positions import NoPositions
from voyage_tui.engine.workspace.config import parse_config

T = "fixtures/bug-diagnosis/t1/task.yaml"
RUN = "fixtures/bug-diagnosis/t1/runs/run-1.yaml"
GOLD = "gold/pr-1/gold.json"


def messages(root: Path, path: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in validate(root) if d.path == path]


def test_a_wrong_type_for_a_closed_vocabulary_names_the_choices(make_workspace):
    root = make_workspace({T: task_yaml("t1").replace("visibility: public", "visibility: 3")})
    # not "must be text ... (quote it to make it text)": the text '3' is no visibility either
    assert messages(root, T) == [
        ("wrong-type", "`visibility` must be one of: public, holdout, not the number 3")
    ]


def test_a_list_where_text_belongs_says_how_to_keep_several_lines(make_workspace):
    text = task_yaml("t1").replace(
        "prompt: Fix the off-by-one in the pagination helper.",
        "prompt:\n  - Fix the off-by-one.\n  - Add a test.",
    )
    root = make_workspace({T: text})
    assert messages(root, T) == [
        (
            "wrong-type",
            "`prompt` must be text, not a list; to keep several lines, write `prompt: |` and "
            "the lines indented below it",
        )
    ]


def test_a_missing_required_field_says_what_it_holds(make_workspace):
    root = make_workspace({T: task_yaml("t1").replace("id: t1\n", "")})
    assert messages(root, T) == [
        (
            "missing-field",
            "required field `id` is missing; add it: stable, unique identifier; equals the "
            "fixture's directory name",
        )
    ]


def test_a_description_that_starts_with_an_acronym_keeps_its_capitals():
    with pytest.raises(ValidationError) as caught:
        RatingRecord.model_validate(
            {"fixture_id": "t1", "run_id": "r1", "rater": "ana", "scores": {}, "blind": True}
        )
    [d] = translate(caught.value, "ratings/ana.jsonl", NoPositions(), models=(RatingRecord,))
    assert d.message == "required field `rated_at` is missing; add it: ISO 8601, UTC"


def test_a_value_that_fits_no_member_of_a_union_is_one_problem(make_workspace):
    run = "run_id: run-1\nagent: a\noutput: done\ntranscript: 3\n"
    root = make_workspace({T: task_yaml("t1"), RUN: run})
    # not two problems at `transcript.str` and `transcript.list[any]`
    assert messages(root, RUN) == [
        ("wrong-type", "`transcript` must be text or a list, not the number 3")
    ]


def test_a_mapping_key_that_is_not_text_is_named_as_a_key():
    with pytest.raises(ValidationError) as caught:
        RatingRecord.model_validate(
            {
                "fixture_id": "t1",
                "run_id": "r1",
                "rater": "ana",
                "scores": {1: 3},
                "rated_at": "x",
                "blind": True,
            }
        )
    [d] = translate(caught.value, "ratings/ana.jsonl", NoPositions(), models=(RatingRecord,))
    assert d.message == 'the key `1` is read as a number, not text; quote it (`"1"`)'


def _gold(**finding: object) -> str:
    base = {
        "file": "a.py",
        "line": 3,
        "rule_key": "hardcoded-secret",
        "severity": "BLOCKER",
        "owner_reviewer": "correctness",
    }
    return json.dumps(
        {
            "schema": "voyage-eval-gold/1",
            "source": "reviews/pr-1.md",
            "description": "One blocker.",
            "expected_verdict": "BLOCK",
            "findings": [base | finding],
        }
    )


@pytest.mark.parametrize(
    ("finding", "expected"),
    [
        # a number where a whole number belongs: quoting it would not help
        ({"line": 3.5}, "`findings[0].line` must be a whole number, not the number 3.5"),
        # JSON's words in a JSON file, without YAML's advice about yes/no
        ({"file": True}, "`findings[0].file` must be text, not true"),
        (
            {"severity": None},
            "`findings[0].severity` must be one of: BLOCKER, MAJOR, MINOR, SUGGESTION, not null",
        ),
        ({"line": -1}, "`findings[0].line` is -1; it must be 0 or more (0 means file-scoped)"),
    ],
    ids=["float-line", "boolean-file", "null-severity", "negative-line"],
)
def test_gold_json_messages(make_workspace, finding, expected):
    root = make_workspace({GOLD: _gold(**finding)})
    assert expected in [m for _, m in messages(root, GOLD)]


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        (
            '[holdout]\nignore_paths = "*.md"\n',
            "[holdout] `ignore_paths` must be a list, not the text '*.md'; the default [] is used",
        ),
        (
            "[limits]\nmax_file_bytes = 0\n",
            "[limits] `max_file_bytes` is 0; it must be more than 0; the default 1048576 is used",
        ),
        (
            '[paths]\ngold = ["fixtures", 1]\n',
            "[paths] `gold[1]` must be text, not the number 1; the default ['.'] is used",
        ),
    ],
    ids=["list", "range", "list-item"],
)
def test_config_messages_are_sentences(toml, expected):
    assert [d.message for d in parse_config(toml)[1]] == [expected]


class _Other(BaseModel):
    """Types the file formats do not use today: the fallback must still read as a sentence."""

    model_config = ConfigDict(strict=True)

    when: datetime.date
    name: str = Field(default="", max_length=3)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"when": "soon"}, "`when` must be a valid date, not the text 'soon'"),
        (
            {"when": datetime.date(2024, 1, 1), "name": "long"},
            "`name` is too long; it may hold at most 3 characters",
        ),
    ],
    ids=["date", "too-long"],
)
def test_an_error_type_without_its_own_sentence_still_reads_as_one(data, expected):
    with pytest.raises(ValidationError) as caught:
        _Other.model_validate(data)
    [d] = translate(caught.value, "x.yaml", NoPositions(), models=(_Other,))
    assert d.message == expected
    assert "should" not in d.message and "Input" not in d.message
