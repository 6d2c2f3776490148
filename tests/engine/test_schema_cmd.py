"""`voyage-tui schema KIND` prints a JSON Schema an editor's YAML language server can use."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.conftest import task_yaml
from voyage_tui.cli import main


def schema(kind: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["schema", kind]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "kind", ["task", "trajectory", "gold", "run", "agent-run", "rating", "adjudication"]
)
def test_every_kind_prints_a_draft_2020_12_schema(kind, capsys):
    result = schema(kind, capsys)
    assert result["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert result.get("type") in ("object", "array")


def test_task_schema_names_fields_as_written_in_yaml(capsys):
    result = schema("task", capsys)
    assert set(result["required"]) == {
        "id",
        "class",
        "prompt",
        "ground_truth",
        "expected_boundary",
        "visibility",
    }
    assert "class" in result["properties"] and "fixture_class" not in result["properties"]
    assert result["properties"]["class"]["enum"][0] == "bug-diagnosis"


def test_unknown_kind_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["schema", "nonsense"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_schemas_accept_good_files_and_reject_bad_ones(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    task = schema("task", capsys)
    good = yaml.safe_load(task_yaml("t1"))
    jsonschema.validate(good, task)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**good, "class": "bug-diagnosys"}, task)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({k: v for k, v in good.items() if k != "prompt"}, task)

    trajectory = schema("trajectory", capsys)
    jsonschema.validate(
        {
            "kind": "trajectory",
            "id": "tr1",
            "path": "full",
            "prompt": "p",
            "phases": "1: Intake and provenance",
            "gates": "gate-1: scope: pass",
            "terminal_state": "merged",
            "visibility": "holdout",
        },
        trajectory,
    )

    run = schema("run", capsys)
    jsonschema.validate(
        [
            {
                "reviewer": "r",
                "findings": [{"file": "a", "line": 0, "rule_key": "K", "severity": "MAJOR"}],
            }
        ],
        run,
    )
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            [
                {
                    "reviewer": "r",
                    "findings": [{"file": "a", "line": -1, "rule_key": "K", "severity": "MAJOR"}],
                }
            ],
            run,
        )

    gold = schema("gold", capsys)
    jsonschema.validate(
        {
            "schema": "voyage-eval-gold/1",
            "source": "s",
            "description": "d",
            "expected_verdict": "ALLOW",
            "findings": [],
        },
        gold,
    )


def test_the_adjudication_schema_accepts_a_record_and_a_retraction(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    adjudication = schema("adjudication", capsys)
    good = {
        "fixture_id": "t1",
        "run_id": "run-a",
        "adjudicator": "dana",
        "scores": {"correctness": 3},
        "based_on": [{"rater": "alice", "rated_at": "2026-11-20T14:03:11Z"}],
        "note": "",
        "rated_at": "2026-11-22T10:00:00Z",
    }
    jsonschema.validate(good, adjudication)
    jsonschema.validate({**good, "scores": None}, adjudication)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**good, "based_on": [{"rater": "alice"}]}, adjudication)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({k: v for k, v in good.items() if k != "adjudicator"}, adjudication)
