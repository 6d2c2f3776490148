"""`validate` on runs beside a gold file: reviewer payloads, sharing the contract's validity rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.helpers import codes, only, validate
from tests.scoring.common import dump, finding, gold_finding, gold_record, payload
from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.references.catalogue import Catalogue
from voyage_tui.engine.rules.run_rules import check_run
from voyage_tui.engine.scoring.contract import run_contract

GOLD = "corpus/gold.json"
RUN = "corpus/runs/r1.json"
RECORD = gold_record([gold_finding("a.py", 1, "logic-error", "MAJOR")])


def check_run_file(make_workspace, text: str, gold: bool = True):
    files = {RUN: text}
    if gold:
        files[GOLD] = dump(RECORD)
    return [d for d in validate(make_workspace(files)) if d.path == RUN]


def test_a_valid_run_is_clean(make_workspace):
    assert (
        check_run_file(
            make_workspace, dump([payload("r", finding("a.py", 1, "logic-error", "MAJOR"))])
        )
        == []
    )


def test_an_empty_run_is_clean(make_workspace):
    assert check_run_file(make_workspace, "[]\n") == []
    assert check_run_file(make_workspace, dump([payload("r")])) == []


def test_a_run_that_is_not_a_list_is_an_error(make_workspace):
    d = only(check_run_file(make_workspace, '{"reviewer": "r", "findings": []}\n'), "run-not-list")
    assert d.severity.value == "error" and (d.line, d.column) == (1, 1)


def test_a_bad_payload_is_an_error_at_the_payload(make_workspace):
    text = '[\n  {"reviewer": "r", "findings": []},\n  {"findings": []}\n]\n'
    d = only(check_run_file(make_workspace, text), "invalid-payload")
    assert d.severity.value == "error" and (d.line, d.column) == (3, 3)
    assert "payload [1] (reviewer '#1'): `reviewer` is missing" in d.message


def test_an_invalid_finding_is_an_info_at_the_offending_value(make_workspace):
    text = (
        '[\n  {"reviewer": "correctness", "findings": [\n'
        '    {"file": "a.py", "line": 1, "rule_key": "logic-error", "severity": "MAJOR"},\n'
        '    {"file": "a.py", "line": -4, "rule_key": "logic-error", "severity": "MAJOR"}\n'
        "  ]}\n]\n"
    )
    d = only(check_run_file(make_workspace, text), "invalid-finding")
    assert d.severity.value == "info"
    assert (d.line, d.column) == (4, 30)
    assert "findings[1] of reviewer 'correctness': `line` is -4" in d.message
    assert "left out of the score" in d.message


def test_a_missing_field_points_at_the_finding(make_workspace):
    text = '[\n  {"reviewer": "r", "findings": [\n    {"file": "a.py", "line": 1}\n  ]}\n]\n'
    diagnostics = check_run_file(make_workspace, text)
    d = only(diagnostics, "invalid-finding")
    assert (d.line, d.column) == (3, 5)
    assert "`rule_key` is missing; `severity` is missing" in d.message


def test_a_rule_key_outside_the_catalogue_is_an_info(make_workspace):
    text = dump([payload("r", finding("a.py", 1, "logic-eror", "MAJOR"))])
    d = only(check_run_file(make_workspace, text), "unknown-rule-key")
    assert d.severity.value == "info"
    assert "did you mean `logic-error`" in d.message and "spurious" in d.message


def test_json_in_a_runs_folder_without_gold_beside_it_is_not_a_run(make_workspace):
    assert check_run_file(make_workspace, '{"not": "a run"}\n', gold=False) == []


def test_not_json_is_an_error(make_workspace):
    assert codes(check_run_file(make_workspace, "[{]\n")) == ["json-syntax"]


# --- validate and score can never disagree about which findings count --------------------------

_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 5),
    st.sampled_from(["a.py", "logic-error", "MAJOR", "", "x"]),
)
_finding = st.one_of(
    st.fixed_dictionaries(
        {
            "file": st.just("a.py"),
            "line": st.integers(0, 5),
            "rule_key": st.just("logic-error"),
            "severity": st.just("MAJOR"),
        }
    ),
    st.dictionaries(st.sampled_from(["file", "line", "rule_key", "severity"]), _values),
    _values,
)
_payload = st.one_of(
    st.fixed_dictionaries(
        {"reviewer": st.sampled_from(["a", "b"]), "findings": st.lists(_finding, max_size=4)}
    ),
    st.dictionaries(
        st.sampled_from(["reviewer", "findings"]),
        st.one_of(_values, st.lists(_finding, max_size=2)),
    ),
    _values,
)


@given(st.lists(_payload, max_size=4))
@settings(max_examples=examples(150))
def test_validate_reports_exactly_what_the_contract_leaves_out(run):
    import json

    text = json.dumps(run, indent=1)
    doc = load_json(text, "r.json")
    diagnostics = check_run("r.json", doc.data, doc.positions, Catalogue(("logic-error",)))
    reported = sorted(
        d.message.split(":")[0]
        for d in diagnostics
        if d.code in ("invalid-finding", "invalid-payload")
    )
    left_out = sorted(i.describe().split(":")[0] for i in run_contract(run).invalid)
    assert reported == left_out
